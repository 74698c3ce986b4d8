// Demand-driven evaluation of a few output elements of a big graph. Each element asks
// only for the operand elements it depends on (memoised): elementwise ops, data
// movement, dot, convolution, reduce and reduce-window with a simple combiner are
// computed element by element, and call/fusion bodies are entered per call site (a
// "frame"), so their parameters resolve to the caller's operand elements. Other ops
// (while, conditional, sort, scatter, custom ops, ...) are evaluated whole, once.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/bitcast_layout.h"
#include "ir/error.h"
#include "ir/evaluate_internal.h"

namespace hlsgym::ir {
namespace {
using eval::OpContext;

struct Frame {
  CompId comp;
  uint32_t parent;  // frame of the caller (the entry frame is its own parent)
  InstrId call;     // the call/fusion instruction in the parent frame
};

struct ElementKey {
  uint64_t frame_instr;
  int64_t index;
  bool operator==(const ElementKey&) const = default;
};
struct ElementKeyHash {
  size_t operator()(const ElementKey& k) const {
    return std::hash<uint64_t>()(k.frame_instr * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(k.index));
  }
};

class SampledEvaluator {
 public:
  SampledEvaluator(const Module& m, std::span<const Literal> args, const EvalOptions& o)
      : m_(m), args_(args), opts_(o) {
    frames_.push_back({m.entry(), 0, kNoId});
    if (!opts_.steps_spent) opts_.steps_spent = &own_steps_;  // whole sub-graphs share the budget
  }

  Literal element(uint32_t f, InstrId i, int64_t k) {
    const uint64_t fi = (uint64_t{f} << 32) | i;
    if (auto it = full_.find(fi); it != full_.end() && m_.shape(i).is_array()) return eval::scalar_at(it->second, k);
    const ElementKey key{fi, k};
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    // One element costs far more here than in the whole evaluator; once more than a small
    // share of an instruction is wanted (by a dot or a full reduction downstream, say),
    // evaluate it whole and serve every later element from that.
    const int64_t n = m_.shape(i).element_count();
    if (m_.shape(i).is_array() && ++requests_[fi] > std::max<int64_t>(64, n / 64))
      return eval::scalar_at(whole(f, i), k);
    Literal v = compute(f, i, k);
    memo_.emplace(key, v);
    return v;
  }

  bool placeholders() const { return placeholders_; }

 private:
  // The whole value of instruction i in frame f, evaluated by the full interpreter on a
  // copy of the module whose entry is the frame's computation with i as its root.
  const Literal& whole(uint32_t f, InstrId i) {
    const uint64_t key = (uint64_t{f} << 32) | i;
    if (auto it = full_.find(key); it != full_.end()) return it->second;
    std::vector<Literal> frame_args;
    const Frame& fr = frames_[f];
    if (f == 0) {
      frame_args.assign(args_.begin(), args_.end());
    } else {
      for (InstrId o : m_.operands(fr.call)) frame_args.push_back(whole(fr.parent, o));
    }
    Module sub = m_;
    sub.set_entry(fr.comp);
    sub.set_root(fr.comp, i);
    // Values already known whole become constants, so their cones are not recomputed.
    for (const auto& [known, value] : full_) {
      if ((known >> 32) != f || !value.shape().is_array()) continue;
      const InstrId j = static_cast<InstrId>(known & 0xffffffffu);
      if (m_.opcode(j) == Opcode::kParameter) continue;
      sub.set_operands(j, {});
      sub.set_opcode(j, Opcode::kConstant);
      sub.mutable_payload(j).literal = std::make_shared<const Literal>(value);
      sub.mutable_payload(j).called.clear();
    }
    EvalResult r = evaluate(sub, frame_args, opts_);
    placeholders_ |= r.uses_placeholders;
    return full_.emplace(key, std::move(r.value)).first->second;
  }

  uint32_t child_frame(uint32_t f, InstrId call) {
    auto [it, inserted] = children_.try_emplace({f, call}, static_cast<uint32_t>(frames_.size()));
    if (inserted) frames_.push_back({m_.called(call)[0], f, call});
    return it->second;
  }

  // One element computed on demand: its share of the op's work, plus the memo and the
  // scalar literals it goes through (measured at about twenty elementwise steps).
  void charge(InstrId i) {
    constexpr double kStepsPerSampledElement = 20;
    const double n = std::max<double>(1, static_cast<double>(m_.shape(i).element_count()));
    double& spent = *opts_.steps_spent;
    spent += kStepsPerSampledElement + eval::work_of(m_, i) / n;
    if (opts_.max_steps > 0 && spent > opts_.max_steps)
      throw EvalBudgetExceeded(fmt::format("the interpretation exceeded its budget of {:.3g} steps (elements "
                                           "computed, products summed) at {}", opts_.max_steps, m_.name(i)),
                               {m_.source_file(), m_.payload(i).line, m_.payload(i).column});
  }

  Literal operand_element(uint32_t f, InstrId i, size_t n, const std::vector<int64_t>& idx) {
    const InstrId o = m_.operand(i, n);
    return element(f, o, eval::ravel(idx, row_major_strides(m_.shape(o).dims())));
  }

  Literal compute(uint32_t f, InstrId i, int64_t k) {
    const Opcode op = m_.opcode(i);
    const Shape& s = m_.shape(i);
    const Attributes& a = m_.attrs(i);
    charge(i);
    if (!s.is_array()) return eval::scalar_at(whole(f, i), 0);
    const auto idx = eval::unravel(k, s.dims());
    switch (op) {
      case Opcode::kParameter:
        if (f == 0) return eval::scalar_at(args_[a.parameter_number], k);
        return element(frames_[f].parent, m_.operand(frames_[f].call, a.parameter_number), k);
      case Opcode::kConstant:
        if (!m_.literal(i).elided()) return eval::scalar_at(m_.literal(i), k);
        return eval::scalar_at(whole(f, i), k);
      case Opcode::kCall: case Opcode::kFusion: {
        const uint32_t callee = child_frame(f, i);
        return element(callee, m_.computation(frames_[callee].comp).root, k);
      }
      case Opcode::kBitcast:
        if (!bitcast_is_reshape(m_.shape(m_.operand(i, 0)), m_.shape(i)))
          return element(f, m_.operand(i, 0), bitcast_source(m_.shape(m_.operand(i, 0)), m_.shape(i), k));
        return element(f, m_.operand(i, 0), k);
      case Opcode::kReshape: case Opcode::kCopy:
        return element(f, m_.operand(i, 0), k);
      case Opcode::kBroadcast: {
        std::vector<int64_t> src;
        for (int64_t d : a.dimensions) src.push_back(idx[d]);
        return operand_element(f, i, 0, src);
      }
      case Opcode::kTranspose: {
        std::vector<int64_t> src(idx.size());
        for (size_t q = 0; q < a.dimensions.size(); ++q) src[a.dimensions[q]] = idx[q];
        return operand_element(f, i, 0, src);
      }
      case Opcode::kSlice: {
        std::vector<int64_t> src(idx.size());
        for (size_t q = 0; q < idx.size(); ++q) src[q] = a.slice[q].start + idx[q] * a.slice[q].stride;
        return operand_element(f, i, 0, src);
      }
      case Opcode::kReverse: {
        std::vector<int64_t> src = idx;
        for (int64_t d : a.dimensions) src[d] = m_.shape(m_.operand(i, 0)).dim(d) - 1 - idx[d];
        return operand_element(f, i, 0, src);
      }
      case Opcode::kConcatenate: {
        const int64_t cd = a.dimensions[0];
        std::vector<int64_t> src = idx;
        for (size_t n = 0; n < m_.operands(i).size(); ++n) {
          const int64_t len = m_.shape(m_.operand(i, n)).dim(cd);
          if (src[cd] < len) return operand_element(f, i, n, src);
          src[cd] -= len;
        }
        break;
      }
      case Opcode::kPad: return pad_element(f, i, idx);
      case Opcode::kGetTupleElement: {
        const InstrId t = m_.operand(i, 0);
        const size_t n = static_cast<size_t>(a.tuple_index);
        if (m_.opcode(t) == Opcode::kTuple) return element(f, m_.operand(t, n), k);
        if (m_.opcode(t) == Opcode::kCall || m_.opcode(t) == Opcode::kFusion) {
          const uint32_t callee = child_frame(f, t);
          const InstrId root = m_.computation(frames_[callee].comp).root;
          if (m_.opcode(root) == Opcode::kTuple) return element(callee, m_.operand(root, n), k);
        }
        return eval::scalar_at(whole(f, t).tuple_elements().at(n), k);
      }
      case Opcode::kDot: return dot_element(f, i, idx);
      case Opcode::kConvolution: return convolution_element(f, i, idx);
      case Opcode::kReduce:
        if (m_.operands(i).size() == 2)
          if (auto comb = eval::simple_combiner(m_, m_.called(i)[0])) return reduce_element(f, i, idx, *comb);
        break;
      case Opcode::kReduceWindow:
        if (m_.operands(i).size() == 2)
          if (auto comb = eval::simple_combiner(m_, m_.called(i)[0])) return reduce_window_element(f, i, idx, *comb);
        break;
      default: break;
    }
    if (info(op).elementwise && op != Opcode::kBitcastConvert) return elementwise_element(f, i, k);
    return eval::scalar_at(whole(f, i), k);
  }

  Literal elementwise_element(uint32_t f, InstrId i, int64_t k) {
    std::vector<Literal> ops;
    for (size_t n = 0; n < m_.operands(i).size(); ++n) {
      const Shape& os = m_.shape(m_.operand(i, n));
      ops.push_back(element(f, m_.operand(i, n), os.element_count() == 1 ? 0 : k));
    }
    std::vector<const Literal*> ptrs;
    for (auto& o : ops) ptrs.push_back(&o);
    const Shape scalar = Shape::scalar(m_.shape(i).element_type());
    const eval::Apply none = [](CompId, std::span<const Literal* const>) -> Literal { return {}; };
    OpContext ctx{m_, i, std::move(ptrs), none, &scalar};
    return eval::eval_elementwise(ctx);
  }

  Literal pad_element(uint32_t f, InstrId i, const std::vector<int64_t>& idx) {
    const auto& pads = m_.attrs(i).padding;
    const Shape& in = m_.shape(m_.operand(i, 0));
    std::vector<int64_t> src(idx.size());
    for (size_t d = 0; d < idx.size(); ++d) {
      const int64_t u = idx[d] - pads[d].low;
      const int64_t step = pads[d].interior + 1;
      if (u < 0 || u % step || u / step >= in.dim(static_cast<int64_t>(d))) return element(f, m_.operand(i, 1), 0);
      src[d] = u / step;
    }
    return operand_element(f, i, 0, src);
  }

  // The same sequential row-major combination as the whole evaluator's reduce.
  Literal reduce_element(uint32_t f, InstrId i, const std::vector<int64_t>& oi, Opcode combiner) {
    const Shape& in = m_.shape(m_.operand(i, 0));
    const auto& rdims = m_.attrs(i).dimensions;
    std::vector<int64_t> full(in.rank()), rsizes;
    for (int64_t d = 0, q = 0; d < in.rank(); ++d)
      if (std::find(rdims.begin(), rdims.end(), d) == rdims.end()) full[d] = oi[q++];
    for (int64_t d : rdims) rsizes.push_back(in.dim(d));
    Literal acc = element(f, m_.operand(i, 1), 0);
    int64_t count = 1;
    for (int64_t s : rsizes) count *= s;
    std::vector<int64_t> ri(rsizes.size(), 0);
    for (int64_t r = 0; r < count; ++r, eval::next_index(ri, rsizes)) {
      for (size_t q = 0; q < rdims.size(); ++q) full[rdims[q]] = ri[q];
      Literal x = operand_element(f, i, 0, full);
      eval::binary_element(combiner, acc, 0, x, 0, acc, 0);
    }
    return acc;
  }

  // The same window walk as the whole evaluator's reduce-window.
  Literal reduce_window_element(uint32_t f, InstrId i, const std::vector<int64_t>& oi, Opcode combiner) {
    const Window& w = *m_.attrs(i).window;
    const Shape& in = m_.shape(m_.operand(i, 0));
    std::vector<int64_t> wsizes, src(in.rank()), wi;
    for (const auto& wd : w) wsizes.push_back(wd.size);
    wi.assign(wsizes.size(), 0);
    int64_t count = 1;
    for (int64_t s : wsizes) count *= s;
    Literal acc = element(f, m_.operand(i, 1), 0);
    for (int64_t r = 0; r < count; ++r, eval::next_index(wi, wsizes)) {
      bool inside = true;
      for (size_t d = 0; d < w.size() && inside; ++d) {
        src[d] = window_source(w[d], oi[d], wi[d], in.dim(static_cast<int64_t>(d)));
        inside = src[d] >= 0;
      }
      if (!inside) continue;
      Literal x = operand_element(f, i, 0, src);
      eval::binary_element(combiner, acc, 0, x, 0, acc, 0);
    }
    return acc;
  }

  // Accumulation as in evaluate_contraction.cc: double for floating point, wrapping
  // 64-bit for integers, in the same order.
  struct Acc {
    bool fp;
    double f = 0;
    uint64_t n = 0;
    void add(const Literal& x, const Literal& y) {
      if (fp) f += x.get_double(0) * y.get_double(0);
      else n += static_cast<uint64_t>(x.get_int(0)) * static_cast<uint64_t>(y.get_int(0));
    }
    Literal result(ElementType t) const {
      Literal out(Shape::scalar(t));
      if (fp) out.set_double(0, f);
      else out.set_int(0, static_cast<int64_t>(n));
      return out;
    }
  };
  bool fp_product(InstrId i) const {
    return is_floating(m_.shape(m_.operand(i, 0)).element_type()) ||
           is_floating(m_.shape(m_.operand(i, 1)).element_type()) || is_floating(m_.shape(i).element_type());
  }

  Literal dot_element(uint32_t f, InstrId i, const std::vector<int64_t>& oi) {
    const Shape& l = m_.shape(m_.operand(i, 0));
    const Shape& r = m_.shape(m_.operand(i, 1));
    const DotDims d = m_.attrs(i).dot_dims.value_or(DotDims{});
    std::vector<int64_t> li(l.rank()), ri(r.rank()), csizes;
    size_t q = 0;
    for (size_t k = 0; k < d.lhs_batch.size(); ++k, ++q) li[d.lhs_batch[k]] = ri[d.rhs_batch[k]] = oi[q];
    auto is_in = [](const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); };
    for (int64_t x = 0; x < l.rank(); ++x)
      if (!is_in(d.lhs_batch, x) && !is_in(d.lhs_contracting, x)) li[x] = oi[q++];
    for (int64_t x = 0; x < r.rank(); ++x)
      if (!is_in(d.rhs_batch, x) && !is_in(d.rhs_contracting, x)) ri[x] = oi[q++];
    for (int64_t x : d.lhs_contracting) csizes.push_back(l.dim(x));
    int64_t cn = 1;
    for (int64_t c : csizes) cn *= c;
    Acc acc{fp_product(i)};
    std::vector<int64_t> ci(csizes.size(), 0);
    for (int64_t k = 0; k < cn; ++k, eval::next_index(ci, csizes)) {
      for (size_t j = 0; j < ci.size(); ++j) li[d.lhs_contracting[j]] = ri[d.rhs_contracting[j]] = ci[j];
      acc.add(operand_element(f, i, 0, li), operand_element(f, i, 1, ri));
    }
    return acc.result(m_.shape(i).element_type());
  }

  Literal convolution_element(uint32_t f, InstrId i, const std::vector<int64_t>& oi) {
    const Attributes& a = m_.attrs(i);
    const ConvDims& d = *a.conv_dims;
    const Window& w = *a.window;
    const Shape& in = m_.shape(m_.operand(i, 0));
    const Shape& ker = m_.shape(m_.operand(i, 1));
    const size_t ns = d.input_spatial.size();
    const int64_t kin = ker.dim(d.kernel_input_feature), out_feat = ker.dim(d.kernel_output_feature);
    const int64_t out_batch = m_.shape(i).dim(d.output_batch);
    const int64_t fpg = std::max<int64_t>(out_feat / a.feature_group_count, 1);
    const int64_t fpb = std::max<int64_t>(out_feat / a.batch_group_count, 1);
    const int64_t b = oi[d.output_batch], ft = oi[d.output_feature];
    std::vector<int64_t> ii(in.rank()), ki(ker.rank()), ksizes, kk;
    for (size_t s = 0; s < ns; ++s) ksizes.push_back(ker.dim(d.kernel_spatial[s]));
    int64_t kn = 1;
    for (int64_t s : ksizes) kn *= s;
    Acc acc{fp_product(i)};
    for (int64_t ci = 0; ci < kin; ++ci) {
      ii[d.input_feature] = (ft / fpg) * kin + ci;
      ii[d.input_batch] = (ft / fpb) * out_batch + b;
      ki[d.kernel_input_feature] = ci;
      ki[d.kernel_output_feature] = ft;
      kk.assign(ksizes.size(), 0);
      for (int64_t k = 0; k < kn; ++k, eval::next_index(kk, ksizes)) {
        bool inside = true;
        for (size_t s = 0; s < ns && inside; ++s) {
          const WindowDim& wd = w[s];
          ii[d.input_spatial[s]] = window_source(wd, oi[d.output_spatial[s]], kk[s], in.dim(d.input_spatial[s]));
          inside = ii[d.input_spatial[s]] >= 0;
          ki[d.kernel_spatial[s]] = wd.reversal ? ksizes[s] - 1 - kk[s] : kk[s];
        }
        if (inside) acc.add(operand_element(f, i, 0, ii), operand_element(f, i, 1, ki));
      }
    }
    return acc.result(m_.shape(i).element_type());
  }

  const Module& m_;
  std::span<const Literal> args_;
  EvalOptions opts_;
  std::vector<Frame> frames_;
  std::map<std::pair<uint32_t, InstrId>, uint32_t> children_;
  std::unordered_map<ElementKey, Literal, ElementKeyHash> memo_;
  std::unordered_map<uint64_t, Literal> full_;
  std::unordered_map<uint64_t, int64_t> requests_;  // memo misses per (frame, instruction)
  bool placeholders_ = false;
  double own_steps_ = 0;
};

uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  return z ^ (z >> 31);
}

}  // namespace

SampledResult evaluate_sampled(const Module& m, std::span<const Literal> args, int samples, uint64_t seed,
                               const EvalOptions& opts) {
  // Its element walkers sum in the reference order; cosim evaluates whole designs.
  if (opts.accumulation != AccumulationOrder::kReference)
    throw Error("evaluate_sampled: only the reference accumulation order is supported (use evaluate for the "
                "hardware order)");
  SampledEvaluator ev(m, args, opts);
  SampledResult out;
  uint64_t state = seed ^ 0x5bd1e995;
  // Output leaves: the root, or the operands of a root tuple.
  const InstrId root = m.computation(m.entry()).root;
  std::vector<InstrId> leaves;
  if (m.opcode(root) == Opcode::kTuple) leaves.assign(m.operands(root).begin(), m.operands(root).end());
  else leaves.push_back(root);
  for (InstrId leaf : leaves) {
    const Shape& s = m.shape(leaf);
    if (!s.is_array() || s.element_count() == 0) {
      out.indices.push_back({});
      out.values.emplace_back(Shape(s.is_array() ? s.element_type() : ElementType::kS32, {0}));
      continue;
    }
    std::vector<int64_t> idx;
    for (int k = 0; k < samples; ++k)
      idx.push_back(static_cast<int64_t>(mix(state) % static_cast<uint64_t>(s.element_count())));
    Literal vals(Shape(s.element_type(), {static_cast<int64_t>(idx.size())}));
    for (size_t k = 0; k < idx.size(); ++k)
      eval::copy_element(ev.element(0, leaf, idx[k]), 0, vals, static_cast<int64_t>(k));
    out.indices.push_back(std::move(idx));
    out.values.push_back(std::move(vals));
  }
  out.uses_placeholders = ev.placeholders();
  return out;
}

}  // namespace hlsgym::ir
