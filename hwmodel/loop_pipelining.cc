#include "hwmodel/loop_pipelining.h"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "hwmodel/control_flow.h"
#include "hwmodel/modulo_verifier.h"
#include "ir/frontend_attributes.h"

namespace hlsgym::hwmodel {
namespace {

constexpr int32_t kNone = -1;

// The body's tasks as the pipelining rules (loop_pipelining.h) see them.
class BodyView {
 public:
  BodyView(const ir::Module& m, ir::InstrId w, const TaskGraph& g, const ScheduleProblem& p)
      : m_(m), g_(g), p_(p), leaves_(state_leaves(m, w)), leaf_(g.size(), kNone), storage_(g.size()) {
    const ir::Computation& body = m.computation(m.called(w)[1]);
    param_ = body.params.empty() ? ir::kNoId : body.params[0];
    root_ = body.root;
    for (uint32_t t = 0; t < g.size(); ++t) {
      if (g.tasks[t].instr != ir::kNoId) task_of_.emplace(g.tasks[t].instr, t);
      storage_[t] = t;
      const auto deps = g.deps_of(t);
      if (g.tasks[t].alias && deps.size() == 1) storage_[t] = storage_[deps.front()];
      leaf_[t] = state_leaf_of(t);
    }
  }

  const std::vector<StateLeaf>& leaves() const { return leaves_; }
  // The state leaf whose memory task t's value is (through aliases), or kNone.
  int32_t leaf(uint32_t t) const { return leaf_[t]; }
  // The task whose buffer task t's value lives in (through single-operand aliases).
  uint32_t storage(uint32_t t) const { return storage_[t]; }
  // A task computing on a unit: it reads its operands during its issue window.
  bool computes(uint32_t t) const { return !g_.tasks[t].alias && g_.tasks[t].unit != kNoUnit && p_.busy[t] > 0; }
  std::optional<uint32_t> task(ir::InstrId i) const {
    const auto it = task_of_.find(i);
    return it == task_of_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  }
  std::string name(uint32_t t) const { return g_.tasks[t].instr == ir::kNoId ? fmt::format("task{}", t) : m_.name(g_.tasks[t].instr); }
  ir::InstrId root() const { return root_; }

 private:
  // A parameter is the whole state; get-tuple-element goes one level down; other
  // single-operand aliases (reshape, bitcast, a chained convert) keep the leaf.
  int32_t state_leaf_of(uint32_t t) const {
    const ir::InstrId i = g_.tasks[t].instr;
    if (i == ir::kNoId) return kNone;
    const std::vector<int64_t> path = state_path(i);
    if (path.size() == 1 && path[0] == kNotState) return kNone;
    for (size_t k = 0; k < leaves_.size(); ++k)
      if (leaves_[k].path == path) return static_cast<int32_t>(k);
    return kNone;
  }
  static constexpr int64_t kNotState = -1;
  std::vector<int64_t> state_path(ir::InstrId i) const {
    if (i == param_) return {};
    const auto ops = m_.operands(i);
    if (m_.opcode(i) == ir::Opcode::kGetTupleElement) {
      std::vector<int64_t> p = state_path(ops[0]);
      if (p.size() == 1 && p[0] == kNotState) return p;
      p.push_back(m_.attrs(i).tuple_index);
      return p;
    }
    const auto t = task(i);
    if (t && g_.tasks[*t].alias && ops.size() == 1 && m_.opcode(i) != ir::Opcode::kTuple) return state_path(ops[0]);
    return {kNotState};
  }

  const ir::Module& m_;
  const TaskGraph& g_;
  const ScheduleProblem& p_;
  std::vector<StateLeaf> leaves_;
  std::vector<int32_t> leaf_;
  std::vector<uint32_t> storage_;
  std::unordered_map<ir::InstrId, uint32_t> task_of_;
  ir::InstrId param_ = ir::kNoId, root_ = ir::kNoId;
};

// Whether writer `w` reads state leaf `k` only at the element it writes: an elementwise
// op, or dynamic-update-slice's operand (the update and start indices are other values).
bool reads_in_place(const ir::Module& m, const BodyView& v, const TaskGraph& g, uint32_t w, int32_t k) {
  const ir::InstrId i = g.tasks[w].instr;
  const ir::Opcode op = m.opcode(i);
  if (op == ir::Opcode::kFusion || op == ir::Opcode::kMap) return false;
  if (ir::info(op).elementwise) return true;
  if (op != ir::Opcode::kDynamicUpdateSlice) return false;
  const auto ops = m.operands(i);
  for (size_t a = 1; a < ops.size(); ++a) {
    const auto t = v.task(ops[a]);
    if (t && v.leaf(*t) == k) return false;
  }
  return true;
}

// Whether a distance-0 path leads from task `from` to task `to` (tasks are in topological
// order, so only later tasks can be reached).
bool reaches(const TaskGraph& g, uint32_t from, uint32_t to) {
  if (to <= from) return from == to;
  std::vector<char> seen(g.size(), 0);
  seen[from] = 1;
  for (uint32_t t = from + 1; t <= to; ++t)
    for (uint32_t d : g.deps_of(t))
      if (seen[d]) {
        seen[t] = 1;
        break;
      }
  return seen[to] != 0;
}

// The delay that keeps a producer's first write (edge ending cycle start + latency - busy)
// at or after a reader's last read (edge ending cycle start + busy - 1), at least 0.
int64_t write_after_read(const ScheduleProblem& p, uint32_t reader, uint32_t producer) {
  return std::max<int64_t>(0, p.busy[reader] - 1 - (p.latency[producer] - p.busy[producer]));
}

}  // namespace

bool pipeline_disabled(const ir::Module& m, ir::InstrId w) {
  const auto v = ir::frontend_attribute(m.attrs(w), "pipeline");
  return v && *v == "off";
}

int64_t pipeline_target_ii(const ir::Module& m, ir::InstrId w) {
  const auto v = ir::frontend_attribute(m.attrs(w), "pipeline");
  if (!v || v->empty() || v->size() > 10 || !std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; }))
    return 0;
  return std::stoll(*v);
}

PipelineProblem pipeline_problem(const ir::Module& m, ir::InstrId w, const TaskGraph& g, const ScheduleProblem& p) {
  PipelineProblem out;
  ModuloProblem& mp = out.problem;
  const BodyView v(m, w, g, p);
  for (size_t r = 0; r < p.limits.size(); ++r) mp.add_resource(p.resource_names[r], p.limits[r]);
  for (uint32_t t = 0; t < g.size(); ++t) {
    const ir::InstrId i = g.tasks[t].instr;
    if (i != ir::kNoId && (m.opcode(i) == ir::Opcode::kWhile || m.opcode(i) == ir::Opcode::kConditional)) {
      out.why_not = fmt::format("the body holds {} {}, whose datapath runs one invocation at a time",
                                m.opcode(i) == ir::Opcode::kWhile ? "a nested loop" : "a conditional", m.name(i));
      return out;
    }
    mp.add_op(v.name(t), p.latency[t], p.resource[t], p.busy[t]);
    for (uint32_t d : g.deps_of(t)) mp.add_dep(d, t);
    // one instance for every iteration, limited or not: never busy longer than II
    if (v.computes(t) && !p.limited(t)) mp.add_dep_with_delay(t, t, p.busy[t], 1);
  }
  // Writers: the task computing each changed leaf, distinct, a computing task of its own.
  const auto& leaves = v.leaves();
  out.leaf_writer.assign(leaves.size(), kNone);
  for (size_t k = 0; k < leaves.size(); ++k) {
    if (!leaves[k].copy_back) continue;
    const auto [from, rest] = leaf_source(m, v.root(), leaves[k].path);
    const auto t = v.task(from);
    const bool distinct = t && std::find(out.leaf_writer.begin(), out.leaf_writer.end(), static_cast<int32_t>(*t)) ==
                                   out.leaf_writer.end();
    if (!rest.empty() || !t || !v.computes(*t) || g.tasks[*t].dram || !distinct) {
      out.why_not = fmt::format("state leaf {} ({}) is not computed by a task of its own in the body (another leaf's "
                                "value, a constant or a view), so it needs a copy-back",
                                k, m.name(from));
      return out;
    }
    out.leaf_writer[k] = static_cast<int32_t>(*t);
  }
  // Per leaf: its readers of the old value; per buffer: the readers of its value.
  for (uint32_t r = 0; r < g.size(); ++r) {
    if (!v.computes(r)) continue;
    std::vector<int64_t> seen;  // what it reads: a state leaf k as -1 - k, else a buffer's task
    for (uint32_t d : g.deps_of(r)) {
      const uint32_t s = v.storage(d);
      const int64_t what = v.leaf(d) != kNone ? -1 - int64_t{v.leaf(d)} : int64_t{s};
      if (std::find(seen.begin(), seen.end(), what) != seen.end()) continue;
      seen.push_back(what);
      if (const int32_t k = v.leaf(d); k != kNone) {  // reads state leaf k's old value
        const int32_t w_k = out.leaf_writer[static_cast<size_t>(k)];
        if (w_k == kNone) continue;  // never rewritten
        const auto wt = static_cast<uint32_t>(w_k);
        if (wt == r) {
          if (!reads_in_place(m, v, g, r, k)) {
            out.why_not = fmt::format("{} rewrites state leaf {} while reading it at other addresses", v.name(r), k);
            return out;
          }
          mp.add_dep_with_delay(r, r, p.latency[r] - p.busy[r] + 1, 1);
          continue;
        }
        if (reaches(g, wt, r)) {
          out.why_not = fmt::format("{} reads the old value of state leaf {} after {} computed the new one (it "
                                    "would need a second copy)", v.name(r), k, v.name(wt));
          return out;
        }
        mp.add_dep(wt, r, 1);                                           // the next iteration reads the new value
        mp.add_dep_with_delay(r, wt, write_after_read(p, r, wt), 0);  // after this one read the old
        continue;
      }
      if (s != r && v.computes(s))  // the next iteration rewrites the buffer after this read
        mp.add_dep_with_delay(r, s, write_after_read(p, r, s), 1);
    }
  }
  if (const std::string e = modulo_problem_error(mp); !e.empty()) out.why_not = e;
  return out;
}

LoopPipeline pipeline_loop(const ir::Module& m, ir::InstrId w, const TaskGraph& body, const ScheduleProblem& p) {
  LoopPipeline lp;
  PipelineProblem pp = pipeline_problem(m, w, body, p);
  lp.leaf_writer = std::move(pp.leaf_writer);
  if (!pp.why_not.empty()) {
    lp.why_not = std::move(pp.why_not);
    return lp;
  }
  ModuloOptions o;
  o.target_ii = pipeline_target_ii(m, w);
  lp.schedule = schedule_modulo(pp.problem, o);
  if (!lp.schedule.found) {
    lp.why_not = "no modulo schedule found: " + lp.schedule.reason;
    return lp;
  }
  if (const std::string e = verify_modulo_schedule(pp.problem, lp.schedule); !e.empty())
    throw std::logic_error(fmt::format("loop {}: the modulo schedule fails its verifier: {}", m.name(w), e));
  lp.built = true;
  return lp;
}

}  // namespace hlsgym::hwmodel
