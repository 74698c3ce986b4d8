// Helpers of the control-flow pass family (constant folding, while-loop and conditional
// simplifiers, deduplication): who calls a computation, exact evaluation of one
// instruction with the interpreter, partial evaluation of a loop's condition to get its
// static trip count, and the loop-state edits several while passes share.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::control_flow {

// Instructions of `c`, operands before users (parameters, the root's operands, then the
// rest), in time linear in c's size: unlike Module::post_order it allocates nothing the
// size of the whole module, which matters for modules with thousands of computations.
std::vector<ir::InstrId> local_post_order(const ir::Module& m, ir::CompId c);

// Computations reachable from the entry, callees before callers, in time linear in the
// module's size (Module::computation_post_order walks each computation in post order).
std::vector<ir::CompId> callees_first(const ir::Module& m);

// For every computation slot, how many called() entries of live instructions in live
// computations name it (a computation used twice by one conditional counts twice).
std::vector<int> caller_counts(const ir::Module& m);

// True if `c`, or a computation it calls, holds an elided constant (`{...}`). The
// interpreter fills those from a hash of the constant's *name*, so copying one (which
// renames it) would change the program's value: such code is never copied.
bool contains_elided_constant(const ir::Module& m, ir::CompId c);
bool is_elided_constant(const ir::Module& m, ir::InstrId i);

// The value of instruction `i` of `m` applied to `operands` (one per operand, shapes as
// the operands'), computed by ir::evaluate on a one-instruction module that holds copies
// of the computations `i` calls. Nullopt when the interpreter cannot compute it exactly
// (unsupported op, placeholder custom-call/rng, malformed operands).
std::optional<ir::Literal> evaluate_instruction(const ir::Module& m, ir::InstrId i,
                                                std::span<const ir::Literal* const> operands);

// Values of instructions of a loop computation (condition or body, parameter 0 a tuple)
// when some elements of the state are known constants; everything else is unknown.
// Only small, side-effect-free instructions are evaluated.
class StateEvaluator {
 public:
  StateEvaluator(const ir::Module& m, ir::CompId c, const std::vector<const ir::Literal*>& known);
  // nullptr when the value is not known.
  const ir::Literal* value(ir::InstrId i);

 private:
  const ir::Literal* compute(ir::InstrId i, int depth);
  const ir::Module& m_;
  ir::InstrId param_;
  const std::vector<const ir::Literal*>& known_;
  std::unordered_map<ir::InstrId, std::optional<ir::Literal>> memo_;
  int budget_ = 512;  // instructions evaluated at most, so a huge body stays cheap
};

// Tuple indices of the loop state that instruction `i` of loop computation `c` reads
// (through get-tuple-element of parameter 0; any other use of the parameter reads all).
std::vector<bool> state_indices_read(const ir::Module& m, ir::CompId c, ir::InstrId i, size_t n);

// The exact number of iterations of while `w`, when its condition depends only on state
// elements that start as constants and stay computable; nullopt if unknown or > limit.
std::optional<int64_t> static_trip_count(const ir::Module& m, ir::InstrId w, int64_t limit);

// True if while `w` runs its body at most once: its static trip count is 0 or 1, or one
// run of the body sets the elements its condition reads to values, whatever the start,
// on which the condition is false (XLA's ComputeWhileLoopTripCountUpperBound giving 1:
// the body sets the induction variable to a constant that exits).
bool runs_at_most_once(const ir::Module& m, ir::InstrId w);

// The value of element k of the tuple `t` in t's computation: the operand of a tuple
// instruction, or a new get-tuple-element.
ir::InstrId tuple_element(ir::Module& m, ir::InstrId t, int64_t k);

// True if every user of the parameter 0 of `c` is a get-tuple-element.
bool params_used_only_by_gte(const ir::Module& m, ir::CompId c);

// Removes state elements of while `w` that nothing observable needs: an element is
// dead when the condition and side effects do not read it, no element that stays reads
// it, and after the loop it is either unused or passed through unchanged (then its
// uses read the init value). Needs the body and condition called by `w` only, a tuple
// body root, and parameters used only through get-tuple-element. True if it changed.
bool remove_dead_state_elements(ir::Module& m, ir::InstrId w, const std::vector<int>& callers);

// True if the state of while `w` can be edited element by element: a non-empty tuple,
// body and condition called by `w` alone, a tuple body root nothing else uses, and
// parameters used only through get-tuple-element.
bool state_is_editable(const ir::Module& m, ir::InstrId w, const std::vector<int>& callers);

// Removes the state elements `dropped` of while `w` (state_is_editable): nothing in the
// body or condition may read them any more (their get-tuple-elements of the parameters
// go with whatever uses them), and after the loop each is taken to be its init value.
void drop_state_elements(ir::Module& m, ir::InstrId w, const std::vector<bool>& dropped);

// Replaces reads of loop-invariant state elements (passed through the body unchanged)
// whose init value is a constant by copies of that constant, in the body (the
// pass-through into the root stays) and in the condition. `scalars_only` limits it to
// scalar elements. With `keep_pass_through` false the pass-through reads the constant
// too (XLA's TryPropagateConstant), so the element becomes one the body sets to its
// init constant. The caller checks that the body and condition belong to `w` alone.
bool sink_constants_into_loop(ir::Module& m, ir::InstrId w, bool scalars_only, bool keep_pass_through = true);

// True if a computation `i` calls (or what those call) holds a send, send-done, recv or
// recv-done: the other side of the channel matches on the caller's structure, so XLA's
// while and conditional simplifiers leave it as it is.
bool calls_send_or_recv(const ir::Module& m, ir::InstrId i);

// True if any instruction of `c` (or what it calls) has a side effect.
bool computation_has_side_effect(const ir::Module& m, ir::CompId c);

// Gives while `w` the state shape `new_state`, which extends the old one by elements
// whose init values are `extra_init` (instructions in w's computation). Users of `w`
// other than get-tuple-element (and root status) get a tuple of the old shape. The body
// and condition are not touched. Returns the new init tuple.
ir::InstrId extend_while_state(ir::Module& m, ir::InstrId w, std::span<const ir::InstrId> extra_init);

// Replaces every use of `from` by `to`, except operand `keep_slot` of `keep_user`.
void replace_uses_except(ir::Module& m, ir::InstrId from, ir::InstrId to, ir::InstrId keep_user,
                         size_t keep_slot);

// Removes `i` and everything that (transitively) uses it, if none of them is a root, a
// parameter or side-effecting; otherwise changes nothing and returns false.
bool remove_with_users(ir::Module& m, ir::InstrId i);

// HloDCE: removes unused side-effect-free instructions (never parameters, roots or
// instructions with control edges) and
// computations nothing reachable from the entry calls. True if anything went.
bool remove_dead_code(ir::Module& m);

// All live while instructions, callers' computations first (reverse post order) when
// `callers_first`, else callees first.
std::vector<ir::InstrId> collect_ops(const ir::Module& m, ir::Opcode op, bool callers_first);

}  // namespace hlsgym::passes::control_flow
