// The remainder unit (ir/remainder_unit.h) against the interpreter's remainder (std::fmod,
// exact) bit for bit: for f16 and bf16 every operand x against a set of divisors y
// (specials, subnormals, both signs of every exponent, random), and 2^18 f32 pairs
// (uniform bits, and pairs with exponents close enough that the quotient is small).
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"
#include "ir/remainder_unit.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;

// Divisors: +-0, +-inf, NaNs, subnormals, one value of each sign per exponent, random.
std::vector<uint64_t> divisors(ElementType t, int width, int fraction, int count, std::mt19937_64& rng) {
  const uint64_t mask = (uint64_t{1} << width) - 1, sign = uint64_t{1} << (width - 1);
  const int exponent = width - 1 - fraction;
  std::vector<uint64_t> y = {0, sign, ir::double_to_float_bits(t, INFINITY), ir::double_to_float_bits(t, -INFINITY),
                             ir::double_to_float_bits(t, NAN), 1, sign | 1, (uint64_t{1} << fraction) - 1};
  for (uint64_t e = 1; e + 1 < (uint64_t{1} << exponent); e += (exponent > 5 ? 18 : 1))
    y.push_back((e << fraction) | (rng() & ((uint64_t{1} << fraction) - 1)) | (rng() & 1 ? sign : 0));
  while (static_cast<int>(y.size()) < count) y.push_back(rng() & mask);
  return y;
}

// The interpreter's remainder of each pair, by evaluating the HLO op.
std::vector<uint64_t> interpreter(ElementType t, const char* name, const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
  const auto n = static_cast<int64_t>(pairs.size());
  const ir::Module m = frontend::parse_hlo(fmt::format(
      "HloModule r\nENTRY e {{\n  x = {0}[{1}] parameter(0)\n  y = {0}[{1}] parameter(1)\n  ROOT r = {0}[{1}] remainder(x, y)\n}}\n",
      name, n));
  const auto& params = m.computation(m.entry()).params;
  ir::Literal x(m.shape(params[0])), y(m.shape(params[1]));
  for (int64_t k = 0; k < n; ++k) x.set_bits(k, pairs[static_cast<size_t>(k)].first), y.set_bits(k, pairs[static_cast<size_t>(k)].second);
  const std::vector<ir::Literal> args{x, y};
  const ir::Literal r = ir::evaluate(m, args).value;
  std::vector<uint64_t> out;
  for (int64_t k = 0; k < n; ++k) out.push_back(r.get_bits(k));
  return out;
}

void check(ElementType t, const char* name, const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
  const std::vector<uint64_t> want = interpreter(t, name, pairs);
  int64_t wrong = 0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    const uint64_t got = ir::remainder_unit(t, pairs[k].first, pairs[k].second);
    if (got != want[k] && wrong++ < 5)
      ADD_FAILURE() << name << " fmod(" << std::hex << pairs[k].first << ", " << pairs[k].second << "): unit " << got
                    << ", interpreter " << want[k];
  }
  EXPECT_EQ(wrong, 0) << name << " of " << pairs.size();
}

TEST(RemainderUnit, EveryHalfPrecisionOperandAgainstManyDivisors) {
  std::mt19937_64 rng(0x7e3);
  for (const auto& [t, name, fraction, count] : {std::tuple{ElementType::kF16, "f16", 10, 40}, std::tuple{ElementType::kBF16, "bf16", 7, 16}}) {
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (uint64_t y : divisors(t, 16, fraction, count, rng))
      for (uint64_t x = 0; x < 65536; ++x) pairs.emplace_back(x, y);
    check(t, name, pairs);
  }
}

TEST(RemainderUnit, RandomSinglePrecisionPairs) {
  std::mt19937_64 rng(0x7e4);
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint64_t y : divisors(ElementType::kF32, 32, 23, 64, rng))
    for (int k = 0; k < 256; ++k) pairs.emplace_back(rng() & 0xffffffffu, y);
  for (int k = 0; k < (1 << 17); ++k) pairs.emplace_back(rng() & 0xffffffffu, rng() & 0xffffffffu);
  for (int k = 0; k < (1 << 17); ++k) {  // quotients below 2^12: the last steps and exact multiples
    const uint64_t y = rng() & 0x7fffffffu, e = (y >> 23) & 0xff;
    const uint64_t ex = std::min<uint64_t>(254, e + rng() % 12);
    const uint64_t x = (rng() & 1 ? 0x80000000u : 0) | (ex << 23) | (k % 4 == 0 ? (y & 0x7fffffu) : rng() & 0x7fffffu);
    pairs.emplace_back(x, y);
  }
  check(ElementType::kF32, "f32", pairs);
}

}  // namespace
}  // namespace hlsgym::testing
