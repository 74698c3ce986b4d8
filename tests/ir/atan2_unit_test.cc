// The atan2 unit (ir/atan2_unit.h): its error against atan2l rounded once to the type,
// at most 1 ULP, over a sampled grid of operand pairs for f16 and bf16 (every pair of a
// stratified set of values: specials, subnormals, both signs of every exponent, random
// fractions) and random f32 pairs (half uniform bits, half with exponents within 2^12 of
// each other, where the quotient is neither tiny nor huge); the special cases (C99's
// table) equal to the interpreter's atan2f bit for bit; the interpreter's unit mode runs
// the unit. TRANSCENDENTAL_ATAN2_PAIRS sets the f32 pair count (default 2^18).
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/atan2_unit.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;

struct Type {
  ElementType t;
  const char* name;
  int width, fraction;
};

// Distance in ULPs between two values of the type (bits as sign-magnitude integers).
int64_t ulps(const Type& ty, uint64_t a, uint64_t b) {
  auto key = [&](uint64_t v) {
    const uint64_t sign = uint64_t{1} << (ty.width - 1);
    return (v & sign) ? -static_cast<int64_t>(v & (sign - 1)) : static_cast<int64_t>(v);
  };
  return std::llabs(key(a) - key(b));
}

uint64_t correctly_rounded(const Type& ty, uint64_t y, uint64_t x) {
  const long double r = std::atan2(static_cast<long double>(ir::float_bits_to_double(ty.t, y)),
                                   static_cast<long double>(ir::float_bits_to_double(ty.t, x)));
  // f32 from the long double directly; the 16-bit types through double (53 bits cannot
  // make a tie of an 8- or 11-bit result the long double did not have)
  if (ty.t == ElementType::kF32) return std::bit_cast<uint32_t>(static_cast<float>(r));
  return ir::double_to_float_bits(ty.t, static_cast<double>(r));
}

struct Tally {
  int64_t pairs = 0, exact = 0, max_ulp = 0;
  uint64_t worst_y = 0, worst_x = 0;
};

void measure(const Type& ty, uint64_t y, uint64_t x, Tally& t) {
  const double yv = ir::float_bits_to_double(ty.t, y), xv = ir::float_bits_to_double(ty.t, x);
  if (std::isnan(yv) || std::isnan(xv)) return;
  const uint64_t got = ir::atan2_unit(ty.t, y, x), want = correctly_rounded(ty, y, x);
  const int64_t d = ulps(ty, got, want);
  ++t.pairs;
  t.exact += d == 0;
  if (d > t.max_ulp) t.max_ulp = d, t.worst_y = y, t.worst_x = x;
}

std::vector<uint64_t> grid(const Type& ty, std::mt19937_64& rng) {
  const uint64_t sign = uint64_t{1} << (ty.width - 1);
  const int e_bits = ty.width - 1 - ty.fraction;
  std::vector<uint64_t> v = {0, 1, 2, (uint64_t{1} << ty.fraction) - 1, uint64_t{1} << ty.fraction,
                             ((uint64_t{1} << e_bits) - 1) << ty.fraction};
  for (uint64_t e = 1; e + 1 < (uint64_t{1} << e_bits); ++e)
    for (int k = 0; k < (e_bits > 5 ? 2 : 8); ++k) v.push_back((e << ty.fraction) | (rng() & ((uint64_t{1} << ty.fraction) - 1)));
  const size_t n = v.size();
  for (size_t k = 0; k < n; ++k) v.push_back(v[k] | sign);
  return v;
}

TEST(Atan2Unit, WithinOneUlpOnGridsAndRandomPairs) {
  std::mt19937_64 rng(0xa7a2);
  const Type types[] = {{ElementType::kF16, "f16", 16, 10}, {ElementType::kBF16, "bf16", 16, 7}, {ElementType::kF32, "f32", 32, 23}};
  for (const Type& ty : types) {
    Tally t;
    if (ty.width == 16) {
      const std::vector<uint64_t> g = grid(ty, rng);
      for (uint64_t y : g)
        for (uint64_t x : g) measure(ty, y, x, t);
    } else {
      const char* env = std::getenv("TRANSCENDENTAL_ATAN2_PAIRS");
      const int64_t n = env ? std::atoll(env) : (int64_t{1} << 18);
      for (int64_t k = 0; k < n; ++k) {
        const uint64_t y = rng() & 0xffffffffu;
        uint64_t x = rng() & 0xffffffffu;
        if (k % 2) x = (x & 0x807fffffu) | ((std::clamp<int64_t>(static_cast<int64_t>((y >> 23) & 0xff) + static_cast<int64_t>(rng() % 25) - 12, 1, 254)) << 23);
        measure(ty, y, x, t);
      }
    }
    fmt::print("atan2 {}: {} pairs, max {} ULP, {:.4f} % correctly rounded (worst y {:#x}, x {:#x})\n", ty.name, t.pairs,
               t.max_ulp, 100.0 * static_cast<double>(t.exact) / static_cast<double>(t.pairs), t.worst_y, t.worst_x);
    EXPECT_LE(t.max_ulp, 1) << ty.name << " worst atan2(" << std::hex << t.worst_y << ", " << t.worst_x << ")";
  }
}

// C99's special cases against the interpreter (atan2f), and the unit mode running the unit.
TEST(Atan2Unit, SpecialCasesEqualTheInterpreter) {
  for (const auto& [t, name] : {std::pair{ElementType::kF32, "f32"}, std::pair{ElementType::kF16, "f16"}, std::pair{ElementType::kBF16, "bf16"}}) {
    const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -3.0, INFINITY, -INFINITY, NAN, -NAN, 1e-40, -1e-40, 1e30, -1e30};
    const int n = 14;
    const ir::Module m = frontend::parse_hlo(fmt::format(
        "HloModule a\nENTRY e {{\n  y = {0}[{1}] parameter(0)\n  x = {0}[{1}] parameter(1)\n  ROOT r = {0}[{1}] atan2(y, x)\n}}\n",
        name, n * n));
    const auto& params = m.computation(m.entry()).params;
    std::vector<ir::Literal> args{ir::Literal(m.shape(params[0])), ir::Literal(m.shape(params[1]))};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        args[0].set_bits(i * n + j, ir::double_to_float_bits(t, specials[i]));
        args[1].set_bits(i * n + j, ir::double_to_float_bits(t, specials[j]));
      }
    const ir::Literal libm = ir::evaluate(m, args).value;
    ir::EvalOptions o;
    o.transcendentals = ir::TranscendentalEval::kUnit;
    const ir::Literal unit_mode = ir::evaluate(m, args, o).value;
    for (int64_t k = 0; k < n * n; ++k) {
      const uint64_t y = args[0].get_bits(k), x = args[1].get_bits(k), got = ir::atan2_unit(t, y, x);
      EXPECT_EQ(unit_mode.get_bits(k), got) << name;
      const double yv = ir::float_bits_to_double(t, y), xv = ir::float_bits_to_double(t, x);
      const bool special = std::isnan(yv) || std::isnan(xv) || yv == 0 || xv == 0 || std::isinf(yv) || std::isinf(xv);
      if (special) EXPECT_EQ(got, libm.get_bits(k)) << name << std::hex << " atan2(" << y << ", " << x << ")";
    }
  }
}

}  // namespace
}  // namespace hlsgym::testing
