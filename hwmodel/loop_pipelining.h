// Loop pipelining of counted `while` loops (issue 15): the body's tasks as a modulo
// scheduling problem (modulo_problem.h) solved by schedulers/modulo.h, and when that is
// legal and faster than running iterations one after another, the schedule the loop is
// built with (control_flow.h, rtl/).
//
// A pipelined loop keeps one copy of every value: its state memories and each body
// buffer. The problem holds every constraint that makes that copy enough:
// - one op per body task: its latency, busy cycles and unit class (the target's
//   instances per class, as the body was scheduled with); the body's dependences,
//   distance 0; an op on an unlimited class still runs on one instance, so busy <= II
//   (a distance-1 self dependence);
// - state leaf k the body changes is written in place by the task computing it (the
//   "writer"; no copy-back): the next iteration's readers of leaf k wait for it
//   (writer -> reader, distance 1, the writer's latency), and this iteration's readers of
//   the old value finish before its first write lands (reader -> writer, distance 0);
// - a writer that itself reads leaf k does so at the element it writes (an elementwise
//   op, or dynamic-update-slice's operand): each element is read before it is rewritten,
//   and the next iteration reads it after (writer -> writer, distance 1, its pipeline
//   depth);
// - a buffer (a body task's result, or the new value in a state memory) is rewritten by
//   the next iteration only after this iteration's last reader of it is done (reader ->
//   producer, distance 1).
// Timing of those read/write orders, per task: items issue over [start, start + busy),
// each reading its operands in its issue cycle; item j's result is written at the edge
// ending cycle start + j + depth - 1 (depth = latency - busy + 1), and a write at an edge
// is seen by reads sampled at later edges only.
//
// Not pipelined (the loop runs iteration after iteration and `why_not` says why): no
// static trip count or fewer than 1 trip, the `pipeline="off"` directive, a nested loop
// or conditional in the body, a state leaf whose new value is not computed by a task of
// its own (another leaf's value, a constant, an alias), a writer that rewrites its own
// leaf at other addresses, a reader that needs the old value after the new one exists,
// no modulo schedule, or no gain over the sequential loop.
// The condition of a counted loop is the controller's trip counter: not built.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hwmodel/modulo_problem.h"
#include "hwmodel/schedule_problem.h"
#include "hwmodel/schedulers/modulo.h"
#include "hwmodel/task_graph.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

// The body's modulo problem, or why the loop cannot be pipelined. `leaf_writer[k]`: the
// task writing state leaf k (control_flow.h's leaf order) in place, -1 for a leaf the
// body returns unchanged.
struct PipelineProblem {
  ModuloProblem problem;
  std::vector<int32_t> leaf_writer;
  std::string why_not;  // empty when the problem can be scheduled
};
PipelineProblem pipeline_problem(const ir::Module& m, ir::InstrId while_instr, const TaskGraph& body,
                                 const ScheduleProblem& p);

// The decision for one loop, kept with its body's details (estimate.h).
struct LoopPipeline {
  bool built = false;
  std::string why_not;        // when not built
  ModuloSchedule schedule;    // when a schedule was found (built or not: the report's bound)
  std::vector<int32_t> leaf_writer;
  int64_t ii() const { return built ? schedule.ii : 0; }
};

// The loop's `pipeline` frontend attribute (YAML: directives: {pipeline: off | on | II}):
// whether it says off, and the II it asks for (0: none, the smallest the scheduler finds).
bool pipeline_disabled(const ir::Module& m, ir::InstrId while_instr);
int64_t pipeline_target_ii(const ir::Module& m, ir::InstrId while_instr);

// The body `p` (lowered as `body`) as a pipeline, if legal: the modulo schedule at the
// loop's target II or above, verified (a schedule the verifier rejects is an internal
// error). Profitability is the caller's.
LoopPipeline pipeline_loop(const ir::Module& m, ir::InstrId while_instr, const TaskGraph& body, const ScheduleProblem& p);

}  // namespace hlsgym::hwmodel
