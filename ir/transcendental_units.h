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
// - log1p, expm1 (transcendental_near_zero.cc): |x| < 1/2: x (f(x) / x) with x's own
//   significand; log1p beyond: log(1 + x), 1 + x exact in fixed point (x itself past
//   2^(p + 8)); expm1 beyond: 2^k (r - 2^-k) or -(1 - 2^k r) from exp's core.
// - sin, cos (transcendental_sin_cos.cc): Payne-Hanek reduction over the whole range:
//   |x| 2/pi mod 4 from a window of 2/pi's bits chosen by x's exponent (a table), so
//   y = k + r, r in [-1/2, 1/2); sin(r pi/2) = |r| h(|r|) with |r| normalized (no loss
//   when x is close to a multiple of pi/2), cos(r pi/2) directly; sin of |x| < 1/2: x
//   (sin(x) / x) with x's own significand.
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

enum class TranscendentalOp : uint8_t { kExp, kLog, kTanh, kLogistic, kRsqrt, kErf, kLog1p, kExpm1, kSin, kCos };
inline constexpr TranscendentalOp kTranscendentalOps[] = {
    TranscendentalOp::kExp,  TranscendentalOp::kLog,   TranscendentalOp::kTanh,  TranscendentalOp::kLogistic,
    TranscendentalOp::kRsqrt, TranscendentalOp::kErf,  TranscendentalOp::kLog1p, TranscendentalOp::kExpm1,
    TranscendentalOp::kSin,  TranscendentalOp::kCos};

// exponential, log, tanh, logistic, rsqrt, erf, log-plus-one, exponential-minus-one,
// sine, cosine; nullopt for any other opcode.
std::optional<TranscendentalOp> transcendental_op(Opcode op);
Opcode opcode_of(TranscendentalOp op);
// "exp", "log", "tanh", "logistic", "rsqrt", "erf", "log1p", "expm1", "sin", "cos".
const char* transcendental_name(TranscendentalOp op);
// f32, f16 and bf16 have units.
bool has_transcendental_unit(ElementType t);

// The unit's datapath (built once per op and type; thread-safe). Throws hlsgym::Error
// for a type without a unit.
const FxProgram& transcendental_program(TranscendentalOp op, ElementType t);
// The unit's result for the operand's bits.
uint64_t transcendental_unit(TranscendentalOp op, ElementType t, uint64_t bits);

}  // namespace hlsgym::ir
