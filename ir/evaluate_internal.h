// Shared pieces of the interpreter (evaluate*.cc). Values are Literals; element access
// goes through Literal's typed getters, which keeps every element type bit-exact with
// one code path per op.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/evaluate.h"

namespace hlsgym::ir::eval {

// Applies a called computation to scalar/array arguments (reduce, map, sort, scatter...).
using Apply = std::function<Literal(CompId, std::span<const Literal* const>)>;

// Operation context: the module, the instruction, its operand values, and a way to run
// called computations.
struct OpContext {
  const Module& m;
  InstrId i;
  std::vector<const Literal*> args;
  const Apply& apply;
  const Shape* result_shape = nullptr;  // overrides m.shape(i): one element of an elementwise op
  const EvalOptions* options = nullptr;  // null: the defaults
  [[noreturn]] void fail(const std::string& what) const;
  const Shape& shape() const { return result_shape ? *result_shape : m.shape(i); }
  const Attributes& attrs() const { return m.attrs(i); }
};

// Multi-dimensional index helpers (row-major).
std::vector<int64_t> unravel(int64_t linear, std::span<const int64_t> dims);
int64_t ravel(std::span<const int64_t> index, std::span<const int64_t> strides);
// Advances `index` to the next position in row-major order within `dims` (odometer);
// false after the last one. Avoids an allocation per step in inner loops.
inline bool next_index(std::vector<int64_t>& index, std::span<const int64_t> dims) {
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

// Element copies between literals of the same element type.
void copy_element(const Literal& from, int64_t i, Literal& to, int64_t j);
Literal scalar_at(const Literal& from, int64_t i);  // rank-0 literal of element i

// out[k] = in[i] converted to out's element type (the convert op's semantics).
void convert_element(const Literal& in, int64_t i, Literal& out, int64_t k);
// out[k] = a[i] op b[j] for a binary elementwise op, same element type throughout.
void binary_element(Opcode op, const Literal& a, int64_t i, const Literal& b, int64_t j, Literal& out,
                    int64_t k);
// The opcode of a to_apply computation that is just `p0 op p1` (or `p1 op p0` for a
// commutative op), for fast reductions; nullopt otherwise.
std::optional<Opcode> simple_combiner(const Module& m, CompId c);
// simple_combiner of op c.i's computation fn, unless an EvalOptions::observer must see
// each application of fn.
std::optional<Opcode> shortcut_combiner(const OpContext& c, CompId fn);

// The order in which the terms of one output of a reduction or contraction are combined
// (EvalOptions::accumulation): `chunks` runs of `chunk` consecutive terms, each combined
// sequentially, then joined by a binary tree. The reference order is one chunk.
struct TermOrder {
  bool hardware = false;  // AccumulationOrder::kHardware
  int64_t chunk = 1;      // terms per chunk (the last may have fewer)
  int64_t chunks = 1;     // chunks that hold at least one term
  int64_t chunk_of(int64_t term) const { return term / chunk; }
  // Calls join(left, right) for the tree's pairs, level by level: level l pairs chunk c
  // with chunk c + 2^(l-1) for c a multiple of 2^l (the RTL's emit_tree); the result
  // belongs in `left`. A chunk without a partner on a level passes through.
  template <class Join>
  void for_each_join(Join&& join) const {
    for (int64_t step = 1; step < chunks; step *= 2)
      for (int64_t left = 0; left + step < chunks; left += 2 * step) join(left, left + step);
  }
};
// The order of instruction c.i's outputs, each of `terms` terms.
TermOrder term_order(const OpContext& c, int64_t terms);

Literal eval_elementwise(const OpContext& c);   // unary, binary, ternary, compare, convert
Literal eval_movement(const OpContext& c);      // broadcast, reshape, transpose, slice, ...
Literal eval_reduction(const OpContext& c);     // reduce, reduce-window, map, sort, select-and-scatter
Literal eval_contraction(const OpContext& c);   // dot, convolution
Literal eval_indexing(const OpContext& c);      // gather, scatter, dynamic-slice, dus
Literal eval_threefry(const OpContext& c);
// JAX's Threefry-2x32 block function (20 rounds) on one counter pair, in place.
void threefry2x32(uint32_t k0, uint32_t k1, uint32_t& x0, uint32_t& x1);      // custom-call cuda_threefry2x32
Literal eval_batch_norm(const OpContext& c);
Literal eval_fft(const OpContext& c);  // FFT, IFFT, RFFT, IRFFT
Literal placeholder_value(const OpContext& c);  // deterministic hash fill

// The steps instruction i costs against EvalOptions::max_steps (evaluate_work.cc).
double work_of(const Module& m, InstrId i);
// The steps a call of a computation costs besides its instructions (a frame, its value
// map and operand vectors: ~500 ns, measured on a reduce with a two-op to_apply).
constexpr double kStepsPerCall = 25;

bool handles_elementwise(Opcode op);
bool handles_movement(Opcode op);
bool handles_reduction(Opcode op);
bool handles_indexing(Opcode op);

}  // namespace hlsgym::ir::eval
