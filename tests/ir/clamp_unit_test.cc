// The clamp unit (ir/clamp_unit.h) against the interpreter's clamp, bit for bit: random
// operand triples of every 16-bit format and f32 (uniform bits: NaNs, infinities, zeros
// of both signs and subnormals among them) and every pairing of special values.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/clamp_unit.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;

TEST(ClampUnit, EqualsTheInterpretersClamp) {
  for (const auto& [t, name, n] : {std::tuple{ElementType::kF32, "f32", 32}, std::tuple{ElementType::kF16, "f16", 16},
                                   std::tuple{ElementType::kBF16, "bf16", 16}}) {
    const int64_t count = 1 << 16;
    const ir::Module m = frontend::parse_hlo(fmt::format(
        "HloModule c\nENTRY e {{\n  l = {0}[{1}] parameter(0)\n  x = {0}[{1}] parameter(1)\n  h = {0}[{1}] parameter(2)\n"
        "  ROOT r = {0}[{1}] clamp(l, x, h)\n}}\n", name, count));
    const auto& params = m.computation(m.entry()).params;
    std::vector<ir::Literal> args;
    for (int k = 0; k < 3; ++k) args.emplace_back(m.shape(params[static_cast<size_t>(k)]));
    std::mt19937_64 rng(0xc1a + static_cast<uint64_t>(n));
    const uint64_t mask = n == 32 ? 0xffffffffu : 0xffffu;
    const double specials[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-40, -1e-40};
    for (int64_t k = 0; k < count; ++k)
      for (int a = 0; a < 3; ++a) {
        const uint64_t pick = rng();
        args[static_cast<size_t>(a)].set_bits(
            k, k < 729 ? ir::double_to_float_bits(t, specials[(k / (a == 0 ? 1 : a == 1 ? 9 : 81)) % 9]) : pick & mask);
      }
    const ir::Literal want = ir::evaluate(m, args).value;
    int64_t wrong = 0;
    for (int64_t k = 0; k < count; ++k) {
      const uint64_t got = ir::clamp_unit(t, args[0].get_bits(k), args[1].get_bits(k), args[2].get_bits(k));
      if (got != want.get_bits(k) && wrong++ < 5)
        ADD_FAILURE() << name << " clamp(" << std::hex << args[0].get_bits(k) << ", " << args[1].get_bits(k) << ", "
                      << args[2].get_bits(k) << "): unit " << got << ", interpreter " << want.get_bits(k);
    }
    EXPECT_EQ(wrong, 0) << name;
  }
}

}  // namespace
}  // namespace hlsgym::testing
