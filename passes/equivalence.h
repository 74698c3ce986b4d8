// The semantic check behind `optimize --check`, the RL environment's validate() and the
// differential tests: interpret a module before and after passes on the same random
// inputs and compare every output element.
//
// Integers, pred and complex values must match bit for bit. Floats match by value
// (NaN == NaN, -0 == +0) unless a tolerance is given, which the caller gives only when a
// pass in the order reorders float arithmetic (Pass::reassociates_floats). Graphs too
// big to interpret whole are compared on sampled output elements (ir::evaluate_sampled).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/element_type.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace hlsgym::passes {

struct EquivalenceOptions {
  int input_sets = 2;        // random input sets, seeds seed, seed+1, ...
  uint64_t seed = 1;
  bool float_tolerance = false;  // compare floats within float_tolerance_for(type)
  int samples = 48;          // sampled elements per output leaf (sampled mode)
  // Interpret whole when the module's work estimate (flops + elements produced) is below
  // this; otherwise compare sampled elements.
  double whole_budget = 2e7;
  bool force_sampled = false;
  // Random inputs are materialized whole; modules whose parameters need more bytes than
  // this (multi-GB weights of real LLM graphs) are skipped, with the reason in `detail`.
  double max_input_bytes = 256e6;
  // Interpretation budget (ir::EvalOptions): steps over the whole check (every input
  // set, before and after; ~20 ns each, so 5e8 is about ten seconds) and bytes alive in
  // one evaluation. Loops that run long on random inputs (a convergence loop whose
  // tolerance random data never meets) and graphs too heavy to interpret end in
  // kInconclusive instead of running for minutes or hours.
  double max_steps = 5e8;
  double max_bytes = 4e9;
  // Inputs to check on instead of random ones (one set per entry), e.g. from --inputs.
  std::vector<std::vector<ir::Literal>> given_inputs;
};

// kSkipped: the module could not be interpreted at all (an unsupported op, inputs too
// big to materialize). kInconclusive: interpretation started but proved nothing: it ran
// over its budget, or there were no output elements to compare.
enum class CheckStatus { kPassed, kFailed, kSkipped, kInconclusive };
std::string_view status_name(CheckStatus s);  // "passed", "failed", "skipped", "inconclusive"

struct EquivalenceResult {
  CheckStatus status = CheckStatus::kSkipped;
  std::string detail;         // the first mismatch, or why the check was skipped
  bool sampled = false;
  int64_t compared = 0;       // output elements compared, over all input sets
  bool uses_placeholders = false;  // outputs depend on uninterpreted custom-calls
};

// The relative (and absolute, near zero) tolerance used for a float type when
// float_tolerance is on: a few ulps of accumulated reordering error at that precision.
double float_tolerance_for(ir::ElementType t);

// Two floats agree when |a - b| <= max(relative * max(|a|, |b|), absolute).
struct FloatTolerance {
  double relative = 0, absolute = 0;
};

// The tolerance for a value of type `t` that a reassociating pass may have recomputed
// from a sum of `terms` terms accumulated in type `accumulation` (rounding after every
// add, as the interpreter does). Rounding errors of a sequential sum grow with its
// length: relative to the result's typical size by about u*sqrt(n) (u the accumulation
// type's unit roundoff), and in absolute terms, for inputs of size ~1 whose sum cancels
// to near zero, by about u*n. So relative = max(base, 5 u sqrt(n)) and absolute =
// max(base, 4 u n) (about five standard deviations of the error of a random-sign sum),
// base = float_tolerance_for(t) being the bound for short chains; terms = 1 gives the
// base alone.
FloatTolerance float_tolerance_for(ir::ElementType t, ir::ElementType accumulation, double terms);

// The longest float accumulation in `m` (reduce, reduce-window, dot, convolution) as
// (its element type, its number of terms); (kInvalid, 1) when there is none.
std::pair<ir::ElementType, double> longest_float_accumulation(const ir::Module& m);

// Rough work estimate used to choose whole vs sampled interpretation.
double evaluation_work(const ir::Module& m);

EquivalenceResult check_equivalence(const ir::Module& before, const ir::Module& after,
                                    const EquivalenceOptions& opts = {});

}  // namespace hlsgym::passes
