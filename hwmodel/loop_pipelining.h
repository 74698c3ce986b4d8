// What a counted `while` loop could reach if its iterations overlapped (issue 15): its
// body's tasks as a modulo scheduling problem, solved by schedulers/modulo.h. The RTL does
// not build pipelined loops yet (control_flow.h: iterations run one after another), so
// the report shows this as a bound, labelled as not built, never as the loop's cost.
//
// The problem (from the body's own schedule problem and binding inputs):
// - one op per body task with its latency, busy cycles and unit class (limits: the
//   target's instances per class, as the body was scheduled with); a nested loop or
//   conditional holds its own datapath for its whole latency;
// - the body's dependences, distance 0;
// - per loop-state leaf k: the task producing the body's result leaf k feeds the next
//   iteration's readers of parameter leaf k (distance 1, its latency as the delay), and
//   writes the state only after this iteration's readers of the old value are done
//   (distance 0: reader -> producer, the reader's busy cycles less the producer's
//   pipeline depth) when the reader comes first in task order. Intermediate buffers,
//   and a state leaf read after its new value is produced, are taken as double-buffered
//   (one more copy per buffer live across an iteration boundary), which the bound does
//   not price.
// The condition of a counted loop is the controller's trip counter: not part of the body.
#pragma once
#include <optional>

#include "hwmodel/estimate.h"
#include "hwmodel/modulo_problem.h"
#include "hwmodel/schedulers/modulo.h"

namespace hlsgym::hwmodel {

ModuloProblem loop_body_problem(const ir::Module& m, ir::InstrId while_instr, const EstimateDetails& body);

// The modulo schedule of the loop's body, or nothing for an empty body.
std::optional<ModuloSchedule> pipeline_bound(const ir::Module& m, ir::InstrId while_instr, const EstimateDetails& body);

}  // namespace hlsgym::hwmodel
