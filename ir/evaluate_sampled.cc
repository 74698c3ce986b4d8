// Demand-driven evaluation of a few output elements of a big graph. Each element asks
// only for the operand elements it depends on (memoised) through elementwise, data
// movement, dot and simple reductions; any other op is evaluated whole, once, when an
// element of it is first needed.
#include <algorithm>
#include <unordered_map>

#include "ir/error.h"
#include "ir/evaluate_internal.h"

namespace hlsgym::ir {
namespace {
using eval::OpContext;

class SampledEvaluator {
 public:
  SampledEvaluator(const Module& m, std::span<const Literal> args, const EvalOptions& o)
      : m_(m), args_(args), opts_(o) {}

  Literal element(InstrId i, int64_t k) {
    const uint64_t key = (static_cast<uint64_t>(i) << 40) | static_cast<uint64_t>(k);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Literal v = compute(i, k);
    memo_.emplace(key, v);
    return v;
  }

  // The value of a whole instruction of the entry (its operands evaluated whole too).
  const Literal& whole(InstrId i) {
    if (auto it = full_.find(i); it != full_.end()) return it->second;
    if (m_.opcode(i) == Opcode::kParameter) return full_.emplace(i, args_[m_.attrs(i).parameter_number]).first->second;
    // Evaluate the instruction as the root of a tiny module view: reuse the full
    // evaluator on the entry, restricted by running it over a copy whose root is i.
    Module sub = m_;
    sub.set_root(m_.entry(), i);
    EvalResult r = evaluate(sub, args_, opts_);
    placeholders_ |= r.uses_placeholders;
    return full_.emplace(i, std::move(r.value)).first->second;
  }

  bool placeholders() const { return placeholders_; }

 private:
  Literal compute(InstrId i, int64_t k) {
    const Opcode op = m_.opcode(i);
    const Shape& s = m_.shape(i);
    const Attributes& a = m_.attrs(i);
    auto operand_at = [&](size_t n, const std::vector<int64_t>& idx) {
      InstrId o = m_.operand(i, n);
      return element(o, eval::ravel(idx, row_major_strides(m_.shape(o).dims())));
    };
    if (!s.is_array()) return eval::scalar_at(whole(i), 0);  // not reached for array leaves
    const auto idx = eval::unravel(k, s.dims());
    switch (op) {
      case Opcode::kParameter: return eval::scalar_at(args_[a.parameter_number], k);
      case Opcode::kConstant:
        if (!m_.literal(i).elided()) return eval::scalar_at(m_.literal(i), k);
        return eval::scalar_at(whole(i), k);
      case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kCopy:
        return element(m_.operand(i, 0), k);
      case Opcode::kBroadcast: {
        std::vector<int64_t> src;
        for (int64_t d : a.dimensions) src.push_back(idx[d]);
        return operand_at(0, src);
      }
      case Opcode::kTranspose: {
        std::vector<int64_t> src(idx.size());
        for (size_t q = 0; q < a.dimensions.size(); ++q) src[a.dimensions[q]] = idx[q];
        return operand_at(0, src);
      }
      case Opcode::kSlice: {
        std::vector<int64_t> src(idx.size());
        for (size_t q = 0; q < idx.size(); ++q) src[q] = a.slice[q].start + idx[q] * a.slice[q].stride;
        return operand_at(0, src);
      }
      case Opcode::kReverse: {
        std::vector<int64_t> src = idx;
        for (int64_t d : a.dimensions) src[d] = m_.shape(m_.operand(i, 0)).dim(d) - 1 - idx[d];
        return operand_at(0, src);
      }
      case Opcode::kConcatenate: {
        const int64_t cd = a.dimensions[0];
        std::vector<int64_t> src = idx;
        for (size_t n = 0; n < m_.operands(i).size(); ++n) {
          const int64_t len = m_.shape(m_.operand(i, n)).dim(cd);
          if (src[cd] < len) return operand_at(n, src);
          src[cd] -= len;
        }
        break;
      }
      case Opcode::kGetTupleElement: {
        InstrId t = m_.operand(i, 0);
        if (m_.opcode(t) == Opcode::kTuple) return element(m_.operand(t, static_cast<size_t>(a.tuple_index)), k);
        return eval::scalar_at(whole(t).tuple_elements().at(static_cast<size_t>(a.tuple_index)), k);
      }
      case Opcode::kDot: return dot_element(i, idx);
      case Opcode::kReduce:
        if (m_.operands(i).size() == 2)
          if (auto op2 = eval::simple_combiner(m_, m_.called(i)[0])) return reduce_element(i, idx, *op2);
        break;
      default: break;
    }
    if (info(op).elementwise && op != Opcode::kBitcastConvert) {
      std::vector<Literal> ops;
      for (size_t n = 0; n < m_.operands(i).size(); ++n) {
        const Shape& os = m_.shape(m_.operand(i, n));
        ops.push_back(element(m_.operand(i, n), os.element_count() == 1 ? 0 : k));
      }
      std::vector<const Literal*> ptrs;
      for (auto& o : ops) ptrs.push_back(&o);
      const Shape scalar = Shape::scalar(s.element_type());
      eval::Apply none = [](CompId, std::span<const Literal* const>) -> Literal { return {}; };
      OpContext ctx{m_, i, std::move(ptrs), none, &scalar};
      return eval::eval_elementwise(ctx);
    }
    return eval::scalar_at(whole(i), k);
  }

  // The same sequential row-major combination as the whole evaluator's reduce.
  Literal reduce_element(InstrId i, const std::vector<int64_t>& oi, Opcode combiner) {
    const Shape& in = m_.shape(m_.operand(i, 0));
    const auto& rdims = m_.attrs(i).dimensions;
    std::vector<int64_t> full(in.rank()), rsizes;
    for (int64_t d = 0, q = 0; d < in.rank(); ++d) {
      if (std::find(rdims.begin(), rdims.end(), d) == rdims.end()) full[d] = oi[q++];
    }
    for (int64_t d : rdims) rsizes.push_back(in.dim(d));
    Literal acc = element(m_.operand(i, 1), 0);
    const auto strides = row_major_strides(in.dims());
    std::vector<int64_t> ri(rsizes.size(), 0);
    int64_t count = 1;
    for (int64_t s : rsizes) count *= s;
    for (int64_t r = 0; r < count; ++r, eval::next_index(ri, rsizes)) {
      for (size_t q = 0; q < rdims.size(); ++q) full[rdims[q]] = ri[q];
      Literal x = element(m_.operand(i, 0), eval::ravel(full, strides));
      eval::binary_element(combiner, acc, 0, x, 0, acc, 0);
    }
    return acc;
  }

  Literal dot_element(InstrId i, const std::vector<int64_t>& oi) {
    // The same accumulation as the whole evaluator's dot (evaluate_contraction.cc):
    // double for floating point, wrapping 64-bit for integers, in the same order.
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
    const bool fp = is_floating(l.element_type()) || is_floating(r.element_type()) ||
                    is_floating(m_.shape(i).element_type());
    double f = 0;
    uint64_t n = 0;
    const auto ls = row_major_strides(l.dims()), rs = row_major_strides(r.dims());
    for (int64_t k = 0; k < cn; ++k) {
      auto ci = eval::unravel(k, csizes);
      for (size_t j = 0; j < ci.size(); ++j) li[d.lhs_contracting[j]] = ri[d.rhs_contracting[j]] = ci[j];
      Literal x = element(m_.operand(i, 0), eval::ravel(li, ls));
      Literal y = element(m_.operand(i, 1), eval::ravel(ri, rs));
      if (fp) f += x.get_double(0) * y.get_double(0);
      else n += static_cast<uint64_t>(x.get_int(0)) * static_cast<uint64_t>(y.get_int(0));
    }
    Literal out(Shape::scalar(m_.shape(i).element_type()));
    if (fp) out.set_double(0, f);
    else out.set_int(0, static_cast<int64_t>(n));
    return out;
  }

  const Module& m_;
  std::span<const Literal> args_;
  EvalOptions opts_;
  std::unordered_map<uint64_t, Literal> memo_;
  std::unordered_map<InstrId, Literal> full_;
  bool placeholders_ = false;
};

uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  return z ^ (z >> 31);
}

}  // namespace

SampledResult evaluate_sampled(const Module& m, std::span<const Literal> args, int samples, uint64_t seed,
                               const EvalOptions& opts) {
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
    std::vector<int64_t> idx;
    if (!s.is_array() || s.element_count() == 0) {
      out.indices.push_back({});
      out.values.emplace_back(Shape(s.is_array() ? s.element_type() : ElementType::kS32, {0}));
      continue;
    }
    for (int k = 0; k < samples; ++k) idx.push_back(static_cast<int64_t>(mix(state) % static_cast<uint64_t>(s.element_count())));
    Literal vals(Shape(s.element_type(), {static_cast<int64_t>(idx.size())}));
    for (size_t k = 0; k < idx.size(); ++k) eval::copy_element(ev.element(leaf, idx[k]), 0, vals, static_cast<int64_t>(k));
    out.indices.push_back(std::move(idx));
    out.values.push_back(std::move(vals));
  }
  out.uses_placeholders = ev.placeholders();
  return out;
}

}  // namespace hlsgym::ir
