// ir::Module -> TaskGraph: every instruction of a computation becomes an operator task
// with a unit class, element operations, lanes, a fixed latency (timing.h), its bytes
// in and out, the buffer it allocates, its energy and the area of a unit able to run it.
//
// - free (0 cycles, no unit): parameter, constant, reshape, bitcast, bitcast-convert,
//   tuple, get-tuple-element, opt-barrier, add-dependency, domain, after-all,
//   partition-id, replica-id, get-dimension-size. Reshape-like ones alias their operand.
// - elementwise ops: a stream on the op's unit class (unit_class.h).
// - data movement (copy, transpose, reverse, slice, dynamic-slice, dynamic-update-slice,
//   concatenate, pad, broadcast, gather, iota, copy-start): a stream of the elements
//   written on `mem` lanes.
// - reduce, reduce-window: an accumulate through the to_apply body; dot, convolution:
//   an accumulate of MACs (int_mac / fp_mac by operand type).
// - fusion and map whose bodies are elementwise: one stream through the chained body
//   (depth = the body's critical path); other fusions and calls are inlined.
// - sort: a bitonic network of the comparator; scatter: read-modify-write of updates.
// - while: on an FPGA the loop of control_flow.h (state memories, copy-in, condition,
//   decide, body, copy-back); on a CPU (trip count) x (condition + body) + condition.
//   Condition and body are scheduled alone on their own datapaths; the trip count comes
//   from a known_trip_count backend_config or a counted loop (while_trip_count).
//   conditional: the longest branch, each branch on its own datapath (FPGA: with the
//   decide cycle and copy-out of control_flow.h).
// - anything else (custom-call, collectives, send/recv, infeed/outfeed, rng, fft,
//   cholesky, triangular-solve, batch-norm-*, select-and-scatter, top-k, async ops...)
//   has no cost model: an Error naming the op, unless `lenient`, which costs it as a
//   memory move of its output and counts it in TaskGraph::uncosted.
// Lanes: LoweringOptions::lanes for every op, or per instruction
// `frontend_attributes={lanes="N"}` (YAML: frontend_attributes: '{lanes="4"}').
#pragma once
#include <functional>
#include <memory>
#include <optional>

#include "hwmodel/target.h"
#include "hwmodel/clock.h"
#include "hwmodel/task_graph.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

struct LoweringOptions {
  int lanes = 1;
  bool lenient = false;
  // FPGA: the computation's parameters live in the caller's memories (a loop's state, a
  // conditional's operand), so they get no buffer of their own (control_flow.h).
  bool caller_holds_parameters = false;
};

// What a separately scheduled computation (a loop body, a branch) costs.
struct SubCost {
  int64_t cycles = 0;       // one iteration's length when pipelined
  int64_t pipeline_ii = 0;  // a while body pipelined at this II (loop_pipelining.h); 0: not
  int64_t element_ops = 0;
  double compute_pj = 0, onchip_pj = 0, dram_pj = 0;
  Area area;  // its whole datapath: units, multiplexers, registers, memories
  int64_t peak_bytes = 0;
  std::array<int32_t, ir::kOpcodeCount> uncosted{};
  int unknown_trip_counts = 0;
  ClockEstimate clock;  // its datapath's slowest path (clock.h)
};
// Schedules and binds a computation on its own (estimate.cc provides it, memoized).
using SubCoster = std::function<const SubCost&(ir::CompId)>;

// State reused when lowering several computations of one module on one target (the
// entry and its loop bodies): memoized scalar-body analyses and an instruction-indexed
// map, so a loop body costs its own size, not the module's. Nested use (a body lowered
// while its caller is being lowered) is fine: they touch disjoint instructions.
class LoweringCache {
 public:
  LoweringCache(const ir::Module& m, const Target& t);
  ~LoweringCache();
  LoweringCache(const LoweringCache&) = delete;
  LoweringCache& operator=(const LoweringCache&) = delete;
  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Lowers computation `c` (calls inlined). Throws hlsgym::Error for ops without a cost
// model (unless lenient) and for loops whose trip count is not static (unless lenient,
// which costs one trip and counts it in TaskGraph::unknown_trip_counts). `cache` must
// belong to the same module and target; without one a fresh one is used.
TaskGraph lower(const ir::Module& m, ir::CompId c, const Target& t, const LoweringOptions& o,
                const SubCoster& sub, LoweringCache* cache = nullptr);

// The static trip count of a while loop, if proven: a known_trip_count backend_config,
// or a counted loop: a state element i (any tuple index, or the whole scalar state)
// starts as a constant S, the body adds a nonzero constant k to it (`i + 1 + 1`,
// `i - 2`, through get-tuple-element of tuples, copies, converts, rank-0 broadcasts,
// reshapes, fusions and calls), and the condition compares i + c (either side, any direction) with a
// constant N or with an element the body passes through unchanged that starts as one.
// The count is exact (e.g. ceil((N - S) / k) for LT) and only given when no value on
// the way wraps around its type; otherwise nullopt.
std::optional<int64_t> while_trip_count(const ir::Module& m, ir::InstrId w);

// Per-instruction lanes from frontend_attributes={lanes="N"}, if given.
std::optional<int> lanes_attribute(const ir::Module& m, ir::InstrId i);

// The terms each output of a dot (its contracting dimensions) or a convolution (input
// features times kernel taps) sums: the K of its accumulate (timing.h).
int64_t contraction_terms(const ir::Module& m, ir::InstrId i);

}  // namespace hlsgym::hwmodel
