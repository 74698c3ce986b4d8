// Reductions and ops that apply a computation: reduce, reduce-window, map, sort,
// select-and-scatter, topk. Reductions combine in the order EvalOptions::accumulation
// names (TermOrder): by default sequentially in row-major order.
#include <algorithm>
#include <numeric>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {

std::optional<Opcode> simple_combiner(const Module& m, CompId c) {
  const Computation& comp = m.computation(c);
  if (comp.params.size() != 2 || comp.root == kNoId) return std::nullopt;
  const InstrId r = comp.root;
  const Opcode op = m.opcode(r);
  if (!info(op).elementwise || m.operands(r).size() != 2) return std::nullopt;
  if (op == Opcode::kCompare || op == Opcode::kSelect) return std::nullopt;
  const InstrId a = m.operand(r, 0), b = m.operand(r, 1);
  if (a == comp.params[0] && b == comp.params[1]) return op;
  if (a == comp.params[1] && b == comp.params[0] && info(op).commutative) return op;
  return std::nullopt;
}

std::optional<Opcode> shortcut_combiner(const OpContext& c, CompId fn) {
  if (c.options && c.options->observer) return std::nullopt;
  return simple_combiner(c.m, fn);
}

namespace {

// The accumulators of one output position of a (variadic) reduction: one per chunk of its
// terms (TermOrder; the reference order has a single chunk, so combines in row-major order).
struct Reducer {
  const OpContext& c;
  CompId fn;
  size_t n;                       // number of reduced operands
  std::optional<Opcode> simple;   // fast path when n == 1
  TermOrder order;
  std::vector<std::vector<Literal>> partials;  // [chunk][operand]
  std::vector<bool> started;                   // the chunk holds a value

  Reducer(const OpContext& ctx, size_t reduced, int64_t terms)
      : c(ctx), fn(ctx.m.called(ctx.i)[0]), n(reduced),
        simple(reduced == 1 ? shortcut_combiner(ctx, fn) : std::nullopt), order(term_order(ctx, terms)),
        partials(static_cast<size_t>(order.chunks)) {}

  // A new output: chunk 0 starts from the init values, the other chunks hold nothing yet.
  void begin(std::span<const Literal* const> inits) {
    started.assign(partials.size(), false);
    partials[0].clear();
    for (size_t k = 0; k < n; ++k) partials[0].push_back(*inits[k]);
    started[0] = true;
  }

  // Term `term` (in the RTL's visiting order) of the output: inputs[k][in_index].
  void add(int64_t term, std::span<const Literal* const> inputs, int64_t in_index) {
    const auto ch = static_cast<size_t>(order.chunk_of(term));
    if (started[ch]) return combine(partials[ch], inputs, in_index);
    // A later chunk's lane seeds its partial with its first term as it is (plan_split).
    partials[ch].clear();
    for (size_t k = 0; k < n; ++k) partials[ch].push_back(scalar_at(*inputs[k], in_index));
    started[ch] = true;
  }

  // The chunks joined by the tree, with the combiner (left partial first), into outs[k][o].
  void finish(std::vector<Literal>& outs, int64_t o) {
    order.for_each_join([&](int64_t l, int64_t r) {
      auto& left = partials[static_cast<size_t>(l)];
      auto& right = partials[static_cast<size_t>(r)];
      if (!started[static_cast<size_t>(r)]) return;  // all of its terms were padding
      if (!started[static_cast<size_t>(l)]) {
        left = std::move(right);
        started[static_cast<size_t>(l)] = true;
        return;
      }
      std::vector<const Literal*> right_values;
      for (const Literal& v : right) right_values.push_back(&v);
      combine(left, right_values, 0);
    });
    for (size_t k = 0; k < n; ++k) copy_element(partials[0][k], 0, outs[k], o);
  }

 private:
  // acc[k] (k < n) combined with inputs[k][in_index]; results written back into acc.
  void combine(std::vector<Literal>& acc, std::span<const Literal* const> inputs, int64_t in_index) const {
    if (simple) {
      binary_element(*simple, acc[0], 0, *inputs[0], in_index, acc[0], 0);
      return;
    }
    std::vector<Literal> elems;
    for (size_t k = 0; k < n; ++k) elems.push_back(scalar_at(*inputs[k], in_index));
    std::vector<const Literal*> call_args;
    for (auto& a : acc) call_args.push_back(&a);
    for (auto& e : elems) call_args.push_back(&e);
    Literal r = c.apply(fn, call_args);
    if (!r.is_tuple()) acc[0] = std::move(r);
    else for (size_t k = 0; k < n; ++k) acc[k] = std::move(r.tuple_elements()[k]);
  }
};

Literal pack(const Shape& shape, std::vector<Literal>& outs) {
  if (!shape.is_tuple()) return std::move(outs[0]);
  Literal t(shape);
  for (size_t k = 0; k < outs.size(); ++k) t.tuple_elements()[k] = std::move(outs[k]);
  return t;
}

Literal reduce(const OpContext& c) {
  const size_t n = c.args.size() / 2;
  const Shape& in_shape = c.args[0]->shape();
  const auto& rdims = c.attrs().dimensions;
  std::vector<int64_t> keep;
  for (int64_t d = 0; d < in_shape.rank(); ++d)
    if (std::find(rdims.begin(), rdims.end(), d) == rdims.end()) keep.push_back(d);
  std::vector<Literal> outs;
  for (size_t k = 0; k < n; ++k)
    outs.emplace_back(c.shape().is_tuple() ? c.shape().tuple_element(static_cast<int64_t>(k)) : c.shape());
  const int64_t out_n = outs[0].element_count();
  std::vector<int64_t> rsizes;
  for (int64_t d : rdims) rsizes.push_back(in_shape.dim(d));
  int64_t per_out = 1;
  for (int64_t s : rsizes) per_out *= s;
  Reducer red(c, n, per_out);
  const auto in_strides = row_major_strides(in_shape.dims());
  std::vector<int64_t> out_dims;
  for (int64_t d : keep) out_dims.push_back(in_shape.dim(d));
  std::vector<int64_t> idx(in_shape.rank());
  std::span<const Literal* const> inputs(c.args.data(), n), inits(c.args.data() + n, n);
  for (int64_t o = 0; o < out_n; ++o) {
    red.begin(inits);
    auto oi = unravel(o, out_dims);
    for (size_t q = 0; q < keep.size(); ++q) idx[keep[q]] = oi[q];
    std::vector<int64_t> ri(rsizes.size(), 0);
    for (int64_t r = 0; r < per_out; ++r, next_index(ri, rsizes)) {
      for (size_t q = 0; q < rdims.size(); ++q) idx[rdims[q]] = ri[q];
      red.add(r, inputs, ravel(idx, in_strides));
    }
    red.finish(outs, o);
  }
  return pack(c.shape(), outs);
}

Literal reduce_window(const OpContext& c) {
  const size_t n = c.args.size() / 2;
  const Window& w = *c.attrs().window;
  const Shape& in_shape = c.args[0]->shape();
  const auto in_strides = row_major_strides(in_shape.dims());
  std::vector<Literal> outs;
  for (size_t k = 0; k < n; ++k)
    outs.emplace_back(c.shape().is_tuple() ? c.shape().tuple_element(static_cast<int64_t>(k)) : c.shape());
  const auto& out_dims = outs[0].shape().dims();
  std::vector<int64_t> wsizes;
  for (const auto& wd : w) wsizes.push_back(wd.size);
  int64_t wn = 1;
  for (int64_t s : wsizes) wn *= s;
  Reducer red(c, n, wn);
  std::span<const Literal* const> inputs(c.args.data(), n), inits(c.args.data() + n, n);
  std::vector<int64_t> src(in_shape.rank());
  for (int64_t o = 0; o < outs[0].element_count(); ++o) {
    red.begin(inits);
    auto oi = unravel(o, out_dims);
    std::vector<int64_t> wi(wsizes.size(), 0);
    for (int64_t r = 0; r < wn; ++r, next_index(wi, wsizes)) {
      bool inside = true;
      for (size_t d = 0; d < w.size() && inside; ++d) {
        src[d] = window_source(w[d], oi[d], wi[d], in_shape.dim(static_cast<int64_t>(d)));
        inside = src[d] >= 0;
      }
      if (inside) red.add(r, inputs, ravel(src, in_strides));
    }
    red.finish(outs, o);
  }
  return pack(c.shape(), outs);
}

Literal map(const OpContext& c) {
  Literal out(c.shape());
  const CompId fn = c.m.called(c.i)[0];
  for (int64_t k = 0; k < out.element_count(); ++k) {
    std::vector<Literal> elems;
    for (const Literal* a : c.args) elems.push_back(scalar_at(*a, k));
    std::vector<const Literal*> ptrs;
    for (auto& e : elems) ptrs.push_back(&e);
    copy_element(c.apply(fn, ptrs), 0, out, k);
  }
  return out;
}

Literal sort(const OpContext& c) {
  const CompId cmp = c.m.called(c.i)[0];
  const Shape& s = c.args[0]->shape();
  const int64_t dim = c.attrs().dimensions.empty() ? s.rank() - 1 : c.attrs().dimensions[0];
  const int64_t len = s.dim(dim);
  const auto strides = row_major_strides(s.dims());
  std::vector<Literal> outs;
  for (const Literal* a : c.args) outs.push_back(*a);
  const int64_t lines = len == 0 ? 0 : s.element_count() / len;
  std::vector<int64_t> other_dims;
  for (int64_t d = 0; d < s.rank(); ++d)
    if (d != dim) other_dims.push_back(s.dim(d));
  for (int64_t line = 0; line < lines; ++line) {
    auto oi = unravel(line, other_dims);
    std::vector<int64_t> idx;
    for (int64_t d = 0, q = 0; d < s.rank(); ++d) idx.push_back(d == dim ? 0 : oi[q++]);
    const int64_t base = ravel(idx, strides);
    std::vector<int64_t> perm(len);
    std::iota(perm.begin(), perm.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      std::vector<Literal> e;
      for (const Literal* arg : c.args) {
        e.push_back(scalar_at(*arg, base + a * strides[dim]));
        e.push_back(scalar_at(*arg, base + b * strides[dim]));
      }
      std::vector<const Literal*> ptrs;
      for (auto& x : e) ptrs.push_back(&x);
      return c.apply(cmp, ptrs).get_int(0) != 0;
    };
    std::stable_sort(perm.begin(), perm.end(), less);  // stable either way: deterministic
    for (size_t k = 0; k < c.args.size(); ++k)
      for (int64_t j = 0; j < len; ++j)
        copy_element(*c.args[k], base + perm[j] * strides[dim], outs[k], base + j * strides[dim]);
  }
  return pack(c.shape(), outs);
}

Literal topk(const OpContext& c) {
  const Literal& in = *c.args[0];
  const Shape& s = in.shape();
  const int64_t len = s.dims().back(), k = c.attrs().k;
  const bool largest = c.attrs().largest.value_or(true);
  Literal vals(c.shape().tuple_element(0)), idxs(c.shape().tuple_element(1));
  const int64_t rows = len == 0 ? 0 : s.element_count() / len;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> perm(len);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
      double x = in.get_double(r * len + a), y = in.get_double(r * len + b);
      return largest ? x > y : x < y;
    });
    for (int64_t j = 0; j < k; ++j) {
      copy_element(in, r * len + perm[j], vals, r * k + j);
      idxs.set_int(r * k + j, perm[j]);
    }
  }
  Literal t(c.shape());
  t.tuple_elements()[0] = std::move(vals);
  t.tuple_elements()[1] = std::move(idxs);
  return t;
}

// select-and-scatter: for each window of the operand, `select` picks one position (the
// first that wins every pairwise comparison); the source value is scattered there with
// `scatter` onto the init value.
Literal select_and_scatter(const OpContext& c) {
  const Literal& operand = *c.args[0];
  const Literal& source = *c.args[1];
  const CompId select = c.m.called(c.i)[0], scatter = c.m.called(c.i)[1];
  const Window& w = *c.attrs().window;
  Literal out(c.shape());
  for (int64_t k = 0; k < out.element_count(); ++k) copy_element(*c.args[2], 0, out, k);
  const auto strides = row_major_strides(operand.shape().dims());
  std::vector<int64_t> wsizes;
  for (const auto& wd : w) wsizes.push_back(wd.size);
  int64_t wn = 1;
  for (int64_t s : wsizes) wn *= s;
  for (int64_t o = 0; o < source.element_count(); ++o) {
    auto oi = unravel(o, source.shape().dims());
    int64_t best = -1;
    for (int64_t r = 0; r < wn; ++r) {
      auto wi = unravel(r, wsizes);
      std::vector<int64_t> src(wsizes.size());
      bool inside = true;
      for (size_t d = 0; d < w.size(); ++d) {
        src[d] = oi[d] * w[d].stride - w[d].pad_low + wi[d];
        inside &= src[d] >= 0 && src[d] < operand.shape().dim(static_cast<int64_t>(d));
      }
      if (!inside) continue;
      const int64_t cand = ravel(src, strides);
      if (best < 0) {
        best = cand;
        continue;
      }
      Literal a = scalar_at(operand, best), b = scalar_at(operand, cand);
      const Literal* ptrs[] = {&a, &b};
      if (!c.apply(select, ptrs).get_int(0)) best = cand;
    }
    if (best < 0) continue;
    Literal cur = scalar_at(out, best), val = scalar_at(source, o);
    const Literal* ptrs[] = {&cur, &val};
    copy_element(c.apply(scatter, ptrs), 0, out, best);
  }
  return out;
}

}  // namespace

bool handles_reduction(Opcode op) {
  return op == Opcode::kReduce || op == Opcode::kReduceWindow || op == Opcode::kMap ||
         op == Opcode::kSort || op == Opcode::kSelectAndScatter || op == Opcode::kTopK;
}

Literal eval_reduction(const OpContext& c) {
  switch (c.m.opcode(c.i)) {
    case Opcode::kReduce: return reduce(c);
    case Opcode::kReduceWindow: return reduce_window(c);
    case Opcode::kMap: return map(c);
    case Opcode::kSort: return sort(c);
    case Opcode::kSelectAndScatter: return select_and_scatter(c);
    case Opcode::kTopK: return topk(c);
    default: c.fail("not a reduction");
  }
}

}  // namespace hlsgym::ir::eval
