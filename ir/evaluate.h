// ir::evaluate: the reference semantics of every op hlsgym supports. Tests, the pass
// checker and RTL co-simulation all compare against it.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ir/error.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace hlsgym::ir {

// How reduce, reduce-window, dot and convolution combine the terms of one output.
enum class AccumulationOrder {
  // README "Interpreter semantics": reductions combine in row-major order in the element
  // type; float dot and convolution accumulate in double and round once. What passes
  // and the semantic checks compare.
  kReference,
  // As the FPGA microarchitecture does (hwmodel/timing.h "accumulate"), so that RTL
  // co-simulation of a float design can compare bit for bit: every step in the result's
  // element type (dot/convolution operands converted to it, each product and each sum
  // rounded, integers wrapping); the terms of an output in the order the RTL's loop nest
  // visits them, split into EvalOptions::split_of chunks of consecutive terms, each chunk
  // combined sequentially (a reduce's first chunk from its init value, its other chunks
  // from their first term; a dot/convolution chunk from +0), the chunks' partial results
  // joined by a binary tree: level l combines chunk c with chunk c + 2^(l-1) for c a
  // multiple of 2^l, a chunk without a partner passing through.
  kHardware,
};

// How exp, log, tanh, logistic, rsqrt, erf, log-plus-one, exponential-minus-one, sine,
// cosine and power compute on f32, f16 and bf16.
enum class TranscendentalEval {
  kLibm,  // README "Interpreter semantics": the C library in float, rounded to the type
  // The hardware unit's own algorithm (ir/transcendental_units.h; power by an integer
  // exponent with a unit: ir/integer_power_unit.h, by any other: ir/power_unit.h), bit for bit as the
  // RTL's float units compute it, so co-simulation compares exactly; within the ULP
  // bounds of hwmodel/README.md of kLibm
  kUnit,
};

struct EvalOptions {
  // Custom-calls other than cuda_threefry2x32 and elided constants ({...}) are filled
  // with a deterministic hash of (target, operand values) when true; otherwise they are
  // an error. `uses_placeholders` in the result says when this happened.
  bool allow_placeholders = true;
  int64_t max_while_iterations = 1'000'000;  // guard against non-terminating loops
  // Budget of one evaluation (0 = unlimited): steps over all instructions executed (loop
  // iterations count each time), and bytes of values alive at once. A step is about one
  // element computed by an elementwise op; ops that do more per element (dot and
  // convolution products, reduce inputs, placeholders) are charged for it. Each
  // instruction is charged, and each value's bytes counted, before it is computed, so
  // a budget bounds time and memory.
  double max_steps = 0;
  double max_bytes = 0;
  // Where the steps are counted; when set, several evaluations (a check's input sets,
  // before and after, a sampled evaluation's whole sub-graphs) share one budget.
  double* steps_spent = nullptr;
  AccumulationOrder accumulation = AccumulationOrder::kReference;
  // kHardware: over how many lanes each output of a reduce, reduce-window, dot or
  // convolution is split (the RTL's TaskPlan::split, hwmodel's s when lanes > outputs);
  // 1 (sequential, one lane per output) when unset or for any value below 2. The caller
  // (RTL cosim) asks the hardware model; ir cannot.
  std::function<int64_t(InstrId)> split_of;
  TranscendentalEval transcendentals = TranscendentalEval::kLibm;
  // kUnit: power instruction i's constant integer exponent when the hardware takes the
  // integer power unit for it, nullopt for the general power unit (ir/power_unit.h); the
  // RTL cosim asks hwmodel::power_exponent (ir cannot see a fusion's bindings). Unset:
  // each element by its own exponent (an integer with a unit: the integer power unit).
  std::function<std::optional<int>(InstrId)> power_exponent_of;
  // Called with every value evaluate() computes, in every computation: each instruction
  // of the entry, of each call / fusion / conditional branch, of every loop iteration's
  // condition and body, and of every application of a reduce's, reduce-window's,
  // scatter's, select-and-scatter's, sort's or map's computation (set, it turns off the
  // reductions' shortcut that combines elements without applying their computation).
  // What rtl/fixed_accuracy checks against the formats. Unset costs one test per
  // instruction; evaluate_sampled does not call it.
  std::function<void(CompId, InstrId, const Literal&)> observer;
};

// Thrown when an evaluation exceeds its EvalOptions budget (or max_while_iterations): the
// module may be fine, the interpretation was too long for the inputs given. Callers
// that check semantics report this as inconclusive rather than as a failure.
class EvalBudgetExceeded : public Error {
 public:
  using Error::Error;
};

struct EvalResult {
  Literal value;              // the entry's root value (a tuple for several outputs)
  bool uses_placeholders = false;
  std::vector<std::string> placeholder_ops;  // names of the ops that were filled in
};

// Random arguments for the entry's parameters, deterministic per seed: integers over a
// small range that exercises signs and wrap-around, floats in [-2, 2], pred 0/1; a
// parameter that declares a range (ir/input_range.h) uniform in it, rounded to its type.
std::vector<Literal> random_inputs(const Module& m, uint64_t seed);

// Evaluates the entry computation. Throws hlsgym::Error naming the op it cannot
// evaluate (and its line) when unsupported.
EvalResult evaluate(const Module& m, std::span<const Literal> args, const EvalOptions& opts = {});

// For graphs too big to interpret whole: evaluates `samples` randomly chosen elements
// of every array output leaf (chosen by `seed`), computing only the operand elements
// they depend on (memoised). Elementwise, data-movement, reduce and dot ops are
// evaluated element-wise on demand; other ops are evaluated whole when reached. Only the
// reference accumulation order (an Error for AccumulationOrder::kHardware).
struct SampledResult {
  // For each array leaf of the output (depth-first), the sampled linear indices and values.
  std::vector<std::vector<int64_t>> indices;
  std::vector<Literal> values;   // values[k] is a rank-1 literal with indices[k].size() elements
  bool uses_placeholders = false;
};
SampledResult evaluate_sampled(const Module& m, std::span<const Literal> args, int samples,
                               uint64_t seed, const EvalOptions& opts = {});

}  // namespace hlsgym::ir
