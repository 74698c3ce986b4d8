// make_plan: values to buffers and tracks, tasks to units, parameters and outputs to
// ports (microarch.h). The per-op work is in microarch_ops.cc and microarch_expr.cc.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "hwmodel/lowering.h"
#include "hwmodel/unit_class.h"
#include "hwmodel/chaining.h"
#include "hwmodel/control_flow.h"
#include "hwmodel/float_unit_key.h"
#include "ir/error.h"
#include "hwmodel/microarch_internal.h"

namespace hlsgym::hwmodel {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using namespace plan_detail;

int datapath_width(ElementType t) { return t == ElementType::kPred ? 1 : ir::bit_width(t); }
int storage_width(ElementType t) { return ir::byte_width(t) * 8; }

int bits_for(int64_t max) {
  int b = 1;
  while (b < 63 && (int64_t{1} << b) <= max) ++b;
  return b;
}

namespace plan_detail {

int PlanContext::buffer_of(InstrId value) const {
  if (chained[value]) refuse(value, "internal: a chained convert or broadcast has no buffer of its own");
  const Loc& l = loc[value];
  if (l.tuple || l.buffer < 0) refuse(value, "its value is a tuple or has no storage where an array is needed");
  return l.buffer;
}

int PlanContext::buffer_of_loc(const Loc& l, InstrId user) const {
  if (l.tuple || l.buffer < 0) refuse(user, "a loop state leaf has no storage where an array is needed");
  return l.buffer;
}

int PlanContext::stored_buffer_of(InstrId value) const {
  return buffer_of(chained[value] ? m.operand(value, 0) : value);
}

ElementType PlanContext::stored_type(InstrId value) const {
  return m.shape(chained[value] ? m.operand(value, 0) : value).element_type();
}

int PlanContext::rom_of(InstrId i) const {
  if (auto it = roms.find(i); it != roms.end()) return it->second;
  const ir::Literal& l = m.literal(i);
  if (l.elided()) refuse(i, "elided constants ({...}) have no values to put in hardware");
  Buffer b;
  b.origin = Buffer::kConstant;
  b.name = fmt::format("rom{}", plan.buffers.size());
  b.type = m.shape(i).element_type();
  b.elements = m.shape(i).element_count();
  b.instr = i;
  for (int64_t k = 0; k < b.elements; ++k) b.init.push_back(literal_bits(l, k));
  plan.buffers.push_back(std::move(b));
  const int id = static_cast<int>(plan.buffers.size()) - 1;
  roms.emplace(i, id);
  return id;
}

void PlanContext::refuse(InstrId i, const std::string& why) const {
  throw Error(fmt::format("rtl: op {} ('{}'): {}", ir::name(m.opcode(i)), m.name(i), why),
              {m.source_file(), m.payload(i).line});
}

}  // namespace plan_detail

int64_t TaskPlan::lane_first(int q) const {
  if (split > 1) return q / split;
  return q * loops.per_lane;
}

int64_t TaskPlan::lane_count(int q) const {
  if (q >= lanes) return 0;
  if (split > 1) return std::clamp<int64_t>(terms - (q % split) * chunk, 0, chunk);
  return std::clamp<int64_t>(outputs - q * loops.per_lane, 0, loops.per_lane);
}

namespace {

bool supported_type(ElementType t) {
  switch (t) {
    case ElementType::kPred: case ElementType::kS8: case ElementType::kS16: case ElementType::kS32:
    case ElementType::kS64: case ElementType::kU8: case ElementType::kU16: case ElementType::kU32:
    case ElementType::kU64: case ElementType::kF32: case ElementType::kF16: case ElementType::kBF16:
      return true;
    default:
      return false;
  }
}

// The first unsupported element type in a shape, if any.
std::optional<ElementType> bad_type(const ir::Shape& s) {
  if (s.is_tuple()) {
    for (const ir::Shape& e : s.tuple_elements())
      if (auto b = bad_type(e)) return b;
    return std::nullopt;
  }
  if (!supported_type(s.element_type())) return s.element_type();
  return std::nullopt;
}

// Integers, pred and the IEEE-754 formats with units (rtl/float_units.h); other floats
// need --fixed first (the message says so).
void check_types(const ir::Module& m) {
  for (ir::CompId c : m.computation_post_order())
    for (InstrId i : m.instructions(c)) {
      const auto bad = bad_type(m.shape(i));
      if (!bad) continue;
      const bool fp = ir::is_floating(*bad) || ir::is_complex(*bad);
      throw Error(fmt::format("rtl: op {} ('{}') has element type {}; the RTL emitter builds pred, s8..s64, "
                              "u8..u64, f32, f16 and bf16{}",
                              ir::name(m.opcode(i)), m.name(i), ir::element_type_name(*bad),
                              fp ? ": quantize the design to fixed point with --fixed W,I" : ""),
                  {m.source_file(), m.payload(i).line});
    }
}

std::string sanitize(std::string_view name) {
  std::string s;
  for (char ch : name) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  if (s.size() > 40) s.resize(40);
  return s;
}

class Unique {
 public:
  std::string operator()(const std::string& base) {
    std::string n = base;
    for (int k = 2; !used_.insert(n).second; ++k) n = fmt::format("{}_{}", base, k);
    return n;
  }

 private:
  std::set<std::string> used_;
};

bool is_alias(Opcode op) {
  switch (op) {
    case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kBitcastConvert: case Opcode::kTuple:
    case Opcode::kGetTupleElement: case Opcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

bool emitter_op(Opcode op) {
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kReshape: case Opcode::kBitcast:
    case Opcode::kBitcastConvert: case Opcode::kTuple: case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier: case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kSlice:
    case Opcode::kConcatenate: case Opcode::kPad: case Opcode::kIota: case Opcode::kReverse: case Opcode::kCopy:
    case Opcode::kDot: case Opcode::kConvolution: case Opcode::kReduce: case Opcode::kReduceWindow:
    case Opcode::kFusion: case Opcode::kMap: case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice:
    case Opcode::kGather: case Opcode::kWhile: case Opcode::kConditional:
      return true;
    default:
      return supported_elementwise(op);
  }
}

class Planner {
 public:
  Planner(const ir::Module& m, const hwmodel::Target& t, const hwmodel::EstimateDetails& d, Plan& plan)
      : m_(m), t_(t), top_(d), plan_(plan), c_(m, t, plan) {}

  void run() {
    plan_.timelines.push_back({"", plan_.cycles});
    plan_computation(m_.entry(), top_, 0, nullptr);
    finish_units();
    make_ports();
  }

 private:
  // The tasks of computation `comp` (scheduled as `d`) on `timeline`; a loop body's or
  // condition's parameter lives at `param` (the loop's state).
  void plan_computation(ir::CompId comp, const hwmodel::EstimateDetails& d, int timeline, const Loc* param) {
    const hwmodel::EstimateDetails* saved_d = d_;
    const int saved_track = track_base_, saved_unit = unit_base_, saved_tl = timeline_;
    const ir::CompId saved_comp = c_.comp;
    const Loc* saved_param = param_;
    d_ = &d;
    track_base_ = static_cast<int>(plan_.tracks.size());
    unit_base_ = static_cast<int>(plan_.units.size());
    timeline_ = timeline;
    c_.comp = comp;
    param_ = param;
    for (const hwmodel::BufferTrack& tr : d.binding.tracks) plan_.tracks.push_back({tr.bytes, !tr.registers, {}});
    for (const hwmodel::UnitInstance& u : d.binding.units) {
      Unit x;
      x.cls = std::string(hwmodel::unit_class_name(static_cast<hwmodel::UnitClass>(u.unit)));
      x.index = u.index;
      x.timeline = timeline;
      plan_.units.push_back(x);
    }
    for (uint32_t t = 0; t < d.graph.size(); ++t) place(t);
    d_ = saved_d;
    track_base_ = saved_track, unit_base_ = saved_unit, timeline_ = saved_tl;
    c_.comp = saved_comp;
    param_ = saved_param;
  }

  void place(uint32_t t) {
    const hwmodel::Task& k = d_->graph.tasks[t];
    const InstrId i = k.instr;
    if (m_.computation_of(i) != c_.comp)
      c_.refuse(i, fmt::format("it sits in computation '{}', which the hardware model inlines (a call, or a fusion "
                               "holding a reduction or dot); the RTL emitter needs them flat: run call-inliner "
                               "or defuser first",
                               m_.computation(m_.computation_of(i)).name));
    const Opcode op = m_.opcode(i);
    if (op == Opcode::kParameter && param_) {  // a loop's state: no buffer of its own
      c_.loc[i] = *param_;
      return;
    }
    if (op == Opcode::kParameter || op == Opcode::kConstant) return place_input(t, i);
    if (k.literal) return place_splat(t, i);
    if (is_alias(op) || hwmodel::identity_reduce_precision(m_, i)) return place_alias(i);
    // a convert or broadcast chained into its readers (hwmodel/chaining.h)
    if ((op == Opcode::kConvert || op == Opcode::kBroadcast) && k.alias) {
      c_.chained[i] = 1;
      return;
    }
    if (op == Opcode::kWhile) return place_while(t, i);
    if (op == Opcode::kConditional) return place_conditional(t, i);
    if (k.unit == hwmodel::kNoUnit || d_->binding.unit_of_task[t] == hwmodel::kNoInstance)
      c_.refuse(i, "the RTL emitter does not support this op (it has no unit in the hardware model: control flow, "
                   "or an op outside the supported set)");
    place_task(t, i);
  }

  // `own_values`: a constant's init comes from its own literal.
  int new_buffer(uint32_t t, InstrId i, Buffer::Origin origin, bool own_values = true) {
    const ir::Shape& s = m_.shape(i);
    if (s.is_tuple()) c_.refuse(i, "tuple-shaped parameters and constants are not supported");
    if (s.element_count() == 0) c_.refuse(i, "zero-element arrays are not supported");
    const uint32_t track = d_->binding.track_of_task[t];
    // a ROM (one value: a literal), no track
    const bool literal = (d_->graph.tasks[t].literal || d_->graph.tasks[t].rom) && origin == Buffer::kConstant;
    if (!literal && (track == hwmodel::kNoInstance || d_->graph.tasks[t].dram))
      c_.refuse(i, "its buffer is kept in DRAM (larger than the on-chip memory), which the RTL emitter does not model");
    Buffer b;
    b.origin = origin;
    b.name = buffer_names_(sanitize(m_.name(i)));
    b.type = s.element_type();
    b.elements = s.element_count();
    b.track = literal ? -1 : track_base_ + static_cast<int>(track);
    b.instr = i;
    b.stored_bits = d_->graph.tasks[t].stored_bits;
    b.stored_sign = d_->graph.tasks[t].stored_sign;
    if (origin == Buffer::kParameter) b.param = static_cast<int>(m_.attrs(i).parameter_number);
    if (origin == Buffer::kConstant && own_values) {
      if (m_.literal(i).elided()) c_.refuse(i, "elided constants ({...}) have no values to put in hardware");
      for (int64_t k = 0; k < b.elements; ++k) b.init.push_back(literal_bits(m_.literal(i), k));
    }
    plan_.buffers.push_back(b);
    const int id = static_cast<int>(plan_.buffers.size()) - 1;
    if (!literal) plan_.tracks[b.track].buffers.push_back(id);
    c_.loc[i].buffer = id;
    return id;
  }

  void place_input(uint32_t t, InstrId i) {
    new_buffer(t, i, m_.opcode(i) == Opcode::kParameter ? Buffer::kParameter : Buffer::kConstant);
  }

  // A broadcast (slice, transpose, ...) of a one-value constant: that value, a literal in
  // its readers (hwmodel: Task::literal, no memory).
  void place_splat(uint32_t t, InstrId i) {
    const std::optional<InstrId> c = hwmodel::splat_source(m_, i);
    if (!c) c_.refuse(i, "internal: a literal that is not a mapping of a constant");
    const uint64_t bits = literal_bits(m_.literal(*c), 0);
    const int id = new_buffer(t, i, Buffer::kConstant, false);
    plan_.buffers[id].init.assign(static_cast<size_t>(plan_.buffers[id].elements), bits);
  }

  void place_alias(InstrId i) {
    const Opcode op = m_.opcode(i);
    const auto ops = m_.operands(i);
    if (op == Opcode::kTuple) {
      Loc l;
      l.tuple = true;
      for (InstrId o : ops) l.elements.push_back(c_.loc[o]);
      c_.loc[i] = std::move(l);
      return;
    }
    if (op == Opcode::kGetTupleElement) {
      const Loc& src = c_.loc[ops[0]];
      const auto k = static_cast<size_t>(m_.attrs(i).tuple_index);
      if (!src.tuple || k >= src.elements.size()) c_.refuse(i, "get-tuple-element of a value that is not a tuple");
      c_.loc[i] = src.elements[k];
      return;
    }
    if (ops.size() != 1) c_.refuse(i, "expected one operand");
    if (op == Opcode::kBitcastConvert &&
        ir::bit_width(m_.shape(i).element_type()) != ir::bit_width(m_.shape(ops[0]).element_type()))
      c_.refuse(i, "bitcast-convert between element types of different widths is not supported (memories hold one "
                   "element per word)");
    if (m_.shape(i).element_type() == ElementType::kPred || m_.shape(ops[0]).element_type() == ElementType::kPred)
      if (op == Opcode::kBitcastConvert && m_.shape(i).element_type() != m_.shape(ops[0]).element_type())
        c_.refuse(i, "bitcast-convert to or from pred is not supported");
    c_.loc[i] = c_.loc[ops[0]];  // the same bytes, read at this op's element type
  }

  void place_task(uint32_t t, InstrId i) {
    const hwmodel::Task& k = d_->graph.tasks[t];
    if (m_.shape(i).is_tuple()) c_.refuse(i, "ops with tuple results (variadic reduce, ...) are not supported");
    TaskPlan tp;
    tp.task = static_cast<uint32_t>(plan_.tasks.size());
    tp.instr = i;
    tp.name = task_names_(fmt::format("t{}_{}", tp.task, sanitize(m_.name(i))));
    tp.unit = unit_base_ + static_cast<int>(d_->binding.unit_of_task[t]);
    tp.timeline = timeline_;
    tp.start = d_->schedule.start[t];
    tp.busy = d_->problem.busy[t];
    tp.latency = d_->problem.latency[t];
    tp.lanes = std::max(1, k.lanes);
    tp.depth = static_cast<int>(tp.latency - tp.busy + 1);
    tp.out_type = m_.shape(i).element_type();
    if (writes_state_ && (*writes_state_)[t] >= 0) {  // a pipelined loop's writer: in place
      tp.out_buffer = (*writes_state_)[t];
      c_.loc[i].buffer = tp.out_buffer;
    } else {
      tp.out_buffer = new_buffer(t, i, Buffer::kTask);
    }
    plan_task(c_, tp);
    plan_.tasks.push_back(std::move(tp));
  }

  // ---- while loops (hwmodel/control_flow.h) ----

  int add_timeline(const std::string& name, int64_t cycles) {
    plan_.timelines.push_back({name, cycles});
    return static_cast<int>(plan_.timelines.size()) - 1;
  }

  static const Loc& at_path(const Loc& l, const std::vector<int64_t>& path) {
    const Loc* x = &l;
    for (int64_t k : path) x = &x->elements.at(static_cast<size_t>(k));
    return *x;
  }

  // A state memory per leaf of the loop's value, each on a track of its own.
  Loc state_loc(const ir::Shape& s, const std::string& name, std::vector<int64_t>& path) {
    Loc l;
    if (s.is_tuple()) {
      l.tuple = true;
      for (size_t k = 0; k < s.tuple_elements().size(); ++k) {
        path.push_back(static_cast<int64_t>(k));
        l.elements.push_back(state_loc(s.tuple_element(static_cast<int64_t>(k)), name, path));
        path.pop_back();
      }
      return l;
    }
    Buffer b;
    b.origin = Buffer::kState;
    std::string suffix;
    for (int64_t k : path) suffix += fmt::format("_{}", k);
    b.name = buffer_names_(name + "_s" + suffix);
    b.type = s.element_type();
    b.elements = std::max<int64_t>(1, s.element_count());
    const int64_t bytes = b.elements * ir::byte_width(b.type);
    b.track = static_cast<int>(plan_.tracks.size());
    plan_.tracks.push_back({bytes, !c_.t.in_registers(bytes), {}});
    plan_.buffers.push_back(b);
    l.buffer = static_cast<int>(plan_.buffers.size()) - 1;
    plan_.tracks.back().buffers.push_back(l.buffer);
    return l;
  }

  void add_copy(const std::string& name, InstrId w, int timeline, int src, int dst, ElementType type, int64_t elements) {
    Unit u;
    u.cls = "mem";
    u.index = static_cast<int>(plan_.units.size());
    u.timeline = timeline;
    plan_.units.push_back(u);
    TaskPlan tp;
    tp.task = static_cast<uint32_t>(plan_.tasks.size());
    tp.instr = w;
    tp.name = task_names_(name);
    tp.unit = static_cast<int>(plan_.units.size()) - 1;
    tp.timeline = timeline;
    tp.start = 0;
    tp.busy = elements;
    tp.latency = hwmodel::state_copy_cycles(c_.t, elements);
    tp.depth = hwmodel::state_copy_depth(c_.t);
    tp.out_type = type;
    tp.out_buffer = dst;
    plan_copy(tp, src, type, elements);
    plan_.tasks.push_back(std::move(tp));
  }

  void place_while(uint32_t t, InstrId i) {
    const auto trips = hwmodel::while_trip_count(m_, i);
    if (!trips) c_.refuse(i, "its trip count is not statically known (the RTL runs a static schedule)");
    const auto& called = m_.called(i);
    const hwmodel::EstimateDetails& cond = sub_details(called[0]);
    const hwmodel::EstimateDetails& body = sub_details(called[1]);
    const hwmodel::LoopPipeline* pipe = body.pipeline && body.pipeline->built ? body.pipeline.get() : nullptr;
    const hwmodel::WhileLoop loop = hwmodel::while_loop(m_, i, c_.t, *trips, cond.schedule.length, body.schedule.length,
                                                        pipe ? pipe->schedule.ii : 0);
    check_latency(i, t, loop.latency());
    LoopPlan lp;
    lp.name = loop_names_("lp_" + sanitize(m_.name(i)));
    lp.instr = i;
    lp.parent = timeline_;
    lp.start = d_->schedule.start[t];
    lp.trips = *trips;
    std::vector<int64_t> path;
    const Loc state = state_loc(m_.shape(i), lp.name, path);
    lp.copy_in = add_timeline(lp.name + "_in", loop.copy_in);
    add_copies(lp.name + "_in", i, lp.copy_in, loop.leaves, c_.loc[m_.operand(i, 0)], state, false);
    if (pipe) {  // a trip counter starts the iterations; the writers store into the state
      lp.ii = pipe->schedule.ii;
      lp.body = add_timeline(lp.name + "_body", loop.body);
      plan_.timelines[lp.body].copies = static_cast<int>(std::max<int64_t>(1, pipe->schedule.stages));
      plan_.timelines[lp.body].period = lp.ii;
      std::vector<int> writes(body.graph.size(), -1);
      for (size_t k = 0; k < loop.leaves.size(); ++k)
        if (const int32_t w = pipe->leaf_writer[k]; w >= 0) writes[static_cast<size_t>(w)] = at_path(state, loop.leaves[k].path).buffer;
      const std::vector<int>* saved = writes_state_;
      writes_state_ = &writes;
      plan_computation(called[1], body, lp.body, &state);
      writes_state_ = saved;
    } else {
      lp.condition = add_timeline(lp.name + "_cond", loop.condition);
      lp.decide = add_timeline(lp.name + "_dec", hwmodel::WhileLoop::kDecide);
      lp.body = add_timeline(lp.name + "_body", loop.body);
      lp.copy_back = add_timeline(lp.name + "_back", loop.copy_back);
      const std::vector<int>* saved = writes_state_;
      writes_state_ = nullptr;
      plan_computation(called[0], cond, lp.condition, &state);
      const Loc pred = c_.loc[m_.computation(called[0]).root];
      lp.pred_buffer = c_.buffer_of_loc(pred, i);
      plan_computation(called[1], body, lp.body, &state);
      writes_state_ = saved;
      add_copies(lp.name + "_back", i, lp.copy_back, loop.leaves, c_.loc[m_.computation(called[1]).root], state, true);
    }
    c_.loc[i] = state;
    plan_.loops.push_back(std::move(lp));
  }

  // The control-flow task's latency as the plan builds it must be the schedule's.
  void check_latency(InstrId i, uint32_t t, int64_t latency) const {
    if (latency != d_->problem.latency[t])
      throw std::logic_error(fmt::format("make_plan: {} {} takes {} cycles, the schedule says {}", ir::name(m_.opcode(i)),
                                         m_.name(i), latency, d_->problem.latency[t]));
  }

  // A copy task per leaf (with `changed_only`, per leaf the loop body changes) from its
  // place in `from` to its memory in `to`, on `timeline`.
  void add_copies(const std::string& prefix, InstrId i, int timeline, const std::vector<hwmodel::StateLeaf>& leaves,
                  const Loc& from, const Loc& to, bool changed_only) {
    for (size_t k = 0; k < leaves.size(); ++k) {
      const hwmodel::StateLeaf& s = leaves[k];
      if (changed_only && !s.copy_back) continue;
      add_copy(fmt::format("{}{}", prefix, k), i, timeline, c_.buffer_of_loc(at_path(from, s.path), i),
               at_path(to, s.path).buffer, s.type, s.elements);
    }
  }

  const hwmodel::EstimateDetails& sub_details(ir::CompId c) const {
    const auto it = top_.subs.find(c);
    if (it == top_.subs.end()) throw std::logic_error("make_plan: the estimate has no schedule of a called computation");
    return *it->second;
  }

  void place_conditional(uint32_t t, InstrId i) {
    const auto& called = m_.called(i);
    std::vector<int64_t> cycles;
    for (ir::CompId c : called) cycles.push_back(sub_details(c).schedule.length);
    const hwmodel::Conditional x = hwmodel::conditional(m_, i, c_.t, cycles);
    check_latency(i, t, x.latency());
    CondPlan cp;
    cp.name = loop_names_("cd_" + sanitize(m_.name(i)));
    cp.instr = i;
    cp.parent = timeline_;
    cp.start = d_->schedule.start[t];
    const InstrId selector = m_.operand(i, 0);
    cp.selector = c_.buffer_of(selector);
    cp.pred = m_.shape(selector).element_type() == ElementType::kPred;
    std::vector<int64_t> path;
    const Loc result = state_loc(m_.shape(i), cp.name, path);
    cp.decide = add_timeline(cp.name + "_dec", hwmodel::Conditional::kDecide);
    for (size_t k = 0; k < called.size(); ++k) {
      cp.branches.push_back(add_timeline(fmt::format("{}_b{}", cp.name, k), cycles[k]));
      plan_computation(called[k], sub_details(called[k]), cp.branches.back(), &c_.loc[m_.operand(i, k + 1)]);
      cp.copies.push_back(add_timeline(fmt::format("{}_c{}", cp.name, k), x.copy_out));
      add_copies(fmt::format("{}_b{}_out", cp.name, k), i, cp.copies.back(), x.leaves,
                 c_.loc[m_.computation(called[k]).root], result, false);
    }
    c_.loc[i] = result;
    plan_.conditionals.push_back(std::move(cp));
  }

  void finish_units() {
    for (size_t k = 0; k < plan_.tasks.size(); ++k) plan_.units[plan_.tasks[k].unit].tasks.push_back(static_cast<int>(k));
    for (Unit& u : plan_.units) {
      std::sort(u.tasks.begin(), u.tasks.end(),
                [&](int a, int b) { return plan_.tasks[a].start < plan_.tasks[b].start; });
      u.mac = u.cls == "int_mac" || u.cls == "fp_mac";
      for (size_t s = 0; s < u.tasks.size(); ++s) {
        TaskPlan& tp = plan_.tasks[u.tasks[s]];
        tp.slot = static_cast<int>(s);
        u.lanes = std::max(u.lanes, tp.lanes);
        u.width = std::max(u.width, datapath_width(tp.out_type));
        u.depth = std::max(u.depth, tp.depth);
        if (u.mac) u.mul_depth = tp.mul_depth, u.add_depth = tp.depth - tp.mul_depth;
      }
    }
  }

  void make_ports() {
    const ir::Computation& entry = m_.computation(m_.entry());
    for (InstrId p : entry.params) {
      if (p == ir::kNoId) continue;
      const Buffer& b = plan_.buffers[c_.buffer_of(p)];
      plan_.inputs.push_back({port_names_("in_" + sanitize(m_.name(p))), m_.name(p), b.type, b.elements,
                              m_.shape(p).rank() == 0, c_.loc[p].buffer, b.param});
    }
    const InstrId root = entry.root;
    add_outputs(c_.loc[root], root, m_.name(root));
  }

  void add_outputs(const Loc& l, InstrId value, const std::string& name) {
    if (l.tuple) {
      const bool named = value != ir::kNoId && m_.opcode(value) == Opcode::kTuple;
      for (size_t k = 0; k < l.elements.size(); ++k) {
        const InstrId part = named ? m_.operand(value, k) : ir::kNoId;
        add_outputs(l.elements[k], part, part != ir::kNoId ? m_.name(part) : fmt::format("{}_{}", name, k));
      }
      return;
    }
    const Buffer& b = plan_.buffers[l.buffer];
    const ir::Shape* s = value != ir::kNoId && !m_.shape(value).is_tuple() ? &m_.shape(value) : nullptr;
    const ElementType type = s ? s->element_type() : b.type;
    const int64_t elements = s ? s->element_count() : b.elements;
    plan_.outputs.push_back({port_names_("out_" + sanitize(name)), name, type, elements, s && s->rank() == 0, l.buffer, -1});
  }

  const ir::Module& m_;
  const hwmodel::Target& t_;
  const hwmodel::EstimateDetails& top_;  // the entry's (holds every loop's schedules)
  Plan& plan_;
  PlanContext c_;
  Unique buffer_names_, task_names_, port_names_, loop_names_;
  // The computation being planned: its schedule, where its tracks and units start in the
  // plan, its timeline and where its parameter lives (a loop's state; null: the entry).
  const hwmodel::EstimateDetails* d_ = nullptr;
  int track_base_ = 0, unit_base_ = 0, timeline_ = 0;
  const Loc* param_ = nullptr;
  // Planning a pipelined loop's body: per task, the state buffer it writes in place (-1:
  // a buffer of its own); null otherwise.
  const std::vector<int>* writes_state_ = nullptr;
};

}  // namespace

namespace {
// The element type an op works on, for messages: its first operand's (a compare's or
// convert's source), else its own.
std::string value_type(const ir::Module& m, InstrId i) {
  const auto ops = m.operands(i);
  const ir::Shape& s = !ops.empty() && m.shape(ops[0]).is_array() ? m.shape(ops[0]) : m.shape(i);
  return s.is_array() ? std::string(ir::element_type_name(s.element_type())) : "a tuple";
}

void check_ops(const ir::Module& m, ir::CompId c) {
  for (InstrId i : m.instructions(c)) {
    if (!emitter_op(m.opcode(i)))
      throw Error(fmt::format("rtl: op {} ('{}') on {} is not supported by the RTL emitter (it builds {}){}",
                              ir::name(m.opcode(i)), m.name(i), value_type(m, i), kBuiltOps,
                              m.opcode(i) == Opcode::kScatter
                                  ? "; a scatter becomes a counted loop of dynamic-slices and dynamic-update-slices, which "
                                    "it builds, with `hlsgym optimize DESIGN --order scatter_expander -o OUT.hlo`"
                                  : ""),
                  {m.source_file(), m.payload(i).line});
    if (m.opcode(i) == Opcode::kWhile || m.opcode(i) == Opcode::kConditional)
      for (ir::CompId k : m.called(i)) check_ops(m, k);
  }
}
}  // namespace

void check_supported(const ir::Module& m) {
  if (m.entry() == ir::kNoId) throw Error("rtl: the module has no entry computation", {m.source_file()});
  check_types(m);
  check_ops(m, m.entry());
}

Plan make_plan(const ir::Module& m, const hwmodel::Target& t, const hwmodel::Estimate& e,
               const std::string& module_name) {
  if (!t.is_fpga())
    throw Error(fmt::format("rtl: target '{}' is a CPU; the RTL emitter needs an FPGA target", t.name));
  if (!e.details) throw std::logic_error("make_plan needs an estimate with details");
  check_supported(m);
  Plan plan;
  plan.module_name = module_name;
  plan.cycles = e.details->schedule.length;
  Planner(m, t, *e.details, plan).run();
  return plan;
}

}  // namespace hlsgym::hwmodel
