#include "hwmodel/loop_pipelining.h"

#include <algorithm>
#include <unordered_map>

namespace hlsgym::hwmodel {

ModuloProblem loop_body_problem(const ir::Module& m, ir::InstrId while_instr, const EstimateDetails& body) {
  const TaskGraph& g = body.graph;
  const ScheduleProblem& p = body.problem;
  ModuloProblem mp;
  for (size_t r = 0; r < p.limits.size(); ++r) mp.add_resource(p.resource_names[r], p.limits[r]);
  std::unordered_map<ir::InstrId, uint32_t> task_of;
  for (uint32_t t = 0; t < g.size(); ++t) {
    const Task& k = g.tasks[t];
    const std::string name = k.instr == ir::kNoId ? "task" + std::to_string(t) : m.name(k.instr);
    const bool own_datapath = k.instr != ir::kNoId && (m.opcode(k.instr) == ir::Opcode::kWhile ||
                                                       m.opcode(k.instr) == ir::Opcode::kConditional);
    if (own_datapath)  // a nested loop or conditional is its own datapath, busy its whole latency
      mp.add_op(name, p.latency[t], mp.add_resource("datapath of " + name, 1), std::max<int64_t>(1, p.latency[t]));
    else
      mp.add_op(name, p.latency[t], p.resource[t], p.busy[t]);
    if (k.instr != ir::kNoId) task_of.emplace(k.instr, t);
  }
  for (uint32_t t = 0; t < g.size(); ++t)
    for (uint32_t d : g.deps_of(t)) mp.add_dep(d, t);
  // Loop state: result leaf k of the body's root tuple -> readers of parameter leaf k.
  const ir::Computation& c = m.computation(m.called(while_instr)[1]);
  if (c.root == ir::kNoId || c.params.empty() || m.opcode(c.root) != ir::Opcode::kTuple) return mp;
  const auto leaves = m.operands(c.root);
  // Readers of each parameter leaf: tasks that depend on its get-tuple-element's task.
  std::unordered_map<uint32_t, size_t> leaf_of_task;  // get-tuple-element task -> leaf
  for (ir::InstrId u : m.users(c.params[0])) {
    const auto gte = task_of.find(u);
    const auto k = static_cast<size_t>(m.attrs(u).tuple_index);
    if (m.opcode(u) == ir::Opcode::kGetTupleElement && gte != task_of.end() && k < leaves.size())
      leaf_of_task.emplace(gte->second, k);
  }
  std::vector<std::vector<uint32_t>> readers(leaves.size());
  for (uint32_t t = 0; t < g.size(); ++t)
    for (uint32_t d : g.deps_of(t))
      if (const auto it = leaf_of_task.find(d); it != leaf_of_task.end()) readers[it->second].push_back(t);
  for (size_t k = 0; k < leaves.size(); ++k) {
    const auto producer = task_of.find(leaves[k]);
    if (producer == task_of.end()) continue;
    const uint32_t w = producer->second;
    for (uint32_t r : readers[k]) {
      if (r == w) continue;
      mp.add_dep(w, r, 1);  // the next iteration reads what this one wrote
      // this iteration's write lands after its own reads of the old value; a reader later
      // in task order may depend on the new value itself, so it reads a second copy
      if (r > w) continue;
      const int64_t depth = p.latency[w] - p.busy[w];
      mp.add_dep_with_delay(r, w, std::max<int64_t>(0, p.busy[r] - depth));
    }
  }
  return mp;
}

std::optional<ModuloSchedule> pipeline_bound(const ir::Module& m, ir::InstrId while_instr, const EstimateDetails& body) {
  const ModuloProblem mp = loop_body_problem(m, while_instr, body);
  if (mp.size() == 0) return std::nullopt;
  return schedule_modulo(mp);
}

}  // namespace hlsgym::hwmodel
