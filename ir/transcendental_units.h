// The transcendental float units' own algorithms: exp, log, tanh, logistic, rsqrt and erf
// on f32, f16 and bf16, each a pipelined fixed-point datapath (ir/fixed_point_datapath.h)
// of range reduction, tables and polynomials. The RTL prints exactly these datapaths
// (rtl/float_transcendental.cc), and the interpreter evaluates with them under
// EvalOptions::transcendentals = kUnit, so co-simulation compares bit for bit.
//
// The algorithms (all magnitudes in unsigned fixed point, polynomials in two's complement,
// one multiply per pipeline stage, one rounding to nearest even at the end):
// - exp: x log2(e) = k + f with f in [0, 1); 2^f = T[top bits of f] x (1 + q(rest)), q a
//   Taylor polynomial; the result 2^k x that, rounded (subnormal and overflow included).
// - log: x = 2^E m; E = 0: log1p(m - 1); E = -1: -(-log(1 - w)), w = 1 - x exact (no
//   cancellation near 1); else E ln2 + log1p(m - 1) in wide fixed point.
// - rsqrt: x = 2^(2E') z, z in [1, 4); 2^-E' / sqrt(z).
// - tanh, erf: odd; |x| below one segment: x (f(x) / x), a product with x's own
//   significand (tiny and subnormal x keep full precision); above: f(|x|); above 2^I,
//   where f rounds to 1: +-1.
// - logistic: x >= 0: s(x); x < 0: exp(x) s(|x|) (= s(x), exactly), which keeps relative
//   precision down to the subnormal results.
// f(x) on a segment is a polynomial in the position t in [0, 1) inside the segment, fit at
// Chebyshev nodes in long double; each polynomial's degree is the smallest that meets the
// unit's precision target (checked while the tables are built).
#pragma once
#include <cstdint>
#include <optional>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"
#include "ir/opcode.h"

namespace hlsgym::ir {

enum class TranscendentalOp : uint8_t { kExp, kLog, kTanh, kLogistic, kRsqrt, kErf };
inline constexpr TranscendentalOp kTranscendentalOps[] = {TranscendentalOp::kExp,      TranscendentalOp::kLog,
                                                          TranscendentalOp::kTanh,     TranscendentalOp::kLogistic,
                                                          TranscendentalOp::kRsqrt,    TranscendentalOp::kErf};

// exponential, log, tanh, logistic, rsqrt, erf; nullopt for any other opcode.
std::optional<TranscendentalOp> transcendental_op(Opcode op);
Opcode opcode_of(TranscendentalOp op);
// "exp", "log", "tanh", "logistic", "rsqrt", "erf".
const char* transcendental_name(TranscendentalOp op);
// f32, f16 and bf16 have units.
bool has_transcendental_unit(ElementType t);

// The unit's datapath (built once per op and type; thread-safe). Throws hlsgym::Error
// for a type without a unit.
const FxProgram& transcendental_program(TranscendentalOp op, ElementType t);
// The unit's result for the operand's bits.
uint64_t transcendental_unit(TranscendentalOp op, ElementType t, uint64_t bits);

}  // namespace hlsgym::ir
