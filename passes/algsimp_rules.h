// Private to the algebraic simplifier (algebraic_simplifier.cc and algsimp_*.cc): the
// rewriter every rule edits the module through, the constant and shape predicates the
// rules share, and one handler per opcode, grouped by family:
//   algsimp_arithmetic.cc  add, subtract, multiply, divide, remainder, power, negate
//   algsimp_logic.cc       not, and/or/xor, abs, compare, maximum/minimum, select, clamp, convert
//   algsimp_movement.cc    broadcast, reshape, bitcast, copy, transpose, reverse, pad, gte
//   algsimp_slicing.cc     slice, concatenate, dynamic-slice, dynamic-update-slice
//   algsimp_reduce_dot.cc  reduce, reduce-window, dot; constants; sinking through broadcasts
//   algsimp_complex_map_sort.cc real/imag/complex, map of one elementwise op, sort of nothing
//   algsimp_indexing.cc    dynamic-slice/-update-slice indices, gather
//   algsimp_dot_transpose.cc  transposes around a dot
//   algsimp_depth_to_space.cc reshape(transpose(reshape)) as a concatenation of slices
//   algsimp_tuples.cc      tuple-shaped instructions
//   algsimp_util.cc        the Rewriter and the predicates below
//
// Every handler returns true when it replaced instruction `i` (through Rewriter::replace)
// and false, having changed nothing, otherwise: a rule checks all of its conditions
// before it creates the first instruction. Rules are exact under ir::evaluate (floats
// compared by value): a rule that could change float rounding is restricted to the
// cases where it cannot, or left out.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/literal.h"
#include "ir/module.h"

namespace hlsgym::passes::algsimp {

using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using ir::Shape;

// The module and the computation being simplified, and the only way rules edit them.
class Rewriter {
 public:
  explicit Rewriter(ir::Module& m) : m(m) {}
  ir::Module& m;
  ir::CompId comp = ir::kNoId;

  // New instructions in the current computation. `make` infers the shape.
  InstrId make(Opcode op, std::span<const InstrId> operands, ir::Attributes attrs = {});
  InstrId make_shaped(Opcode op, Shape shape, std::span<const InstrId> operands,
                      ir::Attributes attrs = {});
  // broadcast(operand) to `dims` with the operand's element type; `map` as the attribute.
  InstrId broadcast(InstrId operand, std::vector<int64_t> dims, std::vector<int64_t> map);
  // A scalar broadcast to `dims` (the scalar itself when `dims` is empty).
  InstrId broadcast_scalar(InstrId scalar, const std::vector<int64_t>& dims);
  // reshape(operand) to `dims`, or the operand when it already has them.
  InstrId reshape(InstrId operand, std::vector<int64_t> dims);
  // A scalar constant of type `t` broadcast to `dims`.
  InstrId splat_int(ElementType t, int64_t value, const std::vector<int64_t>& dims);
  InstrId splat_literal(ir::Literal scalar, const std::vector<int64_t>& dims);
  // A binary op of same-shaped operands (inferred shape).
  InstrId binary(Opcode op, InstrId a, InstrId b);

  // Moves every use of `old_id` to `new_id` (shapes must be compatible) and removes what
  // became dead. Always returns true, so rules can `return r.replace(i, x);`.
  bool replace(InstrId old_id, InstrId new_id);
  int rewrites() const { return rewrites_; }

 private:
  int rewrites_ = 0;
};

// ---- predicates (algsimp_util.cc) ----

// Integers and pred: every rule of wrap-around arithmetic holds exactly.
bool is_int_like(ElementType t);
// The element type of an array instruction.
inline ElementType type_of(const ir::Module& m, InstrId i) { return m.shape(i).element_type(); }
// A constant or a broadcast of a constant.
bool is_constant_like(const ir::Module& m, InstrId i);
// The raw bits (truncated to the element width) every element of a constant-like `i`
// holds, if they all agree; nullopt otherwise (elided, tuple, complex, or mixed values).
std::optional<uint64_t> uniform_bits(const ir::Module& m, InstrId i);
// The value of a uniform integer (or pred) constant-like `i`, sign-extended for signed types.
std::optional<int64_t> uniform_int(const ir::Module& m, InstrId i);
// The value of a uniform real-float constant-like `i`.
std::optional<double> uniform_float(const ir::Module& m, InstrId i);
// True if every element of a constant-like `i` equals `v` (by value; floats and ints).
bool is_all_value(const ir::Module& m, InstrId i, double v);
// Integer width helpers: the smallest and largest value of an integer type, as bits.
uint64_t width_mask(ElementType t);
uint64_t int_min_bits(ElementType t);
uint64_t int_max_bits(ElementType t);
// The scalar constant under a broadcast-of-scalar (or the scalar constant itself).
InstrId scalar_source(const ir::Module& m, InstrId i);
// True if `i` is a broadcast whose operand is a scalar.
bool is_scalar_broadcast(const ir::Module& m, InstrId i);
// Static array shapes only: the rules never touch dynamic or unbounded dimensions.
bool static_array(const Shape& s);
// `rs` = reshape(y) only adds or drops size-1 dims; `to_y[d]` is the y dim of rs dim d (-1
// for a size-1 dim of rs).
bool degenerate_reshape_map(const Shape& y, const Shape& rs, std::vector<int64_t>& to_y);
bool same_shape(const ir::Module& m, InstrId a, InstrId b);
// Float types the rules treat as IEEE formats with exact power-of-two scaling.
bool is_ieee_float(ElementType t);
// True if the float value `i` can never be -0 (a conservative look a few ops deep).
// x + (+0) is x except for x = -0, so float rules that drop a +0 ask this first.
bool never_negative_zero(const ir::Module& m, InstrId i);
// x + c == x exactly: integers with c = 0; floats with c = -0, or c = +0 and x never -0.
bool adds_nothing(const ir::Module& m, InstrId x, InstrId c);
// The reducer `c` is p0 op p1 (or p1 op p0 for commutative ops): that op.
std::optional<Opcode> simple_reducer(const ir::Module& m, ir::CompId c);

// ---- handlers by opcode ----
// algsimp_arithmetic.cc
bool simplify_add(Rewriter& r, InstrId i);
bool simplify_subtract(Rewriter& r, InstrId i);
bool simplify_multiply(Rewriter& r, InstrId i);
bool simplify_divide(Rewriter& r, InstrId i);
bool simplify_remainder(Rewriter& r, InstrId i);
bool simplify_power(Rewriter& r, InstrId i);
bool simplify_negate(Rewriter& r, InstrId i);
// Constants of a commutative op move to the right: c op A -> A op c.
bool constants_to_the_right(Rewriter& r, InstrId i);
// algsimp_logic.cc
bool simplify_not(Rewriter& r, InstrId i);
bool simplify_and_or_xor(Rewriter& r, InstrId i);
bool simplify_abs(Rewriter& r, InstrId i);
bool simplify_compare(Rewriter& r, InstrId i);
bool simplify_min_max(Rewriter& r, InstrId i);
bool simplify_select(Rewriter& r, InstrId i);
bool simplify_clamp(Rewriter& r, InstrId i);
bool simplify_convert(Rewriter& r, InstrId i);
// algsimp_complex_map_sort.cc
bool simplify_complex_part(Rewriter& r, InstrId i);  // real, imag, complex
bool simplify_map(Rewriter& r, InstrId i);
bool simplify_sort(Rewriter& r, InstrId i);
// algsimp_movement.cc
bool simplify_broadcast(Rewriter& r, InstrId i);
bool simplify_reshape(Rewriter& r, InstrId i);
bool simplify_identity_copy(Rewriter& r, InstrId i);  // copy, bitcast, bitcast-convert
bool simplify_transpose(Rewriter& r, InstrId i);
bool simplify_reverse(Rewriter& r, InstrId i);
bool simplify_pad(Rewriter& r, InstrId i);
bool simplify_iota(Rewriter& r, InstrId i);
// The output dim that input dim `d` of a reshape from `from` to `to` stays whole as
// (same size, same elements before it), if any; never for a size-1 dim.
std::optional<int64_t> unmodified_dim(const std::vector<int64_t>& from, const std::vector<int64_t>& to, int64_t d);
bool simplify_get_tuple_element(Rewriter& r, InstrId i);
// A scalar broadcast feeding a pure data-movement op becomes one broadcast.
bool fold_scalar_broadcast_operand(Rewriter& r, InstrId i);
// algsimp_slicing.cc
bool simplify_slice(Rewriter& r, InstrId i);
bool simplify_concatenate(Rewriter& r, InstrId i);
bool simplify_dynamic_slice(Rewriter& r, InstrId i);
bool simplify_dynamic_update_slice(Rewriter& r, InstrId i);
// algsimp_indexing.cc: trivial start indices, dynamic-slice of a size-1-dims reshape or
// of an iota, dynamic-update-slice of a broadcast scalar, gather of one element
bool simplify_dynamic_slice_indices(Rewriter& r, InstrId i);
bool simplify_dynamic_update_slice_indices(Rewriter& r, InstrId i);
bool simplify_gather(Rewriter& r, InstrId i);
// algsimp_dot_transpose.cc: transpose(dot) swapping the free dims, dot of transposes
bool transpose_of_dot(Rewriter& r, InstrId i);
// algsimp_depth_to_space.cc: reshape(transpose(reshape(x))) as depth-to-space ->
// reshape(concatenate(slices of x))
bool transpose_depth_to_space(Rewriter& r, InstrId i);
bool dot_of_transposes(Rewriter& r, InstrId i);
// algsimp_reduce_dot.cc
bool simplify_reduce(Rewriter& r, InstrId i);
bool simplify_reduce_window(Rewriter& r, InstrId i);
bool simplify_dot(Rewriter& r, InstrId i);
bool simplify_convolution(Rewriter& r, InstrId i);
bool simplify_constant(Rewriter& r, InstrId i);
// algsimp_tuples.cc: tuple constants, variadic reduce/reduce-window, opt-barrier
bool simplify_tuple_shaped(Rewriter& r, InstrId i);
// op(broadcast x, broadcast y) -> broadcast(op(x, y)) for elementwise ops.
bool sink_elementwise_through_broadcasts(Rewriter& r, InstrId i);

}  // namespace hlsgym::passes::algsimp
