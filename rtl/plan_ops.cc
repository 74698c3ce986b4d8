// plan_task: the engine, leaves and item schedule of one computing task, and the check
// that the item schedule takes exactly the cycles the hardware model charges
// (hwmodel/timing.h): a task issues items during [start, start + busy) and its last
// result is written at start + latency.
//
// Item schedules (lane q, issue cycle j, unit of depth D):
// - stream, l lanes: element e = j l + q, for j < ceil(N / l); written at j + D.
// - accumulate (l <= P outputs): lane q owns outputs q p .. q p + p - 1 (p = ceil(P / l))
//   and visits them round robin, one term per output per round of r = max(p, A) cycles,
//   so an accumulator is reread only after its last update (A cycles) landed:
//   term k of slot s issues at j = k r + s. The interpreter's order (row-major terms,
//   init first) is kept per output, so non-associative combiners stay exact.
#include <fmt/core.h>

#include <algorithm>

#include "hwmodel/timing.h"
#include "ir/error.h"
#include "rtl/plan_internal.h"

namespace hlsgym::rtl::plan_detail {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {

std::vector<int64_t> dims_of(const ir::Shape& s) { return s.dims(); }

// Accumulating ops fill leaves indexed by item id o * K + k.
struct Accumulation {
  int64_t outputs = 0, terms = 0;
  int64_t id(int64_t o, int64_t k) const { return o * terms + k; }
  size_t size() const { return static_cast<size_t>(outputs * terms); }
};

Leaf make_leaf(ElementType type, size_t n) {
  Leaf l;
  l.type = type;
  l.sources.resize(n);
  return l;
}

void plan_stream(const PlanContext& c, TaskPlan& tp) {
  tp.engine = Engine::kStream;
  tp.outputs = c.m.shape(tp.instr).element_count();
  ExprBuilder b(c, tp, tp.outputs);
  b.set_root(tp.instr);
  tp.expr.root = b.node(tp.instr, b.identity());
}

// The accumulator leaf: the init value for the first term, else the output so far.
Leaf acc_leaf(const TaskPlan& tp, const Accumulation& a, int init_buffer) {
  Leaf l = make_leaf(tp.out_type, a.size());
  for (int64_t o = 0; o < a.outputs; ++o)
    for (int64_t k = 0; k < a.terms; ++k)
      l.sources[a.id(o, k)] = k == 0 ? Source{Source::kRead, init_buffer, 0, 0} : Source{Source::kRead, tp.out_buffer, o, 0};
  return l;
}

// reduce and reduce-window: the combiner body over (acc, x).
void finish_reduce(const PlanContext& c, TaskPlan& tp, const Accumulation& a, Leaf x) {
  const InstrId i = tp.instr;
  if (c.m.operands(i).size() != 2) c.refuse(i, "variadic reductions are not supported");
  tp.engine = Engine::kReduce;
  tp.outputs = a.outputs;
  tp.terms = a.terms;
  ExprBuilder b(c, tp, static_cast<int64_t>(a.size()));
  const int acc = b.leaf(acc_leaf(tp, a, c.buffer_of(c.m.operand(i, 1))));
  const int xv = b.leaf(std::move(x));
  b.set_params([&](int64_t k, const ExprBuilder::Index&) {
    if (k > 1) c.refuse(i, "the combiner has more than two parameters");
    return k == 0 ? acc : xv;
  });
  const ir::Computation& body = c.m.computation(c.m.called(i).at(0));
  tp.expr.root = b.node(body.root, ExprBuilder::Index(a.size(), 0));
  if (c.m.shape(body.root).is_tuple()) c.refuse(i, "the combiner returns a tuple");
  // Whether the partial results may be joined in a tree (reassociated and reordered).
  const Opcode op = c.m.opcode(body.root);
  const auto ops = c.m.operands(body.root);
  const bool on_params = ops.size() == 2 && body.params.size() == 2 &&
                         ((ops[0] == body.params[0] && ops[1] == body.params[1]) ||
                          (ops[0] == body.params[1] && ops[1] == body.params[0]));
  tp.combiner = op;
  tp.simple_combiner = on_params && (op == Opcode::kAdd || op == Opcode::kMultiply || op == Opcode::kAnd ||
                                     op == Opcode::kOr || op == Opcode::kXor || op == Opcode::kMaximum ||
                                     op == Opcode::kMinimum);
}

void plan_reduce(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  const auto& rdims = m.attrs(i).dimensions;
  std::vector<int64_t> keep, rsizes;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (std::find(rdims.begin(), rdims.end(), d) == rdims.end()) keep.push_back(d);
    else rsizes.push_back(in.dim(d));
  }
  std::vector<int64_t> out_dims;
  for (int64_t d : keep) out_dims.push_back(in.dim(d));
  Accumulation a{m.shape(i).element_count(), 1};
  for (int64_t s : rsizes) a.terms *= s;
  Leaf x = make_leaf(in.element_type(), a.size());
  const int in_buffer = c.buffer_of(m.operand(i, 0));
  std::vector<int64_t> idx(in.rank());
  for (int64_t o = 0; o < a.outputs; ++o) {
    const auto oi = unravel(o, out_dims);
    for (size_t q = 0; q < keep.size(); ++q) idx[keep[q]] = oi[q];
    for (int64_t k = 0; k < a.terms; ++k) {
      const auto ri = unravel(k, rsizes);  // the interpreter's order: row-major over rdims
      for (size_t q = 0; q < rdims.size(); ++q) idx[rdims[q]] = ri[q];
      x.sources[a.id(o, k)] = {Source::kRead, in_buffer, ravel(idx, in.dims()), 0};
    }
  }
  finish_reduce(c, tp, a, std::move(x));
}

void plan_reduce_window(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  if (!m.attrs(i).window) c.refuse(i, "reduce-window without a window");
  const ir::Window& w = *m.attrs(i).window;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  const std::vector<int64_t> out_dims = dims_of(m.shape(i));
  std::vector<int64_t> wsizes;
  for (const auto& wd : w) wsizes.push_back(wd.size);
  Accumulation a{m.shape(i).element_count(), 1};
  for (int64_t s : wsizes) a.terms *= s;
  Leaf x = make_leaf(in.element_type(), a.size());
  const int in_buffer = c.buffer_of(m.operand(i, 0));
  std::vector<int64_t> src(in.rank());
  for (int64_t o = 0; o < a.outputs; ++o) {
    const auto oi = unravel(o, out_dims);
    for (int64_t k = 0; k < a.terms; ++k) {
      const auto wi = unravel(k, wsizes);
      bool inside = true;
      for (size_t d = 0; d < w.size() && inside; ++d) {
        src[d] = ir::window_source(w[d], oi[d], wi[d], in.dim(static_cast<int64_t>(d)));
        inside = src[d] >= 0;
      }
      if (inside) x.sources[a.id(o, k)] = {Source::kRead, in_buffer, ravel(src, in.dims()), 0};
    }
  }
  finish_reduce(c, tp, a, std::move(x));
}

// Output element o reads operand element ravel(o) + sum_d clamp(start_d) * stride_d: a
// static base per item plus one run-time offset per task (clamped as HLO defines).
void plan_dynamic_slice(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  const ir::Shape& out = m.shape(i);
  if (m.operands(i).size() != static_cast<size_t>(1 + in.rank()))
    c.refuse(i, "dynamic-slice with a vector of start indices is not supported (one scalar per dimension is)");
  tp.engine = Engine::kStream;
  tp.outputs = out.element_count();
  tp.dyn_elements = in.element_count();
  const std::vector<int64_t> strides = ir::row_major_strides(in.dims());
  for (int64_t d = 0; d < in.rank(); ++d) {
    const InstrId s = m.operand(i, static_cast<size_t>(1 + d));
    tp.dyn.push_back({c.buffer_of(s), m.shape(s).element_type(), in.dim(d) - out.dim(d), strides[d]});
  }
  Leaf l = make_leaf(in.element_type(), static_cast<size_t>(tp.outputs));
  const int buffer = c.buffer_of(m.operand(i, 0));
  for (int64_t e = 0; e < tp.outputs; ++e) l.sources[e] = {Source::kDyn, buffer, ravel(unravel(e, out.dims()), in.dims()), 0};
  ExprBuilder b(c, tp, tp.outputs);
  tp.expr.root = b.leaf(std::move(l));
}

void finish_mac(const PlanContext& c, TaskPlan& tp, const Accumulation& a, Leaf lhs, Leaf rhs) {
  tp.engine = Engine::kMac;
  tp.outputs = a.outputs;
  tp.terms = a.terms;
  tp.mul_depth = c.t.unit(hwmodel::UnitClass::kIntMul).latency;
  tp.combiner = Opcode::kAdd;
  tp.simple_combiner = true;
  tp.leaves.push_back(std::move(lhs));
  tp.leaves.push_back(std::move(rhs));
}

std::vector<int64_t> free_dims(const ir::Shape& s, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> f;
  for (int64_t x = 0; x < s.rank(); ++x)
    if (std::count(a.begin(), a.end(), x) == 0 && std::count(b.begin(), b.end(), x) == 0) f.push_back(x);
  return f;
}

void plan_dot(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  const ir::Shape& ls = m.shape(m.operand(i, 0));
  const ir::Shape& rs = m.shape(m.operand(i, 1));
  const ir::DotDims d = m.attrs(i).dot_dims.value_or(ir::DotDims{});
  const auto lfree = free_dims(ls, d.lhs_batch, d.lhs_contracting);
  const auto rfree = free_dims(rs, d.rhs_batch, d.rhs_contracting);
  std::vector<int64_t> csizes;
  for (int64_t x : d.lhs_contracting) csizes.push_back(ls.dim(x));
  Accumulation a{m.shape(i).element_count(), 1};
  for (int64_t s : csizes) a.terms *= s;
  Leaf lhs = make_leaf(ls.element_type(), a.size()), rhs = make_leaf(rs.element_type(), a.size());
  const int lb = c.buffer_of(m.operand(i, 0)), rb = c.buffer_of(m.operand(i, 1));
  std::vector<int64_t> li(ls.rank()), ri(rs.rank());
  for (int64_t o = 0; o < a.outputs; ++o) {
    const auto oi = unravel(o, m.shape(i).dims());
    size_t q = 0;
    for (size_t k = 0; k < d.lhs_batch.size(); ++k, ++q) li[d.lhs_batch[k]] = ri[d.rhs_batch[k]] = oi[q];
    for (int64_t x : lfree) li[x] = oi[q++];
    for (int64_t x : rfree) ri[x] = oi[q++];
    for (int64_t k = 0; k < a.terms; ++k) {
      const auto ci = unravel(k, csizes);
      for (size_t j = 0; j < ci.size(); ++j) li[d.lhs_contracting[j]] = ri[d.rhs_contracting[j]] = ci[j];
      lhs.sources[a.id(o, k)] = {Source::kRead, lb, ravel(li, ls.dims()), 0};
      rhs.sources[a.id(o, k)] = {Source::kRead, rb, ravel(ri, rs.dims()), 0};
    }
  }
  finish_mac(c, tp, a, std::move(lhs), std::move(rhs));
}

// The interpreter's convolution (ir/evaluate_contraction.cc), term by term: input
// feature, then kernel spatial positions in row-major order; padding terms are skipped.
void plan_convolution(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  if (!m.attrs(i).conv_dims || !m.attrs(i).window) c.refuse(i, "convolution without dim_labels or window");
  const ir::ConvDims& d = *m.attrs(i).conv_dims;
  const ir::Window& w = *m.attrs(i).window;
  const int64_t fg = m.attrs(i).feature_group_count, bg = m.attrs(i).batch_group_count;
  const ir::Shape& ins = m.shape(m.operand(i, 0));
  const ir::Shape& ks = m.shape(m.operand(i, 1));
  const ir::Shape& os = m.shape(i);
  const size_t ns = d.input_spatial.size();
  const int64_t kin = ks.dim(d.kernel_input_feature), out_feat = ks.dim(d.kernel_output_feature);
  const int64_t per_group = std::max<int64_t>(out_feat / fg, 1), per_bgroup = std::max<int64_t>(out_feat / bg, 1);
  std::vector<int64_t> ksizes;
  for (size_t s = 0; s < ns; ++s) ksizes.push_back(ks.dim(d.kernel_spatial[s]));
  int64_t kn = 1;
  for (int64_t s : ksizes) kn *= s;
  Accumulation a{os.element_count(), kin * kn};
  Leaf in = make_leaf(ins.element_type(), a.size()), ker = make_leaf(ks.element_type(), a.size());
  const int ib = c.buffer_of(m.operand(i, 0)), kb = c.buffer_of(m.operand(i, 1));
  std::vector<int64_t> ii(ins.rank()), ki(ks.rank());
  for (int64_t o = 0; o < a.outputs; ++o) {
    const auto oi = unravel(o, os.dims());
    const int64_t b = oi[d.output_batch], f = oi[d.output_feature];
    for (int64_t ci = 0; ci < kin; ++ci) {
      ii[d.input_feature] = f / per_group * kin + ci;
      ii[d.input_batch] = f / per_bgroup * os.dim(d.output_batch) + b;
      ki[d.kernel_input_feature] = ci;
      ki[d.kernel_output_feature] = f;
      for (int64_t k = 0; k < kn; ++k) {
        const auto kk = unravel(k, ksizes);
        bool inside = true;
        for (size_t s = 0; s < ns && inside; ++s) {
          const ir::WindowDim& wd = w[s];
          ii[d.input_spatial[s]] = ir::window_source(wd, oi[d.output_spatial[s]], kk[s], ins.dim(d.input_spatial[s]));
          inside = ii[d.input_spatial[s]] >= 0;
          ki[d.kernel_spatial[s]] = wd.reversal ? ksizes[s] - 1 - kk[s] : kk[s];
        }
        if (!inside) continue;
        const int64_t id = a.id(o, ci * kn + k);
        in.sources[id] = {Source::kRead, ib, ravel(ii, ins.dims()), 0};
        ker.sources[id] = {Source::kRead, kb, ravel(ki, ks.dims()), 0};
      }
    }
  }
  finish_mac(c, tp, a, std::move(in), std::move(ker));
}

// More lanes than outputs: each output's terms in `split` chunks joined by a tree. The
// interpreter combines in row-major order, so only an associative and commutative
// combiner may be regrouped, and padding terms (an empty chunk has no value) are refused.
void plan_split(const PlanContext& c, TaskPlan& tp) {
  if (tp.lanes % tp.outputs != 0)
    c.refuse(tp.instr, fmt::format("internal: {} lanes do not split {} outputs evenly", tp.lanes, tp.outputs));
  tp.split = static_cast<int>(tp.lanes / tp.outputs);
  tp.chunk = hwmodel::ceil_div(tp.terms, tp.split);
  const int skip_leaf = tp.engine == Engine::kMac ? 0 : 1;
  bool skips = false;
  for (const Source& s : tp.leaves[skip_leaf].sources) skips |= s.kind == Source::kNone;
  if (!tp.simple_combiner || (skips && tp.engine == Engine::kReduce))
    c.refuse(tp.instr, fmt::format("{} lanes for {} outputs split each output over {} lanes, which regroups its "
                                   "terms: the RTL emitter does that only for a combiner that is one associative, "
                                   "commutative op without padding; use at most {} lanes",
                                   tp.lanes, tp.outputs, tp.split, tp.outputs));
  if (tp.engine != Engine::kReduce) return;
  // The accumulator of a reduce: the init value for chunk 0's first term, nothing for the
  // other chunks' first terms (they start from x), the lane's partial sum after that.
  for (int64_t o = 0; o < tp.outputs; ++o)
    for (int64_t k = 1; k < tp.terms; ++k)
      tp.leaves[0].sources[o * tp.terms + k] = {k % tp.chunk == 0 ? Source::kNone : Source::kAcc, -1, 0, 0};
}

[[noreturn]] void timing_disagrees(const PlanContext& c, const TaskPlan& tp, const hwmodel::Timing& mine) {
  c.refuse(tp.instr, fmt::format("internal: its RTL timing (latency {}, busy {}, lanes {}) disagrees with the "
                                 "hardware model's (latency {}, busy {}, lanes {})",
                                 mine.latency, mine.busy, mine.lanes_used, tp.latency, tp.busy, tp.lanes));
}

// Recomputes the task's timing from the plan with hwmodel's own formulas.
void check_timing(const PlanContext& c, TaskPlan& tp) {
  if (tp.depth < 1 || tp.depth - tp.mul_depth < 1)
    c.refuse(tp.instr, fmt::format("unit depth {} on target '{}': the RTL emitter needs every unit to take at least "
                                   "one cycle (results are registered)", tp.depth - tp.mul_depth, c.t.name));
  hwmodel::Timing mine;
  if (tp.engine == Engine::kStream) {
    mine = hwmodel::stream_timing(tp.outputs, tp.lanes, tp.depth);
  } else {
    if (tp.lanes > tp.outputs) plan_split(c, tp);
    mine = hwmodel::accumulate_timing(tp.outputs, tp.terms, tp.lanes, tp.mul_depth, tp.depth - tp.mul_depth);
  }
  if (mine.latency != tp.latency || mine.busy != tp.busy || mine.lanes_used != tp.lanes) timing_disagrees(c, tp, mine);
}

void schedule_items(TaskPlan& tp) {
  tp.items.assign(static_cast<size_t>(tp.lanes), std::vector<Item>(static_cast<size_t>(tp.busy)));
  const int64_t l = tp.lanes;
  if (tp.engine == Engine::kStream) {
    for (int64_t q = 0; q < l; ++q)
      for (int64_t j = 0; j < tp.busy; ++j)
        if (const int64_t e = j * l + q; e < tp.outputs) tp.items[q][j] = {e, e, false, false};
    return;
  }
  const int skip_leaf = tp.engine == Engine::kMac ? 0 : 1;
  if (tp.split > 1) {  // lane q: chunk q % split of output q / split, one term every A cycles
    const int64_t a = tp.add_depth();
    for (int64_t q = 0; q < l; ++q)
      for (int64_t i = 0; i < tp.chunk && i * a < tp.busy; ++i) {
        const int64_t o = q / tp.split, k = (q % tp.split) * tp.chunk + i;
        if (k >= tp.terms) break;
        const int64_t id = o * tp.terms + k;
        const bool skip = tp.leaves[skip_leaf].sources[id].kind == Source::kNone;
        tp.items[q][i * a] = {id, o, i == 0, skip, i == 0 && k != 0 && tp.engine == Engine::kReduce};
        tp.has_skips |= skip;
      }
    return;
  }
  const int64_t p = hwmodel::ceil_div(tp.outputs, l);
  const int64_t r = std::max<int64_t>(p, tp.depth - tp.mul_depth);
  for (int64_t q = 0; q < l; ++q)
    for (int64_t j = 0; j < tp.busy; ++j) {
      const int64_t k = j / r, s = j % r, o = q * p + s;
      if (s >= p || o >= tp.outputs || k >= tp.terms) continue;
      const int64_t id = o * tp.terms + k;
      const bool skip = tp.leaves[skip_leaf].sources[id].kind == Source::kNone;
      tp.items[q][j] = {id, o, k == 0, skip};
      tp.has_skips |= skip;
    }
}

bool is_stream_op(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kConcatenate:
    case Opcode::kPad: case Opcode::kIota: case Opcode::kReverse: case Opcode::kCopy: case Opcode::kFusion:
    case Opcode::kMap:
      return true;
    default:
      return ir::info(op).elementwise;
  }
}

}  // namespace

void plan_task(const PlanContext& c, TaskPlan& tp) {
  const Opcode op = c.m.opcode(tp.instr);
  switch (op) {
    case Opcode::kDot: plan_dot(c, tp); break;
    case Opcode::kConvolution: plan_convolution(c, tp); break;
    case Opcode::kReduce: plan_reduce(c, tp); break;
    case Opcode::kReduceWindow: plan_reduce_window(c, tp); break;
    case Opcode::kDynamicSlice: plan_dynamic_slice(c, tp); break;
    default:
      if (!is_stream_op(op))
        c.refuse(tp.instr, "not supported by the RTL emitter (supported: integer elementwise ops, broadcast, reshape, "
                           "transpose, slice, concatenate, pad, iota, reverse, copy, dot, convolution, reduce, "
                           "reduce-window, loop fusions and maps)");
      plan_stream(c, tp);
      break;
  }
  check_timing(c, tp);
  schedule_items(tp);
}

}  // namespace hlsgym::rtl::plan_detail
