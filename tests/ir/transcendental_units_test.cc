// The transcendental units' algorithms (ir/transcendental_units.h) against the correctly
// rounded result (long double libm, rounded once to the type): the error in ULPs over
// every input of f16 and bf16 and 2^20 random f32 inputs (half uniform bits, half in the
// range where the function is not saturated; every f32 with TRANSCENDENTAL_F32_EXHAUSTIVE),
// the specials exact. The table it prints is
// hwmodel/README.md's; each bound below is what the units reach, so a change that loses
// precision fails here.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"
#include "ir/transcendental_units.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;
using ir::TranscendentalOp;

long double reference(TranscendentalOp op, long double x) {
  switch (op) {
    case TranscendentalOp::kExp: return std::exp(x);
    case TranscendentalOp::kLog: return std::log(x);
    case TranscendentalOp::kTanh: return std::tanh(x);
    case TranscendentalOp::kLogistic: return 1 / (1 + std::exp(-x));
    case TranscendentalOp::kRsqrt: return 1 / std::sqrt(x);
    case TranscendentalOp::kErf: return std::erf(x);
    case TranscendentalOp::kLog1p: return std::log1p(x);
    case TranscendentalOp::kExpm1: return std::expm1(x);
    case TranscendentalOp::kSin: return std::sin(x);  // glibc's sinl/cosl reduce exactly at any size
    case TranscendentalOp::kCos: return std::cos(x);
  }
  return NAN;
}

int width(ElementType t) { return t == ElementType::kF32 ? 32 : 16; }

// The correctly rounded bits of v in type t (f32 from long double directly; the 16-bit
// types through float, whose 24 bits cannot make a tie of an 8- or 11-bit result that
// the long double did not have... except by rounding: checked below by the neighbours).
uint64_t rounded(ElementType t, long double v) {
  if (t == ElementType::kF32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  return ir::double_to_float_bits(t, static_cast<double>(v));
}

double value(ElementType t, uint64_t bits) { return ir::float_bits_to_double(t, bits); }

// Bits ordered like the values: -NaN.. -0 before +0 .. +NaN as integers.
int64_t ordered(ElementType t, uint64_t bits) {
  const int w = width(t);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return (bits & sign) ? -static_cast<int64_t>(bits & (sign - 1)) : static_cast<int64_t>(bits);
}

struct Stats {
  int64_t count = 0, exact = 0, max_ulp = 0, nan_mismatch = 0;
  uint64_t worst_input = 0;
};

void check(TranscendentalOp op, ElementType t, uint64_t x, Stats& s) {
  const uint64_t got = ir::transcendental_unit(op, t, x);
  const long double in = value(t, x);
  const uint64_t want = rounded(t, reference(op, in));
  ++s.count;
  const bool got_nan = std::isnan(value(t, got)), want_nan = std::isnan(value(t, want));
  if (got_nan || want_nan) {
    if (got_nan != want_nan) ++s.nan_mismatch;
    else ++s.exact;
    return;
  }
  const int64_t ulp = std::llabs(ordered(t, got) - ordered(t, want));
  if (ulp == 0) ++s.exact;
  if (ulp > s.max_ulp) s.max_ulp = ulp, s.worst_input = x;
}

// Inputs where the function is not saturated: |x| < 2^7 (f32 exponent field up to bias + 6).
uint64_t in_range_f32(std::mt19937_64& rng) {
  const uint64_t e = 127 - 40 + rng() % 47;
  return ((rng() & 1) << 31) | (e << 23) | (rng() & 0x7fffff);
}

// TRANSCENDENTAL_F32_EXHAUSTIVE=exp,log (names of ir::transcendental_name): those f32
// units over all 2^32 inputs instead of 2^20, on every core (slow: tens of core-minutes each).
bool exhaustive_f32(TranscendentalOp op) {
  const char* env = std::getenv("TRANSCENDENTAL_F32_EXHAUSTIVE");
  if (!env) return false;
  const std::string list = std::string(",") + env + ",";
  return list.find(std::string(",") + ir::transcendental_name(op) + ",") != std::string::npos;
}

Stats every_f32(TranscendentalOp op) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Stats> part(threads);
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      for (uint64_t x = k; x < (uint64_t{1} << 32); x += threads) check(op, ElementType::kF32, x, part[k]);
    });
  Stats s;
  for (unsigned k = 0; k < threads; ++k) {
    pool[k].join();
    s.count += part[k].count, s.exact += part[k].exact, s.nan_mismatch += part[k].nan_mismatch;
    if (part[k].max_ulp > s.max_ulp) s.max_ulp = part[k].max_ulp, s.worst_input = part[k].worst_input;
  }
  return s;
}

Stats measure(TranscendentalOp op, ElementType t) {
  Stats s;
  if (t != ElementType::kF32) {
    for (uint64_t x = 0; x < 65536; ++x) check(op, t, x, s);
    return s;
  }
  if (exhaustive_f32(op)) return every_f32(op);
  std::mt19937_64 rng(0x7a5c + static_cast<uint64_t>(op));
  for (int i = 0; i < (1 << 19); ++i) check(op, t, rng() & 0xffffffffu, s);
  for (int i = 0; i < (1 << 19); ++i) check(op, t, in_range_f32(rng), s);
  // specials and edges: zeros, subnormals, infinities, NaNs, the over/underflow region of exp
  for (uint64_t x : {0x0u, 0x80000000u, 0x1u, 0x807fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xff812345u, 0x3f800000u,
                     0x42b17218u, 0x42b17217u, 0xc2aeac50u, 0xc2ce8ed0u, 0xc2cff1b5u, 0x7f7fffffu, 0xff7fffffu})
    check(op, t, x, s);
  return s;
}

// What the units reach (max ULPs from the correctly rounded result): 1 everywhere, 0
// (always correctly rounded) for bf16 log, tanh and rsqrt.
int64_t bound(TranscendentalOp op, ElementType t) {
  const bool exact = t == ElementType::kBF16 &&
                     (op == TranscendentalOp::kLog || op == TranscendentalOp::kTanh || op == TranscendentalOp::kRsqrt);
  return exact ? 0 : 1;
}

TEST(TranscendentalUnits, ErrorBoundsInUlps) {
  fmt::print("| unit | type | inputs | max ULP | correctly rounded | latency |\n|---|---|---|---|---|---|\n");
  for (TranscendentalOp op : ir::kTranscendentalOps)
    for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBF16}) {
      const Stats s = measure(op, t);
      const int latency = ir::transcendental_program(op, t).stages();
      fmt::print("| {} | {} | {} | {} | {:.4f} % | {} |\n", ir::transcendental_name(op), ir::element_type_name(t), s.count,
                 s.max_ulp, 100.0 * static_cast<double>(s.exact) / static_cast<double>(s.count), latency);
      EXPECT_EQ(s.nan_mismatch, 0) << ir::transcendental_name(op) << " " << ir::element_type_name(t);
      EXPECT_LE(s.max_ulp, bound(op, t))
          << ir::transcendental_name(op) << " " << ir::element_type_name(t) << " worst input " << std::hex << s.worst_input;
    }
}

// The interpreter's unit mode computes with the units.
TEST(TranscendentalUnits, InterpreterUnitModeUsesTheUnits) {
  const ir::Module m = frontend::parse_hlo(
      "HloModule t\nENTRY e {\n  a = bf16[65536] parameter(0)\n  ROOT r = bf16[65536] exponential(a)\n}\n");
  ir::Literal a(m.shape(m.computation(m.entry()).params[0]));
  for (int64_t k = 0; k < 65536; ++k) a.set_bits(k, static_cast<uint64_t>(k));
  ir::EvalOptions unit;
  unit.transcendentals = ir::TranscendentalEval::kUnit;
  const ir::Literal with_unit = ir::evaluate(m, {&a, 1}, unit).value;
  for (int64_t k = 0; k < 65536; ++k)
    EXPECT_EQ(with_unit.get_bits(k), ir::transcendental_unit(TranscendentalOp::kExp, ElementType::kBF16, static_cast<uint64_t>(k)));
}

}  // namespace
}  // namespace hlsgym::testing
