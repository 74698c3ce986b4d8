// The microarchitecture of control flow on an FPGA (`while`, `conditional`), one decision
// read by the estimate (lowering.cc) and printed by rtl/ (plan.cc, verilog_module.cc).
//
// WHILE.
// State: every leaf of the loop's (tuple) value is a memory of its own, owned by the
// loop: the condition and the body read their parameter's leaves straight from it (their
// own schedules give parameters no storage), and after the loop it holds the result that
// the caller's readers read. Phases, one after the other:
//   copy-in    every leaf streams from the loop operand into its state memory, in
//              parallel (one `mem` lane per leaf): copy(max elements) cycles;
//   condition  the condition's own schedule;
//   decide     one cycle: the condition's pred is read; true -> body, false -> exit;
//   body       the body's own schedule (its own units and memories);
//   copy-back  every leaf the body changes streams from the body's result into its state
//              memory (a leaf the body returns unchanged is not copied);
//   then condition again.
// latency = copy_in + (trips + 1) (condition + 1) + trips (body + copy_back)
//
// PIPELINED WHILE (loop_pipelining.h; `ii` > 0). Copy-in as above, then iteration n
// starts at cycle n * ii of the kernel (a trip counter: the condition is not built) and
// runs the body's modulo schedule, `body` cycles long; the task computing a leaf's new
// value writes it into the state memory in place (no copy-back).
// latency = copy_in + (trips - 1) ii + body
//
// CONDITIONAL. Each branch reads its operand where the caller keeps it (no copy in); the
// result is memories of its own, one per leaf, which the caller's readers read. Phases:
//   decide     one cycle: the selector is read (a pred: true -> branch 0; an index out of
//              [0, N) -> the last branch);
//   branch k   its own schedule on its own datapath;
//   copy-out   the branch's result leaves stream into the result memories.
// The caller reserves the slowest branch: latency = 1 + max_k branch_k + copy_out (a
// faster branch finishes early and its result waits).
//
// A copy of E elements is a memory move (timing.h, stream) on one lane: the read stage
// plus the on-chip memory latency, E issues.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

struct StateLeaf {
  ir::ElementType type{};
  int64_t elements = 1;
  std::vector<int64_t> path;  // tuple indices from the loop value to the leaf
  bool copy_back = true;      // the body's result leaf is not the parameter's own leaf
  int readers = 0;            // tasks reading it (condition, body, the loop's users)
  // Copied in from a one-value constant (chaining.h splat_source): rtl's copy lane carries
  // a literal, whose value registers synthesis removes.
  bool literal_init = false;
};

// The leaves of loop `w`'s state in depth-first order, with types, sizes and copy_back
// (readers left 0). Throws hlsgym::Error for a leaf that is not an array.
std::vector<StateLeaf> state_leaves(const ir::Module& m, ir::InstrId w);
// The instruction and tuple path a value's leaf at `path` comes from, through tuple and
// get-tuple-element.
std::pair<ir::InstrId, std::vector<int64_t>> leaf_source(const ir::Module& m, ir::InstrId v, std::vector<int64_t> path);
// The readers, inside branch `branch` of conditional `c`, of the leaf at `path` of that
// branch's operand: each task reading it and, when the branch returns that leaf unchanged,
// its copy-out. rtl gives each a read port of its own on the caller's memory (switch3: the
// 4 x 32 operand v read by scale's multiply, shift's shift and keep's copy-out, 3 ports).
int branch_operand_readers(const ir::Module& m, ir::InstrId c, size_t branch, const std::vector<int64_t>& path);

struct WhileLoop {
  std::vector<StateLeaf> leaves;
  int64_t trips = 0;
  int64_t copy_in = 0, condition = 0, body = 0, copy_back = 0;
  int64_t ii = 0;  // pipelined: cycles between iteration starts (0: one after another)
  static constexpr int64_t kDecide = 1;
  int64_t latency() const;
};

// The loop `w` with `trips` iterations whose condition and body schedules take the given
// cycles; with `pipeline_ii` > 0 pipelined (body_cycles: one iteration's length), its
// leaves written in place by the body (copy_back false) and read by the body's readers
// of their old and new values and the loop's users. Throws hlsgym::Error for a state
// leaf that is not an array.
WhileLoop while_loop(const ir::Module& m, ir::InstrId w, const Target& t, int64_t trips, int64_t condition_cycles,
                     int64_t body_cycles, int64_t pipeline_ii = 0);

// A state copy of `elements` elements: its pipeline depth (read stage + memory) and cycles.
int state_copy_depth(const Target& t);
int64_t state_copy_cycles(const Target& t, int64_t elements);

// The loop's own hardware besides its condition's and body's datapaths: the state
// memories (registers or block RAM as the binding decides for any buffer, a read port per
// reader) and the copy lanes.
Area state_area(const Target& t, const WhileLoop& loop);
// On-chip memory energy of the loop's copies (each element read and written once).
double state_copy_pj(const Target& t, const WhileLoop& loop);

struct Conditional {
  std::vector<StateLeaf> leaves;       // the result's (copy_back: unused)
  std::vector<int64_t> branches;       // each branch's schedule length
  int64_t copy_out = 0;
  static constexpr int64_t kDecide = 1;
  int64_t latency() const;
};

// The conditional `c` whose branches' schedules take the given cycles.
Conditional conditional(const ir::Module& m, ir::InstrId c, const Target& t, std::vector<int64_t> branch_cycles);
// Its result memories and copy lanes (one per leaf and branch).
Area result_area(const Target& t, const Conditional& c);
// On-chip memory energy of the worst branch's copy-out.
double result_copy_pj(const Target& t, const Conditional& c);

}  // namespace hlsgym::hwmodel
