// The rounding units (ir/round_to_integer_unit.h: floor, ceil, round-nearest-even,
// round-nearest-afz) against the interpreter's definition (libm's floor, ceil, nearbyint,
// round on the value, NaNs as its narrowing makes them): bit for bit on every f16 and bf16
// input and on 2^20 f32 inputs (half uniform bits, half with |x| in [2^-4, 2^26), where
// the fraction is cut) plus specials.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/round_to_integer_unit.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;
using ir::RoundingOp;

const char* hlo_name(RoundingOp op) {
  static const char* const kNames[] = {"floor", "ceil", "round-nearest-even", "round-nearest-afz"};
  return kNames[static_cast<int>(op)];
}

TEST(RoundingUnits, EqualTheInterpreterBitForBit) {
  fmt::print("| unit | type | inputs | differences | latency |\n|---|---|---|---|---|\n");
  for (RoundingOp op : {RoundingOp::kFloor, RoundingOp::kCeil, RoundingOp::kNearestEven, RoundingOp::kNearestAfz})
    for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBF16}) {
      std::vector<uint64_t> in;
      if (t != ElementType::kF32) {
        for (uint64_t x = 0; x < 65536; ++x) in.push_back(x);
      } else {
        std::mt19937_64 rng(0x51ce + static_cast<uint64_t>(op));
        for (int k = 0; k < (1 << 19); ++k) in.push_back(rng() & 0xffffffffu);
        for (int k = 0; k < (1 << 19); ++k) in.push_back(((rng() & 1) << 31) | ((127 - 4 + rng() % 30) << 23) | (rng() & 0x7fffff));
        for (uint64_t x : {0x0u, 0x80000000u, 0x1u, 0x807fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xff812345u,
                           0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xbfc00000u, 0x40200000u, 0x4b000001u, 0x4affffffu})
          in.push_back(x);
      }
      const std::string type(ir::element_type_name(t));
      const ir::Module m = frontend::parse_hlo(fmt::format("HloModule r\nENTRY e {{\n  x = {0}[{1}] parameter(0)\n  ROOT y = {0}[{1}] {2}(x)\n}}\n",
                                                           type, in.size(), hlo_name(op)));
      ir::Literal x(m.shape(m.computation(m.entry()).params[0]));
      for (size_t k = 0; k < in.size(); ++k) x.set_bits(static_cast<int64_t>(k), in[k]);
      const std::vector<ir::Literal> args{x};
      const ir::Literal want = ir::evaluate(m, args).value;
      int64_t differ = 0;
      uint64_t first = 0;
      for (size_t k = 0; k < in.size(); ++k)
        if (ir::rounding_unit(op, t, in[k]) != want.get_bits(static_cast<int64_t>(k)) && differ++ == 0) first = in[k];
      fmt::print("| f{} | {} | {} | {} | {} |\n", ir::rounding_name(op), type, in.size(), differ, ir::rounding_program(op, t).stages());
      EXPECT_EQ(differ, 0) << hlo_name(op) << " on " << type << ", first input " << std::hex << first << ": unit "
                           << ir::rounding_unit(op, t, first);
    }
}

}  // namespace
}  // namespace hlsgym::testing
