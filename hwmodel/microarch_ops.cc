// plan_task: the engine, leaves and loop nest of one computing task, and the check that
// its item schedule takes exactly the cycles the hardware model charges
// (hwmodel/timing.h): a task issues items during [start, start + busy) and its last
// result is written at start + latency.
//
// Item schedules (lane q, issue cycle j, unit of depth D):
// - stream, l lanes: element e = q c + j (c = ceil(N / l)), for j < c; written at j + D.
// - accumulate (l <= P outputs): lane q owns outputs q p .. q p + p - 1 (p = ceil(P / l))
//   and visits them round robin, one term per output per round of r = max(p, A) cycles,
//   so an accumulator is reread only after its last update (A cycles) landed:
//   term k of slot s issues at j = k r + s. The interpreter's order (row-major terms,
//   init first) is kept per output, so non-associative combiners stay exact.
#include <fmt/core.h>

#include <algorithm>

#include "hwmodel/float_unit_key.h"
#include "hwmodel/timing.h"
#include "ir/error.h"
#include "hwmodel/microarch_internal.h"

namespace hlsgym::hwmodel::plan_detail {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {

std::vector<int64_t> dims_of(const ir::Shape& s) { return s.dims(); }

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// Sets the task's loop nest: output dims, term dims; returns the counters as index
// expressions (output ones, then term ones).
struct Counters {
  std::vector<int> out, term;
};
Counters set_loops(TaskPlan& tp, std::vector<int64_t> out_dims, std::vector<int64_t> term_dims) {
  tp.loops.out_dims = std::move(out_dims);
  tp.loops.term_dims = std::move(term_dims);
  Counters c;
  int v = 0;
  for (int64_t d : tp.loops.out_dims) c.out.push_back(tp.ix.var(v++, d));
  for (int64_t d : tp.loops.term_dims) c.term.push_back(tp.ix.var(v++, d));
  tp.loops.out_flat = tp.ix.ravel(c.out, tp.loops.out_dims);
  tp.loops.term_flat = tp.ix.ravel(c.term, tp.loops.term_dims);
  tp.outputs = product(tp.loops.out_dims);
  tp.terms = product(tp.loops.term_dims);
  return c;
}

Alt read(int buffer, int index, Guard g = {}) {
  Alt a;
  a.kind = Alt::kRead;
  a.buffer = buffer;
  a.index = index;
  a.guard = std::move(g);
  return a;
}

Leaf one_alt_leaf(ElementType type, Alt a) {
  Leaf l;
  l.type = type;
  if (!a.guard.never) l.alts.push_back(std::move(a));
  return l;
}

void plan_stream(const PlanContext& c, TaskPlan& tp) {
  tp.engine = Engine::kStream;
  set_loops(tp, dims_of(c.m.shape(tp.instr)), {});
  ExprBuilder b(c, tp);
  b.set_root(tp.instr);
  tp.expr.root = b.node(tp.instr, b.output_index());
}

// The accumulator leaf: the init value for the first term, else the output so far.
Leaf acc_leaf(TaskPlan& tp, int init_buffer) {
  Leaf l;
  l.type = tp.out_type;
  Guard first;
  tp.ix.require(first, tp.loops.term_flat, 0, 0);
  if (!first.never) l.alts.push_back(read(init_buffer, tp.ix.constant(0), first));
  Alt so_far;
  so_far.kind = Alt::kSlot;
  l.alts.push_back(so_far);
  return l;
}

// reduce and reduce-window: the combiner body over (acc, x).
void finish_reduce(const PlanContext& c, TaskPlan& tp, Leaf x) {
  const InstrId i = tp.instr;
  if (c.m.operands(i).size() != 2) c.refuse(i, "variadic reductions are not supported");
  tp.engine = Engine::kReduce;
  tp.mul_depth = static_cast<int>(hwmodel::kMemoryReadLatency);
  ExprBuilder b(c, tp);
  const int acc = b.leaf(acc_leaf(tp, c.buffer_of(c.m.operand(i, 1))));
  const int xv = b.leaf(std::move(x));
  b.set_params([&](int64_t k, const ExprBuilder::Index&) {
    if (k > 1) c.refuse(i, "the combiner has more than two parameters");
    return k == 0 ? acc : xv;
  });
  const ir::Computation& body = c.m.computation(c.m.called(i).at(0));
  tp.expr.root = b.node(body.root, {});
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
  const Counters k = set_loops(tp, out_dims, rsizes);  // terms: row-major over rdims, as the interpreter
  std::vector<int> idx(static_cast<size_t>(in.rank()));
  for (size_t q = 0; q < keep.size(); ++q) idx[keep[q]] = k.out[q];
  for (size_t q = 0; q < rdims.size(); ++q) idx[rdims[q]] = k.term[q];
  Leaf x = one_alt_leaf(in.element_type(), read(c.buffer_of(m.operand(i, 0)), tp.ix.ravel(idx, in.dims())));
  finish_reduce(c, tp, std::move(x));
}

// The input position a window tap reads (ir::window_source) as an index expression,
// with the conditions that it exists (not padding, not between dilated elements).
int window_tap(IxPool& ix, Guard& g, const ir::WindowDim& wd, int out, int tap, int64_t input_size) {
  const int u = ix.linear({{out, wd.stride}, {tap, wd.window_dilation}}, -wd.pad_low);
  ix.require(g, u, 0, (input_size - 1) * wd.base_dilation, wd.base_dilation);
  return ix.div(u, wd.base_dilation);
}

void plan_reduce_window(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  if (!m.attrs(i).window) c.refuse(i, "reduce-window without a window");
  const ir::Window& w = *m.attrs(i).window;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  std::vector<int64_t> wsizes;
  for (const auto& wd : w) wsizes.push_back(wd.size);
  const Counters k = set_loops(tp, dims_of(m.shape(i)), wsizes);
  Guard g;
  std::vector<int> src(static_cast<size_t>(in.rank()));
  for (size_t d = 0; d < w.size(); ++d) src[d] = window_tap(tp.ix, g, w[d], k.out[d], k.term[d], in.dim(static_cast<int64_t>(d)));
  tp.has_skips = !g.always();
  Leaf x = one_alt_leaf(in.element_type(), read(c.buffer_of(m.operand(i, 0)), g.never ? tp.ix.constant(0) : tp.ix.ravel(src, in.dims()), g));
  finish_reduce(c, tp, std::move(x));
}

// Output element o reads operand element o + clamp(start) in every dimension; the
// clamped starts are run-time values of the task (IxNode::kDyn).
void plan_dynamic_slice(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  const ir::Shape& out = m.shape(i);
  if (m.operands(i).size() != static_cast<size_t>(1 + in.rank()))
    c.refuse(i, "dynamic-slice with a vector of start indices is not supported (one scalar per dimension is)");
  tp.engine = Engine::kStream;
  const Counters k = set_loops(tp, dims_of(out), {});
  std::vector<int> src;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const InstrId s = m.operand(i, static_cast<size_t>(1 + d));
    tp.dyn.push_back({c.buffer_of(s), m.shape(s).element_type(), in.dim(d) - out.dim(d)});
    src.push_back(tp.ix.add(k.out[d], tp.ix.dyn(static_cast<int>(d), 0, in.dim(d) - out.dim(d))));
  }
  ExprBuilder b(c, tp);
  tp.expr.root = b.leaf(one_alt_leaf(in.element_type(), read(c.buffer_of(m.operand(i, 0)), tp.ix.ravel(src, in.dims()))));
}

// dynamic-update-slice, out of place (hwmodel/lowering_ops.cc): output element o is the
// update's element o - start inside the window (starts clamped to [0, dim - update dim],
// as XLA does), else the operand's element o.
void plan_dynamic_update_slice(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  const ir::Shape& out = m.shape(i);
  const ir::Shape& upd = m.shape(m.operand(i, 1));
  if (m.operands(i).size() != static_cast<size_t>(2 + out.rank()))
    c.refuse(i, "dynamic-update-slice with a vector of start indices is not supported (one scalar per dimension is)");
  tp.engine = Engine::kStream;
  const Counters k = set_loops(tp, dims_of(out), {});
  std::vector<int> rel;
  Guard inside;
  for (int64_t d = 0; d < out.rank(); ++d) {
    const InstrId s = m.operand(i, static_cast<size_t>(2 + d));
    const int64_t max = out.dim(d) - upd.dim(d);
    tp.dyn.push_back({c.buffer_of(s), m.shape(s).element_type(), max});
    rel.push_back(tp.ix.linear({{k.out[d], 1}, {tp.ix.dyn(static_cast<int>(d), 0, max), -1}}, 0));
    tp.ix.require(inside, rel.back(), 0, upd.dim(d) - 1);
  }
  Leaf l;
  l.type = out.element_type();
  if (!inside.never) l.alts.push_back(read(c.buffer_of(m.operand(i, 1)), tp.ix.ravel(rel, upd.dims()), inside));
  if (!inside.always()) l.alts.push_back(read(c.buffer_of(m.operand(i, 0)), tp.loops.out_flat));
  ExprBuilder b(c, tp);
  tp.expr.root = b.leaf(std::move(l));
}

// gather (ir/evaluate_indexing.cc): output element o reads the operand at the clamped
// start index vector of o's batch position plus o's offset. Each start index is an
// element of the start-indices array read per item, `lead` cycles ahead of the operand
// read whose address it sets (DynStart::index).
void plan_gather(const PlanContext& c, TaskPlan& tp) {
  const ir::Module& m = c.m;
  const InstrId i = tp.instr;
  if (!m.attrs(i).gather_dims) c.refuse(i, "gather without dimension numbers");
  const ir::GatherDims& g = *m.attrs(i).gather_dims;
  const ir::Shape& in = m.shape(m.operand(i, 0));
  const ir::Shape& is = m.shape(m.operand(i, 1));
  const ir::Shape& os = m.shape(i);
  tp.engine = Engine::kStream;
  tp.lead = static_cast<int>(hwmodel::kMemoryReadLatency);
  const Counters k = set_loops(tp, dims_of(os), {});
  IxPool& ix = tp.ix;
  std::vector<int> bpos;  // the batch position: output counters outside offset_dims
  for (int64_t d : g.batch_output_dims(os.rank())) bpos.push_back(k.out[d]);
  const std::vector<int64_t> idx_batch_dims = g.index_batch_dims(is.rank());
  std::vector<int> src(static_cast<size_t>(in.rank()), ix.constant(0));
  const int indices = c.buffer_of(m.operand(i, 1));
  for (size_t j = 0; j < g.start_index_map.size(); ++j) {
    std::vector<int> at(static_cast<size_t>(is.rank()));
    for (size_t q = 0; q < idx_batch_dims.size(); ++q) at[idx_batch_dims[q]] = bpos[q];
    if (g.index_vector_dim < is.rank()) at[g.index_vector_dim] = ix.constant(static_cast<int64_t>(j));
    const int64_t d = g.start_index_map[j];
    const int64_t max = in.dim(d) - g.slice_sizes[d];
    const int var = static_cast<int>(tp.dyn.size());
    tp.dyn.push_back({indices, is.element_type(), max, ix.ravel(at, is.dims())});
    src[d] = ix.dyn(var, 0, max);
  }
  for (size_t j = 0; j < g.operand_batching_dims.size(); ++j) {
    const auto it = std::find(idx_batch_dims.begin(), idx_batch_dims.end(), g.start_indices_batching_dims[j]);
    src[g.operand_batching_dims[j]] = bpos[static_cast<size_t>(it - idx_batch_dims.begin())];
  }
  const std::vector<int64_t> offset_operand_dims = g.offset_operand_dims(in.rank());
  for (size_t j = 0; j < g.offset_dims.size(); ++j) {
    const int64_t d = offset_operand_dims[j];
    src[d] = ix.add(src[d], k.out[g.offset_dims[j]]);
  }
  ExprBuilder b(c, tp);
  tp.expr.root = b.leaf(one_alt_leaf(in.element_type(), read(c.buffer_of(m.operand(i, 0)), ix.ravel(src, in.dims()))));
}

// The multiplier's depth: the target's integer multiplier, or for a float MAC its IEEE-754
// multiplier in the result type (hwmodel lowering_ops.cc contraction reads the same row).
int mac_multiplier_depth(const PlanContext& c, const TaskPlan& tp, const Leaf& lhs, const Leaf& rhs) {
  if (!ir::is_floating(tp.out_type) && !ir::is_floating(lhs.type) && !ir::is_floating(rhs.type))
    return c.t.unit(hwmodel::UnitClass::kIntMul).latency;
  if (lhs.type != tp.out_type || rhs.type != tp.out_type)
    c.refuse(tp.instr, fmt::format("a float {} of {} x {} operands into {}: the RTL emitter multiplies and accumulates "
                                   "in one float type (convert the operands first)",
                                   ir::name(c.m.opcode(tp.instr)), ir::element_type_name(lhs.type),
                                   ir::element_type_name(rhs.type), ir::element_type_name(tp.out_type)));
  for (ir::Opcode op : {Opcode::kMultiply, Opcode::kAdd}) {
    const auto key = hwmodel::float_unit_key(op, tp.out_type, tp.out_type);
    if (!key) c.refuse(tp.instr, fmt::format("no IEEE-754 unit multiplies and adds {}", ir::element_type_name(tp.out_type)));
    if (!c.t.float_unit(key->unit, key->format))
      c.refuse(tp.instr, fmt::format("target '{}' lists no float unit {}.{} (its `float_units:` table)", c.t.name,
                                     key->unit, ir::element_type_name(key->format)));
  }
  const auto mul = hwmodel::float_unit_key(Opcode::kMultiply, tp.out_type, tp.out_type);
  return c.t.float_unit(mul->unit, mul->format)->latency;
}

void finish_mac(const PlanContext& c, TaskPlan& tp, Leaf lhs, Leaf rhs) {
  tp.engine = Engine::kMac;
  tp.mul_depth = static_cast<int>(hwmodel::kMemoryReadLatency) + mac_multiplier_depth(c, tp, lhs, rhs);
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
  const Counters k = set_loops(tp, dims_of(m.shape(i)), csizes);
  std::vector<int> li(static_cast<size_t>(ls.rank())), ri(static_cast<size_t>(rs.rank()));
  size_t q = 0;
  for (size_t b = 0; b < d.lhs_batch.size(); ++b, ++q) li[d.lhs_batch[b]] = ri[d.rhs_batch[b]] = k.out[q];
  for (int64_t x : lfree) li[x] = k.out[q++];
  for (int64_t x : rfree) ri[x] = k.out[q++];
  for (size_t j = 0; j < csizes.size(); ++j) li[d.lhs_contracting[j]] = ri[d.rhs_contracting[j]] = k.term[j];
  const InstrId lhs = m.operand(i, 0), rhs = m.operand(i, 1);
  finish_mac(c, tp, one_alt_leaf(c.stored_type(lhs), read(c.stored_buffer_of(lhs), tp.ix.ravel(li, ls.dims()))),
             one_alt_leaf(c.stored_type(rhs), read(c.stored_buffer_of(rhs), tp.ix.ravel(ri, rs.dims()))));
}

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
  std::vector<int64_t> terms{kin};  // input feature, then kernel spatial positions, row-major
  for (size_t s = 0; s < ns; ++s) terms.push_back(ks.dim(d.kernel_spatial[s]));
  const Counters k = set_loops(tp, dims_of(os), terms);
  IxPool& ix = tp.ix;
  const int b = k.out[d.output_batch], f = k.out[d.output_feature], ci = k.term[0];
  std::vector<int> ii(static_cast<size_t>(ins.rank())), ki(static_cast<size_t>(ks.rank()));
  ii[d.input_feature] = ix.linear({{ix.div(f, per_group), kin}, {ci, 1}}, 0);
  ii[d.input_batch] = ix.linear({{ix.div(f, per_bgroup), os.dim(d.output_batch)}, {b, 1}}, 0);
  ki[d.kernel_input_feature] = ci;
  ki[d.kernel_output_feature] = f;
  Guard g;
  for (size_t s = 0; s < ns; ++s) {
    const int kk = k.term[1 + s];
    ii[d.input_spatial[s]] = window_tap(ix, g, w[s], k.out[d.output_spatial[s]], kk, ins.dim(d.input_spatial[s]));
    ki[d.kernel_spatial[s]] = w[s].reversal ? ix.linear({{kk, -1}}, terms[1 + s] - 1) : kk;
  }
  tp.has_skips = !g.always();
  const int zero = ix.constant(0);
  const InstrId input = m.operand(i, 0), kernel = m.operand(i, 1);
  finish_mac(c, tp, one_alt_leaf(c.stored_type(input), read(c.stored_buffer_of(input), g.never ? zero : ix.ravel(ii, ins.dims()), g)),
             one_alt_leaf(c.stored_type(kernel), read(c.stored_buffer_of(kernel), g.never ? zero : ix.ravel(ki, ks.dims()), g)));
}

// More lanes than outputs: each output's terms in `split` chunks joined by a tree. The
// interpreter combines in row-major order, so only an associative and commutative
// combiner may be regrouped, and padding terms (an empty chunk has no value) are refused.
void plan_split(const PlanContext& c, TaskPlan& tp) {
  if (tp.lanes % tp.outputs != 0)
    c.refuse(tp.instr, fmt::format("internal: {} lanes do not split {} outputs evenly", tp.lanes, tp.outputs));
  tp.split = static_cast<int>(tp.lanes / tp.outputs);
  tp.chunk = hwmodel::ceil_div(tp.terms, tp.split);
  if (!tp.simple_combiner || (tp.has_skips && tp.engine == Engine::kReduce))
    c.refuse(tp.instr, fmt::format("{} lanes for {} outputs split each output over {} lanes, which regroups its "
                                   "terms: the RTL emitter does that only for a combiner that is one associative, "
                                   "commutative op without padding; use at most {} lanes",
                                   tp.lanes, tp.outputs, tp.split, tp.outputs));
  if (tp.engine != Engine::kReduce) return;
  // The accumulator of a reduce: the init value for chunk 0's first term, nothing for the
  // other chunks' first terms (they start from x), the lane's partial sum after that.
  Leaf& acc = tp.leaves[0];
  const Alt init = acc.alts.front();
  acc.alts.clear();
  if (init.kind == Alt::kRead && !init.guard.conds.empty()) acc.alts.push_back(init);
  Alt none;
  none.kind = Alt::kNone;
  tp.ix.require(none.guard, tp.loops.term_flat, 0, tp.terms - 1, tp.chunk);
  if (!none.guard.never) acc.alts.push_back(none);
  Alt partial;
  partial.kind = Alt::kAcc;
  acc.alts.push_back(partial);
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
    mine = hwmodel::stream_timing(tp.outputs, tp.lanes, tp.depth, tp.lead);
  } else {
    if (tp.lanes > tp.outputs) plan_split(c, tp);
    mine = hwmodel::accumulate_timing(tp.outputs, tp.terms, tp.lanes, tp.mul_depth, tp.depth - tp.mul_depth);
  }
  if (mine.latency != tp.latency || mine.busy != tp.busy || mine.lanes_used != tp.lanes) timing_disagrees(c, tp, mine);
}

// The lane partition of the loop nest (microarch.h, LoopNest).
void set_lane_partition(TaskPlan& tp) {
  const int64_t l = tp.lanes;
  if (tp.engine == Engine::kStream) {
    tp.loops.per_lane = hwmodel::ceil_div(tp.outputs, l);
    tp.loops.period = 1;
  } else if (tp.split > 1) {
    tp.loops.per_lane = tp.chunk;
    tp.loops.period = tp.add_depth();
  } else {
    tp.loops.per_lane = hwmodel::ceil_div(tp.outputs, l);
    tp.loops.period = tp.add_depth();
    tp.loops.group = std::min<int64_t>(tp.loops.per_lane, tp.add_depth());
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

void plan_copy(TaskPlan& tp, int src, ElementType type, int64_t elements) {
  tp.engine = Engine::kStream;
  set_loops(tp, {elements}, {});
  tp.leaves.push_back(one_alt_leaf(type, read(src, tp.loops.out_flat)));
  Node n;
  n.kind = Node::kLeaf;
  n.leaf = 0;
  n.type = type;
  tp.expr.root = tp.expr.add(n);
  set_lane_partition(tp);
}

void plan_task(const PlanContext& c, TaskPlan& tp) {
  const Opcode op = c.m.opcode(tp.instr);
  switch (op) {
    case Opcode::kDot: plan_dot(c, tp); break;
    case Opcode::kConvolution: plan_convolution(c, tp); break;
    case Opcode::kReduce: plan_reduce(c, tp); break;
    case Opcode::kReduceWindow: plan_reduce_window(c, tp); break;
    case Opcode::kDynamicSlice: plan_dynamic_slice(c, tp); break;
    case Opcode::kDynamicUpdateSlice: plan_dynamic_update_slice(c, tp); break;
    case Opcode::kGather: plan_gather(c, tp); break;
    default:
      if (!is_stream_op(op))
        c.refuse(tp.instr, fmt::format("not supported by the RTL emitter (it builds {})", kBuiltOps));
      plan_stream(c, tp);
      break;
  }
  check_timing(c, tp);
  set_lane_partition(tp);
}

}  // namespace hlsgym::hwmodel::plan_detail
