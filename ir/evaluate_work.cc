// The work the interpreter charges for one instruction against EvalOptions::max_steps,
// before it runs it. One step is about one element of an elementwise op (~20 ns);
// ops whose cost is not their output size say so here, so that a budget bounds the
// time: a dot producing 64K elements from 4096-term sums is 268M products, not 64K
// steps, and a placeholder element reads three random operand elements through tanh
// (several hundred ns). Work done by called computations (reduce's to_apply, while
// bodies, sort comparators) is charged as those computations run, with
// kStepsPerCall for each call.
#include <algorithm>
#include <cmath>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {
namespace {

// Elements over every array leaf (tuples copy their leaves).
double elements(const Shape& s) {
  if (s.is_tuple()) {
    double n = 0;
    for (const Shape& e : s.tuple_elements()) n += elements(e);
    return n;
  }
  return static_cast<double>(s.element_count());
}

double operand_elements(const Module& m, InstrId i) {
  double n = 0;
  for (InstrId o : m.operands(i)) n += elements(m.shape(o));
  return n;
}

// Measured against an elementwise element (an add of two f32 arrays, ~17 ns): a dot
// product (a multiply-add in double on packed operands) ~3 ns, a placeholder element
// (three random operand reads through tanh) ~450 ns.
constexpr double kStepsPerProduct = 0.2;
constexpr double kPlaceholderStepsPerElement = 25;

}  // namespace

double work_of(const Module& m, InstrId i) {
  const double out = elements(m.shape(i));
  const double base = std::max(1.0, out);
  const Attributes& a = m.attrs(i);
  switch (m.opcode(i)) {
    case Opcode::kDot: {  // one product per contracted term of every output element
      if (!a.dot_dims || m.operands(i).empty()) return base;
      const Shape& lhs = m.shape(m.operand(i, 0));
      double terms = 1;
      for (int64_t d : a.dot_dims->lhs_contracting)
        if (d >= 0 && d < lhs.rank()) terms *= static_cast<double>(std::max<int64_t>(lhs.dim(d), 0));
      return base + kStepsPerProduct * out * terms;
    }
    case Opcode::kConvolution: {  // kernel elements per output feature, per output element
      if (!a.conv_dims || m.operands(i).size() < 2) return base;
      const Shape& kernel = m.shape(m.operand(i, 1));
      const int64_t f = a.conv_dims->kernel_output_feature;
      if (!kernel.is_array() || f < 0 || f >= kernel.rank() || kernel.dim(f) <= 0) return base;
      return base + kStepsPerProduct * out * static_cast<double>(kernel.element_count()) / static_cast<double>(kernel.dim(f));
    }
    case Opcode::kReduce: case Opcode::kScatter: case Opcode::kSelectAndScatter:
      return base + operand_elements(m, i);  // every input element is read and combined
    case Opcode::kReduceWindow: {
      double taps = 1;
      if (a.window)
        for (const WindowDim& d : *a.window) taps *= static_cast<double>(std::max<int64_t>(d.size, 0));
      return base + out * taps;
    }
    case Opcode::kSort:
      return base + out * std::max(1.0, std::log2(base));  // comparisons, before the comparator's own steps
    case Opcode::kFft: {  // O(n^2) per transformed axis
      double n = 0;
      for (int64_t l : a.fft_length) n += static_cast<double>(std::max<int64_t>(l, 0));
      return base + std::max(out, operand_elements(m, i)) * n;
    }
    case Opcode::kCustomCall: case Opcode::kRng: case Opcode::kRngBitGenerator:
      return base * kPlaceholderStepsPerElement;
    case Opcode::kConstant:
      return m.literal(i).elided() ? base * kPlaceholderStepsPerElement : base;
    default:
      return base;
  }
}

}  // namespace hlsgym::ir::eval
