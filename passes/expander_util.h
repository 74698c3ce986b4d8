// Helpers shared by the expander passes (batchnorm_expander, gather_expander, ...): finding
// the instructions a pass rewrites in one walk, and a small builder that appends new
// instructions to one computation with their shapes inferred (or given where HLO cannot
// infer them: broadcast, reshape, convert, iota, gather).
#pragma once
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::expand {

// Live instructions of the given opcodes in every live computation, in definition order.
// One pass over the computations' definition orders; allocates only for the hits.
std::vector<ir::InstrId> find_all(const ir::Module& m, std::initializer_list<ir::Opcode> ops);

// Makes `replacement` take the place of `old`: copies old's shape (with its layout) when
// compatible, moves every use and root status, and removes `old` and whatever died.
void replace_with(ir::Module& m, ir::InstrId old, ir::InstrId replacement);

// A scalar computation `ROOT r = op(p0, p1)` of element type `t` (reduce / scatter bodies).
ir::CompId binary_computation(ir::Module& m, ir::Opcode op, ir::ElementType t, const std::string& prefix);

// Computations called by a fusion instruction (indexed by CompId).
std::vector<bool> fusion_bodies(const ir::Module& m);

// Dimensions 0..n-1 without `skip` (e.g. every dimension but the feature dimension).
std::vector<int64_t> all_dims_except(int64_t n, int64_t skip);

// True if every value of `from` converts to `to` and back unchanged under the interpreter's
// conversion rules (no rounding, no saturation), so a convert to `to` loses nothing.
bool converts_exactly(ir::ElementType from, ir::ElementType to);

// Appends instructions to computation `c` of `m`.
class Builder {
 public:
  Builder(ir::Module& m, ir::CompId c) : m_(m), c_(c) {}
  ir::Module& module() { return m_; }
  ir::CompId computation() const { return c_; }

  // Shape inferred from the operands (ir::infer_shape); `called` become the called computations.
  ir::InstrId op(ir::Opcode op, std::span<const ir::InstrId> operands, ir::Attributes attrs = {},
                 std::span<const ir::CompId> called = {});
  // Shape given (ops whose shape HLO cannot infer).
  ir::InstrId shaped(ir::Opcode op, ir::Shape shape, std::span<const ir::InstrId> operands,
                     ir::Attributes attrs = {}, std::span<const ir::CompId> called = {});

  ir::InstrId constant(ir::Literal value);
  ir::InstrId scalar(ir::ElementType t, double v);        // floats (and small integers)
  ir::InstrId scalar_int(ir::ElementType t, int64_t v);   // integers, wrapped to the width
  // A scalar constant broadcast to `dims` (XLA's MakeScalarLike); the bare constant if rank 0.
  ir::InstrId splat(ir::ElementType t, double v, const std::vector<int64_t>& dims);
  ir::InstrId splat_int(ir::ElementType t, int64_t v, const std::vector<int64_t>& dims);

  ir::InstrId unary(ir::Opcode op, ir::InstrId x) { return this->op(op, {&x, 1}); }
  ir::InstrId binary(ir::Opcode op, ir::InstrId a, ir::InstrId b);
  ir::InstrId compare(ir::InstrId a, ir::InstrId b, ir::ComparisonDirection d);
  ir::InstrId select(ir::InstrId p, ir::InstrId a, ir::InstrId b);
  ir::InstrId convert(ir::InstrId x, ir::ElementType t);          // no-op if already t
  ir::InstrId bitcast_convert(ir::InstrId x, ir::ElementType t);  // no-op if already t
  ir::InstrId reshape(ir::InstrId x, const std::vector<int64_t>& dims);  // no-op if same dims
  ir::InstrId broadcast(ir::InstrId x, const std::vector<int64_t>& dims, std::vector<int64_t> mapping);
  ir::InstrId transpose(ir::InstrId x, std::vector<int64_t> permutation);  // no-op if identity
  ir::InstrId iota(ir::ElementType t, const std::vector<int64_t>& dims, int64_t dimension);
  ir::InstrId slice(ir::InstrId x, std::vector<ir::SliceDim> ranges);
  // Element k of a rank-1 value as a scalar (slice + reshape).
  ir::InstrId element(ir::InstrId vector, int64_t k);
  ir::InstrId dynamic_slice(ir::InstrId x, std::span<const ir::InstrId> starts, std::vector<int64_t> sizes);
  ir::InstrId dynamic_update_slice(ir::InstrId x, ir::InstrId update, std::span<const ir::InstrId> starts);
  ir::InstrId reduce(ir::InstrId x, ir::InstrId init, std::vector<int64_t> dims, ir::CompId to_apply);
  ir::InstrId tuple(std::span<const ir::InstrId> elements);
  ir::InstrId get_tuple_element(ir::InstrId t, int64_t index);

 private:
  ir::Module& m_;
  ir::CompId c_;
};

}  // namespace hlsgym::passes::expand
