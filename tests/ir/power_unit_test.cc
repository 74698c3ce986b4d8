// The power unit x^y (ir/power_unit.h) against the correctly rounded powl, rounded once to
// the type: the error in ULPs over 2^20 random operand pairs per type (half uniform bits,
// half x in [2^-8, 2^8) with |y| < 2^5, where results neither over- nor underflow) and, for
// f16 and bf16, every x against a set of exponents (every 16-bit x is covered; the pairs
// are 2^32, too many); specials (C99 pow's table) exact. The numbers it prints are
// hwmodel/README.md's; the bound is what the unit reaches.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"
#include "ir/power_unit.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;

int width(ElementType t) { return t == ElementType::kF32 ? 32 : 16; }
double value(ElementType t, uint64_t bits) { return ir::float_bits_to_double(t, bits); }
uint64_t rounded(ElementType t, long double v) {
  if (t == ElementType::kF32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  return ir::double_to_float_bits(t, static_cast<double>(v));
}
int64_t ordered(ElementType t, uint64_t bits) {
  const uint64_t sign = uint64_t{1} << (width(t) - 1);
  return (bits & sign) ? -static_cast<int64_t>(bits & (sign - 1)) : static_cast<int64_t>(bits);
}

struct Stats {
  int64_t count = 0, exact = 0, max_ulp = 0, nan_mismatch = 0;
  uint64_t worst_x = 0, worst_y = 0;
};

void check(ElementType t, uint64_t x, uint64_t y, Stats& s) {
  const uint64_t got = ir::power_unit(t, x, y);
  const uint64_t want = rounded(t, std::pow(static_cast<long double>(value(t, x)), static_cast<long double>(value(t, y))));
  ++s.count;
  const bool got_nan = std::isnan(value(t, got)), want_nan = std::isnan(value(t, want));
  if (got_nan || want_nan) {
    if (got_nan != want_nan) {
      if (s.nan_mismatch++ == 0) s.worst_x = x, s.worst_y = y;
    } else {
      ++s.exact;
    }
    return;
  }
  const int64_t ulp = std::llabs(ordered(t, got) - ordered(t, want));
  if (ulp == 0) ++s.exact;
  if (ulp > s.max_ulp) s.max_ulp = ulp, s.worst_x = x, s.worst_y = y;
}

uint64_t bits_of(ElementType t, double v) { return ir::double_to_float_bits(t, v); }

Stats measure(ElementType t) {
  Stats s;
  const uint64_t mask = (uint64_t{1} << width(t)) - 1;
  std::mt19937_64 rng(0x90e + static_cast<uint64_t>(t));
  std::uniform_real_distribution<double> lx(-8, 8), ly(-32, 32);
  for (int i = 0; i < (1 << 19); ++i) check(t, rng() & mask, rng() & mask, s);
  for (int i = 0; i < (1 << 19); ++i) {
    const uint64_t sign = (rng() & 1) ? uint64_t{1} << (width(t) - 1) : 0;
    check(t, bits_of(t, std::exp2(lx(rng))) | sign, bits_of(t, std::round(ly(rng) * 64) / 64), s);
  }
  if (t != ElementType::kF32)
    for (double y : {0.5, -0.5, 1.5, 2.0, 3.0, -1.0, -2.0, 2.5, 0.3, 7.0, 1e-3, 100.0, -100.0})
      for (uint64_t x = 0; x <= mask; ++x) check(t, x, bits_of(t, y), s);
  // C99 pow's special cases
  const double inf = INFINITY, nan = NAN;
  const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, inf, -inf, nan, 2.5, -2.5, 1e-30};
  for (double a : specials)
    for (double b : specials) check(t, bits_of(t, a), bits_of(t, b), s);
  return s;
}

TEST(PowerUnit, ErrorBoundInUlps) {
  fmt::print("| unit | type | operand pairs | max ULP | correctly rounded | latency |\n|---|---|---|---|---|---|\n");
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBF16}) {
    const Stats s = measure(t);
    fmt::print("| pow | {} | {} | {} | {:.4f} % | {} |\n", ir::element_type_name(t), s.count, s.max_ulp,
               100.0 * static_cast<double>(s.exact) / static_cast<double>(s.count), ir::power_program(t).stages());
    EXPECT_EQ(s.nan_mismatch, 0) << ir::element_type_name(t) << " first x " << std::hex << s.worst_x << " y " << s.worst_y;
    EXPECT_LE(s.max_ulp, 1) << ir::element_type_name(t) << " worst x " << std::hex << s.worst_x << " y " << s.worst_y;
  }
}

TEST(PowerUnit, SignedZerosAndInfinitiesAsC99) {
  const ElementType t = ElementType::kF32;
  auto pw = [&](double x, double y) { return ir::power_unit(t, bits_of(t, x), bits_of(t, y)); };
  EXPECT_EQ(pw(-0.0, 3.0), bits_of(t, -0.0));
  EXPECT_EQ(pw(-0.0, 2.0), bits_of(t, 0.0));
  EXPECT_EQ(pw(-0.0, -3.0), bits_of(t, -INFINITY));
  EXPECT_EQ(pw(-INFINITY, 3.0), bits_of(t, -INFINITY));
  EXPECT_EQ(pw(-INFINITY, -3.0), bits_of(t, -0.0));
  EXPECT_EQ(pw(-8.0, 1.0 / 3.0), bits_of(t, std::pow(-8.0f, 1.0f / 3.0f)) | 0);  // invalid: a NaN
  EXPECT_EQ(pw(NAN, 0.0), bits_of(t, 1.0));
  EXPECT_EQ(pw(1.0, NAN), bits_of(t, 1.0));
  EXPECT_EQ(pw(-2.0, 3.0), bits_of(t, -8.0));
}

}  // namespace
}  // namespace hlsgym::testing
