#include "ir/cost_analysis.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "ir/error.h"

namespace hlsgym::ir {
namespace {

double elements(const Shape& s) {
  if (s.is_tuple()) {
    double n = 0;
    for (const auto& e : s.tuple_elements()) n += elements(e);
    return n;
  }
  return static_cast<double>(s.element_count());
}

double bytes_of(const Shape& s, const CostOptions& o) {
  if (o.bytes_need_layout && s.is_array() && !s.layout().present && s.rank() > 0) return 0;
  if (s.is_tuple()) return 8.0 * static_cast<double>(s.tuple_elements().size());
  return static_cast<double>(s.byte_size());
}

double log2_ceil(double n) { return n <= 1 ? 0 : std::ceil(std::log2(n)); }

// Output positions o in [0, output) at which window tap `tap` reads real input: u = o *
// stride + c (c = tap * window_dilation - pad_low) must lie in [0, input * base_dilation)
// and be a multiple of base_dilation. Counted in closed form (a range, then a linear
// congruence), so a 2^40-wide convolution costs as much to analyse as a small one.
int64_t valid_outputs_of_tap(const WindowDim& w, int64_t tap, int64_t input, int64_t output) {
  using I = __int128;
  const I s = w.stride, bd = w.base_dilation, c = I(tap) * w.window_dilation - w.pad_low;
  if (s <= 0 || bd <= 0 || output <= 0 || input <= 0) return 0;
  auto floor_div = [](I a, I b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  const I lo = std::max<I>(0, -floor_div(c, s));  // ceil(-c / s)
  const I hi = std::min<I>(output - 1, floor_div(I(input) * bd - 1 - c, s));
  if (hi < lo) return 0;
  if (bd == 1) return static_cast<int64_t>(hi - lo + 1);
  // o * s = -c (mod bd): solvable iff g = gcd(s, bd) divides -c mod bd; then o = o0 (mod bd / g).
  I a = s % bd, b = bd;
  while (b) a %= b, std::swap(a, b);
  const I g = a, r = ((-c) % bd + bd) % bd;
  if (r % g) return 0;
  const I mod = bd / g;
  // Modular inverse of (s / g) mod `mod` by the extended Euclid algorithm.
  I x0 = 1, x1 = 0, r0 = (s / g) % mod, r1 = mod;
  while (r1) {
    const I q = r0 / r1;
    std::tie(r0, r1) = std::make_pair(r1, r0 - q * r1);
    std::tie(x0, x1) = std::make_pair(x1, x0 - q * x1);
  }
  const I o0 = (((r / g) % mod) * ((x0 % mod + mod) % mod)) % mod;
  const I first = lo + ((o0 - lo) % mod + mod) % mod;
  return first > hi ? 0 : static_cast<int64_t>((hi - first) / mod + 1);
}

// Number of (kernel position, output position) pairs that read real input along one
// spatial dimension (XLA's valid_positions), with base and window dilation. Windows of
// more than 2^16 taps are sampled at 2^16 evenly spaced taps (bounded work).
double valid_positions(const WindowDim& w, int64_t input, int64_t output) {
  constexpr int64_t kMaxTaps = int64_t{1} << 16;
  const int64_t step = w.size <= kMaxTaps ? 1 : w.size / kMaxTaps;
  double n = 0;
  for (int64_t k = 0; k < w.size; k += step) n += static_cast<double>(valid_outputs_of_tap(w, k, input, output));
  return n * static_cast<double>(step);
}

double convolution_flops(const Module& m, InstrId i) {
  const Attributes& a = m.attrs(i);
  if (!a.conv_dims || !a.window) return 0;
  const ConvDims& d = *a.conv_dims;
  const Shape& lhs = m.shape(m.operand(i, 0));
  const Shape& rhs = m.shape(m.operand(i, 1));
  const Shape& out = m.shape(i);
  const double in_feat = static_cast<double>(lhs.dim(d.input_feature));
  const double out_feat = static_cast<double>(rhs.dim(d.kernel_output_feature));
  const double batch = static_cast<double>(lhs.dim(d.input_batch));
  double positions = 1;
  for (size_t s = 0; s < d.input_spatial.size() && s < a.window->size(); ++s)
    positions *= valid_positions((*a.window)[s], lhs.dim(d.input_spatial[s]), out.dim(d.output_spatial[s]));
  return 2.0 * (in_feat / static_cast<double>(a.feature_group_count)) * out_feat *
         (batch / static_cast<double>(a.batch_group_count)) * positions;
}

// Where the formulas read a value's sizes and a called computation's cost from: the
// shapes themselves (instruction_cost) or a CostTable. One set of formulas for both, so
// the table cannot drift from the definition.
struct FromShapes {
  const Module& m;
  const CostOptions& o;
  double bytes(InstrId j) const { return bytes_of(m.shape(j), o); }
  double elements_of(InstrId j) const { return elements(m.shape(j)); }
  Cost computation(CompId c) const;
};

struct FromTable {
  const Module& m;
  CostTable& table;
  double bytes(InstrId j) const { return table.sizes(j).bytes; }
  double elements_of(InstrId j) const { return table.sizes(j).elements; }
  Cost computation(CompId c) const { return table.computation(c); }
};

// Flops and transcendentals of one application of a scalar computation (to_apply).
template <class Src>
Cost sub_cost(const Src& src, CompId c) {
  Cost k = src.computation(c);
  k.bytes_accessed = 0;
  return k;
}

// The elements of the first result (a variadic reduce's outputs are a tuple).
template <class Src>
double first_result_elements(const Module& m, InstrId i, const Src& src) {
  const Shape& out = m.shape(i);
  return out.is_tuple() ? elements(out.tuple_element(0)) : src.elements_of(i);
}

template <class Src>
double default_bytes(const Module& m, InstrId i, const Src& src) {
  double b = src.bytes(i);
  for (InstrId op : m.operands(i)) b += src.bytes(op);
  return b;
}

// XLA's formulas for instruction i. Reads the payload only for the opcodes whose formula
// needs more than the opcode and the value sizes (called computations, attributes).
template <class Src>
Cost cost_with(const Module& m, InstrId i, const Src& src) {
  Cost c;
  const Opcode op = m.opcode(i);
  const OpcodeInfo& inf = info(op);
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kGetTupleElement:
    case Opcode::kBitcast: case Opcode::kDomain: case Opcode::kAfterAll: case Opcode::kAddDependency:
      return c;
    case Opcode::kTuple:
      c.bytes_accessed = src.bytes(i);
      return c;
    case Opcode::kSlice:
      c.bytes_accessed = 2 * src.bytes(i);
      return c;
    case Opcode::kDynamicSlice: {
      c.bytes_accessed = 2 * src.bytes(i);
      auto ops = m.operands(i);
      for (size_t k = 1; k < ops.size(); ++k) c.bytes_accessed += src.bytes(ops[k]);
      return c;
    }
    case Opcode::kDynamicUpdateSlice: {
      auto ops = m.operands(i);
      c.bytes_accessed = 2 * src.bytes(ops[1]);
      for (size_t k = 2; k < ops.size(); ++k) c.bytes_accessed += src.bytes(ops[k]);
      return c;
    }
    case Opcode::kGather:
      c.bytes_accessed = 2 * src.bytes(i) + src.bytes(m.operand(i, 1));
      return c;
    case Opcode::kDot: {
      double contracted = 1;
      const Shape& lhs = m.shape(m.operand(i, 0));
      if (const auto& d = m.attrs(i).dot_dims)
        for (int64_t k : d->lhs_contracting) contracted *= static_cast<double>(lhs.dim(k));
      c.flops = 2 * src.elements_of(i) * contracted;
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kConvolution:
      c.flops = convolution_flops(m, i);
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    case Opcode::kReduce: {
      const auto& called = m.called(i);
      const size_t n = m.operands(i).size() / 2;
      if (!called.empty() && n > 0) {
        const Cost s = sub_cost(src, called[0]);
        const double in = src.elements_of(m.operand(i, 0));
        const double res = first_result_elements(m, i, src);
        c.flops = s.flops * (in - res);
        c.transcendentals = s.transcendentals * (in - res);
      }
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kReduceWindow: {
      const auto& called = m.called(i);
      if (!called.empty() && m.attrs(i).window) {
        const Cost s = sub_cost(src, called[0]);
        double window = 1;
        for (const auto& w : *m.attrs(i).window) window *= static_cast<double>(w.size);
        const double res = first_result_elements(m, i, src);
        c.flops = s.flops * (window - 1) * res;
        c.transcendentals = s.transcendentals * (window - 1) * res;
      }
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kMap: {
      const auto& called = m.called(i);
      if (!called.empty()) {
        const Cost s = sub_cost(src, called[0]);
        c.flops = s.flops * src.elements_of(i);
        c.transcendentals = s.transcendentals * src.elements_of(i);
      }
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kScatter: {
      const auto& called = m.called(i);
      const size_t n = (m.operands(i).size() - 1) / 2;
      const InstrId updates = m.operand(i, 1 + n);
      if (!called.empty()) {
        const Cost s = sub_cost(src, called[0]);
        c.flops = s.flops * src.elements_of(updates);
        c.transcendentals = s.transcendentals * src.elements_of(updates);
      }
      double upd_bytes = 0;
      for (size_t k = 0; k < n; ++k) upd_bytes += src.bytes(m.operand(i, 1 + n + k));
      c.bytes_accessed = 3 * upd_bytes + src.bytes(m.operand(i, n));
      return c;
    }
    case Opcode::kSelectAndScatter: {
      const auto& called = m.called(i);
      const double source = src.elements_of(m.operand(i, 1));
      double window = 1;
      if (m.attrs(i).window)
        for (const auto& w : *m.attrs(i).window) window *= static_cast<double>(w.size);
      if (called.size() == 2) {
        const Cost sel = sub_cost(src, called[0]), sc = sub_cost(src, called[1]);
        c.flops = sel.flops * source * (window - 1) + sc.flops * source;
      }
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kSort: {
      const double n = src.elements_of(m.operand(i, 0));
      c.flops = n * log2_ceil(n);
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    }
    case Opcode::kRng: case Opcode::kRngBitGenerator:
      c.transcendentals = src.elements_of(i);
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    case Opcode::kAllReduce:
      c.flops = src.elements_of(i);
      c.bytes_accessed = default_bytes(m, i, src);
      return c;
    case Opcode::kWhile:
      for (CompId k : m.called(i)) c += src.computation(k);
      return c;
    case Opcode::kConditional: {
      for (CompId k : m.called(i)) {
        const Cost b = src.computation(k);
        c.flops = std::max(c.flops, b.flops);
        c.transcendentals = std::max(c.transcendentals, b.transcendentals);
        c.bytes_accessed = std::max(c.bytes_accessed, b.bytes_accessed);
      }
      return c;
    }
    case Opcode::kCall: case Opcode::kFusion: case Opcode::kAsyncStart:
      for (CompId k : m.called(i)) c += src.computation(k);
      return c;
    case Opcode::kCustomCall:
      return c;
    case Opcode::kCopy:  // a move, not arithmetic (XLA counts no flops)
      c.bytes_accessed = default_bytes(m, i, src);
      return c;  // unknown to XLA (it reports -1); counted separately in the features
    default:
      break;
  }
  if (inf.elementwise) {
    if (inf.transcendental) c.transcendentals = src.elements_of(i);
    else c.flops = src.elements_of(i);
  }
  c.bytes_accessed = default_bytes(m, i, src);
  return c;
}

Cost computation_cost(const Module& m, CompId c, const CostOptions& o) {
  Cost total;
  const FromShapes src{m, o};
  for (InstrId i : m.computation(c).order)
    if (m.is_live(i)) total += cost_with(m, i, src);
  return total;
}

Cost FromShapes::computation(CompId c) const { return computation_cost(m, c, o); }

}  // namespace

double shape_bytes(const Shape& s, const CostOptions& o) { return bytes_of(s, o); }

Cost instruction_cost(const Module& m, InstrId i, const CostOptions& o) { return cost_with(m, i, FromShapes{m, o}); }

CostTable::CostTable(const Module& m, const CostOptions& opts)
    : m_(m), opts_(opts), sizes_(new ValueSizes[m.instruction_slots()]), computation_cost_(m.computation_slots()),
      computation_state_(m.computation_slots(), 0) {
  // Memory-bound: a payload is ~1.3 kB (17 MB for a 13.8k-instruction module, beyond the
  // caches). Fetching the payloads' sizes kPayloadAhead slots ahead overlaps their misses.
  // The sizes are usually known (InstrPayload::sizes: a pass leaves most payloads shared
  // with the state before); the shape's dims, another allocation, are walked only for a
  // payload seen for the first time.
  constexpr InstrId kPayloadAhead = 16;
  const InstrId slots = static_cast<InstrId>(m.instruction_slots());
  for (InstrId i = 0; i < slots; ++i) {
    if (i + kPayloadAhead < slots) {
      // Both ends: the sizes may straddle two cache lines.
      const char* q = reinterpret_cast<const char*>(&m.instr(i + kPayloadAhead).payload->sizes);
      __builtin_prefetch(q);
      __builtin_prefetch(q + sizeof(PayloadSizes) - 1);
    }
    if (!m.is_live(i)) {
      sizes_[i] = {0, 0, 0, 0, false};
      continue;
    }
    const InstrPayload& p = m.payload(i);
    ShapeSizes known;
    if (!p.sizes.get(known)) {
      const Shape& s = p.shape;
      known.array = s.is_array();
      known.element_count = s.element_count();
      known.byte_size = s.byte_size();
      known.elements = s.is_tuple() ? elements(s) : static_cast<double>(known.element_count);
      known.bytes = bytes_of(s, CostOptions{});
      p.sizes.set(known);
    }
    ValueSizes& v = sizes_[i];
    v.array = known.array;
    v.element_count = known.element_count;
    v.byte_size = known.byte_size;
    v.elements = known.elements;
    v.bytes = opts_.bytes_need_layout ? bytes_of(p.shape, opts_) : known.bytes;
  }
}

Cost CostTable::instruction(InstrId i) { return cost_with(m_, i, FromTable{m_, *this}); }

Cost CostTable::computation(CompId c) {
  if (computation_state_[c] == 2) return computation_cost_[c];
  // The verifier rejects call cycles; costing one would never end.
  if (computation_state_[c] == 1) throw Error("cost analysis: computation " + m_.computation(c).name + " calls itself");
  computation_state_[c] = 1;
  Cost total;
  for (InstrId i : m_.computation(c).order)
    if (m_.is_live(i)) total += instruction(i);
  computation_state_[c] = 2;
  return computation_cost_[c] = total;
}

Cost module_cost(const Module& m, const CostOptions& o) {
  if (m.entry() == kNoId) return {};
  return computation_cost(m, m.entry(), o);
}

}  // namespace hlsgym::ir
