// The integer power unit (ir/integer_power_unit.h) against x^n rounded once to the type:
// the reference here multiplies the significand exactly in 128 bits and rounds to
// nearest even by its own code (not the datapath's round_pack), so "0 ULP" is checked
// against an independent rounding. Every f16 and bf16 input for every exponent with a
// unit, 2^20 random f32 inputs (half uniform bits, half with |x| in [2^-50, 2^50)) plus
// specials for each f32 exponent. The table it prints is hwmodel/README.md's.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"
#include "ir/integer_power_unit.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;
using u128 = unsigned __int128;

struct Fmt {
  int e, f;
  int bias() const { return (1 << (e - 1)) - 1; }
  int width() const { return 1 + e + f; }
};
Fmt fmt_of(ElementType t) {
  return t == ElementType::kF32 ? Fmt{8, 23} : t == ElementType::kF16 ? Fmt{5, 10} : Fmt{8, 7};
}

// x^n correctly rounded (round to nearest even, subnormals, overflow to infinity), from
// an exact 128-bit product: pow's special cases for n >= 2 by hand.
uint64_t reference(ElementType t, int n, uint64_t x) {
  const Fmt f = fmt_of(t);
  const uint64_t sign_in = x >> (f.width() - 1), field = (x >> f.f) & ((1u << f.e) - 1), frac = x & ((uint64_t{1} << f.f) - 1);
  const uint64_t max_field = (uint64_t{1} << f.e) - 1;
  const uint64_t sign = n % 2 ? sign_in : 0, sign_bit = sign << (f.width() - 1);
  if (field == max_field && frac) {  // NaN: quieted; f16 keeps no payload
    const uint64_t quiet = uint64_t{1} << (f.f - 1);
    return t == ElementType::kF16 ? (x & ~((uint64_t{1} << f.f) - 1)) | quiet : x | quiet;
  }
  if (field == max_field) return sign_bit | (max_field << f.f);
  if (field == 0 && frac == 0) return sign_bit;
  // x = m 2^q exactly
  const uint64_t m = field ? frac | (uint64_t{1} << f.f) : frac;
  const int64_t q = (field ? static_cast<int64_t>(field) : 1) - f.bias() - f.f;
  u128 pm = 1;
  for (int k = 0; k < n; ++k) pm *= m;
  int64_t e2 = q * n;  // x^n = pm 2^e2
  // the result's lowest bit: 2^(lead - f) for a normal with leading bit 2^lead, else 2^(1 - bias - f)
  int lead = 127;
  while (!((pm >> lead) & 1)) --lead;
  const int64_t lead_exp = e2 + lead;
  const int64_t lsb = std::max<int64_t>(lead_exp - f.f, 1 - f.bias() - f.f);
  const int64_t drop = lsb - e2;  // bits of pm below the result's lowest
  u128 kept;
  if (drop <= 0) {
    kept = pm << static_cast<int>(-drop);
  } else if (drop > 127) {
    kept = 0;  // far below half the smallest subnormal
  } else {
    kept = pm >> drop;
    const u128 rest = pm & ((u128{1} << drop) - 1), half = u128{1} << (drop - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
  }
  // kept 2^lsb: normal if kept >= 2^f (a carry may make it 2^(f+1))
  int64_t exp = lsb + f.f;  // exponent of bit f of kept
  if (kept >> (f.f + 1)) kept >>= 1, ++exp;
  if (kept == 0) return sign_bit;
  if (!(kept >> f.f)) return sign_bit | static_cast<uint64_t>(kept);  // subnormal
  const int64_t biased = exp + f.bias();
  if (biased >= static_cast<int64_t>(max_field)) return sign_bit | (max_field << f.f);
  return sign_bit | (static_cast<uint64_t>(biased) << f.f) | (static_cast<uint64_t>(kept) & ((uint64_t{1} << f.f) - 1));
}

struct Stats {
  int64_t count = 0, wrong = 0;
  uint64_t first_wrong = 0;
};

void check(ElementType t, int n, uint64_t x, Stats& s) {
  ++s.count;
  if (ir::integer_power_unit(t, n, x) != reference(t, n, x) && s.wrong++ == 0) s.first_wrong = x;
}

TEST(IntegerPowerUnit, CorrectlyRoundedForEveryExponent) {
  fmt::print("| unit | type | exponents | inputs per exponent | max ULP | latency (n = 2, 3, max) |\n|---|---|---|---|---|---|\n");
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBF16}) {
    const int max = ir::max_integer_power_exponent(t);
    int64_t per = 0;
    for (int n = 2; n <= max; ++n) {
      Stats s;
      if (t != ElementType::kF32) {
        for (uint64_t x = 0; x < 65536; ++x) check(t, n, x, s);
      } else {
        std::mt19937_64 rng(0x9e3779b9u + static_cast<uint64_t>(n));
        for (int i = 0; i < (1 << 19); ++i) check(t, n, rng() & 0xffffffffu, s);
        for (int i = 0; i < (1 << 19); ++i) check(t, n, ((rng() & 1) << 31) | ((127 - 50 + rng() % 100) << 23) | (rng() & 0x7fffff), s);
        for (uint64_t x : {0x0u, 0x80000000u, 0x1u, 0x807fffffu, 0x00800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                           0xff812345u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu, 0x5f800000u, 0x1f800000u})
          check(t, n, x, s);
      }
      per = s.count;
      EXPECT_EQ(s.wrong, 0) << "x^" << n << " on " << ir::element_type_name(t) << ": " << s.wrong << " of " << s.count
                            << " differ, first input " << std::hex << s.first_wrong << ": unit " << ir::integer_power_unit(t, n, s.first_wrong)
                            << ", x^n " << reference(t, n, s.first_wrong);
    }
    fmt::print("| fpowi | {} | 2..{} | {} | 0 | {}, {}, {} |\n", ir::element_type_name(t), max, per,
               ir::integer_power_program(t, 2).stages(), ir::integer_power_program(t, 3).stages(),
               ir::integer_power_program(t, max).stages());
  }
}

TEST(IntegerPowerUnit, ExponentsWithAUnit) {
  EXPECT_EQ(ir::max_integer_power_exponent(ElementType::kF32), 5);
  EXPECT_EQ(ir::max_integer_power_exponent(ElementType::kF16), 11);
  EXPECT_EQ(ir::max_integer_power_exponent(ElementType::kBF16), 16);
  EXPECT_EQ(ir::max_integer_power_exponent(ElementType::kF64), 0);
  EXPECT_EQ(ir::integer_power_exponent(ElementType::kF32, 3.0), 3);
  for (double y : {0.0, 1.0, -2.0, 2.5, 6.0, double{NAN}, double{INFINITY}}) EXPECT_FALSE(ir::integer_power_exponent(ElementType::kF32, y)) << y;
  EXPECT_THROW(ir::integer_power_program(ElementType::kF32, 6), std::exception);
}

// The interpreter's unit mode computes power by such an exponent with the unit, element by
// element; other exponents (and the default mode) keep libm's pow.
TEST(IntegerPowerUnit, InterpreterUnitModeUsesIt) {
  const ir::Module m = frontend::parse_hlo(R"(HloModule p
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  ROOT r = f32[4] power(x, y)
})");
  ir::Literal x(m.shape(m.computation(m.entry()).params[0])), y(x.shape());
  const uint64_t base = 0x3fa7c3e1u;  // 1.31067...
  const double exps[] = {3, 2.5, 5, 6};
  for (int k = 0; k < 4; ++k) x.set_bits(k, base), y.set_double(k, exps[k]);
  ir::EvalOptions unit;
  unit.transcendentals = ir::TranscendentalEval::kUnit;
  const std::vector<ir::Literal> args{x, y};
  const ir::Literal u = ir::evaluate(m, args, unit).value, l = ir::evaluate(m, args).value;
  EXPECT_EQ(u.get_bits(0), ir::integer_power_unit(ElementType::kF32, 3, base));
  EXPECT_EQ(u.get_bits(2), ir::integer_power_unit(ElementType::kF32, 5, base));
  EXPECT_EQ(u.get_bits(1), l.get_bits(1));  // 2.5: no unit
  EXPECT_EQ(u.get_bits(3), l.get_bits(3));  // 6 > 5 on f32: no unit
}

}  // namespace
}  // namespace hlsgym::testing
