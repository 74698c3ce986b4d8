// reduce-precision (ir/reduce_precision_unit.h): the interpreter's definition against an
// independent reference (the value-level rule the interpreter used before it worked on
// bits, with XLA's NaN rule), the datapath against the interpreter bit for bit, and the
// identity forms (bf16 e8m7, f32 e8m23, ...) leaving every bit pattern as it is.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/float_formats.h"
#include "ir/reduce_precision_unit.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;

struct Type {
  ElementType t;
  const char* name;
  int width, fraction;
};
constexpr Type kTypes[] = {{ElementType::kF32, "f32", 32, 23}, {ElementType::kF16, "f16", 16, 10},
                           {ElementType::kBF16, "bf16", 16, 7}};

// By value, as ilogb sees it: round the f32 significand (its bits, also a subnormal's) to
// nearest even, then infinity above the reduced range and zero below its normals.
double by_value(double x, int e, int m) {
  float f = static_cast<float>(x);
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (m < 23) {
    const uint32_t drop = 23 - static_cast<uint32_t>(m);
    const uint64_t rounded = (uint64_t{u} + (uint64_t{1} << (drop - 1)) - 1 + ((u >> drop) & 1)) >> drop << drop;
    u = static_cast<uint32_t>(rounded);
  }
  f = std::bit_cast<float>(u);
  if (e < 8 && f != 0 && !std::isinf(f)) {
    const int max_exp = (1 << (e - 1)) - 1;
    const int k = std::ilogb(f);
    if (k > max_exp) return std::signbit(f) ? -INFINITY : INFINITY;
    if (k < 1 - max_exp) return std::signbit(f) ? -0.0 : 0.0;
  }
  return f;
}

uint64_t reference(const Type& ty, uint64_t bits, int e, int m) {
  const double x = ir::float_bits_to_double(ty.t, bits);
  if (std::isnan(x)) return m > 0 ? bits : ir::double_to_float_bits(ty.t, INFINITY);
  return ir::double_to_float_bits(ty.t, by_value(x, e, m));
}

std::vector<uint64_t> operands(const Type& ty) {
  std::vector<uint64_t> v;
  if (ty.width == 16) {
    for (uint64_t b = 0; b < 65536; ++b) v.push_back(b);
    return v;
  }
  std::mt19937_64 rng(0x5e1);
  for (uint64_t b : {0x0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffbfffffu, 0x1u,
                     0x807fffffu, 0x7f7fffffu, 0x00800000u, 0x477fefffu, 0x477ff000u, 0x38800000u, 0x387fffffu})
    v.push_back(b);
  for (int k = 0; k < (1 << 18); ++k) v.push_back(rng() & 0xffffffffu);
  return v;
}

// (e, m) pairs: every exponent width 1..9 against every mantissa width 0..fraction + 1.
std::vector<std::pair<int, int>> forms(const Type& ty) {
  std::vector<std::pair<int, int>> f;
  for (int e = 1; e <= 9; ++e)
    for (int m = 0; m <= ty.fraction + 1; ++m)
      if (ty.width == 16 || m % 3 == 0 || m >= 21) f.emplace_back(e, m);
  return f;
}

TEST(ReducePrecisionUnit, InterpreterEqualsTheValueRule) {
  for (const Type& ty : kTypes)
    for (const auto& [e, m] : forms(ty)) {
      int64_t wrong = 0;
      for (uint64_t b : operands(ty)) {
        const uint64_t got = ir::reduce_precision_bits(ty.t, b, e, m), want = reference(ty, b, e, m);
        if (got != want && wrong++ < 3)
          ADD_FAILURE() << ty.name << " e" << e << "m" << m << " of " << std::hex << b << ": " << got << ", want " << want;
      }
      ASSERT_EQ(wrong, 0) << ty.name << " e" << e << " m" << m;
    }
}

TEST(ReducePrecisionUnit, DatapathEqualsTheInterpreter) {
  for (const Type& ty : kTypes)
    for (const auto& [e, m] : forms(ty)) {
      if (ir::reduce_precision_is_identity(ty.t, e, m)) {
        EXPECT_THROW(ir::reduce_precision_program(ty.t, e, m), Error);
        continue;
      }
      EXPECT_EQ(ir::reduce_precision_program(ty.t, e, m).stages(), 1);
      int64_t wrong = 0;
      for (uint64_t b : operands(ty)) {
        const uint64_t got = ir::reduce_precision_unit(ty.t, e, m, b), want = ir::reduce_precision_bits(ty.t, b, e, m);
        if (got != want && wrong++ < 3)
          ADD_FAILURE() << ty.name << " e" << e << "m" << m << " of " << std::hex << b << ": unit " << got << ", want " << want;
      }
      ASSERT_EQ(wrong, 0) << ty.name << " e" << e << " m" << m;
    }
}

TEST(ReducePrecisionUnit, IdentityFormsKeepEveryBitPattern) {
  for (const Type& ty : kTypes)
    for (const auto& [e, m] : {std::pair{8, ty.fraction}, std::pair{11, 52}, std::pair{8, ty.fraction + 3}}) {
      ASSERT_TRUE(ir::reduce_precision_is_identity(ty.t, e, m));
      for (uint64_t b : operands(ty)) ASSERT_EQ(ir::reduce_precision_bits(ty.t, b, e, m), b) << ty.name << std::hex << b;
    }
  EXPECT_FALSE(ir::reduce_precision_is_identity(ElementType::kF16, 5, 10));  // the f32 view flushes f16's subnormals
  EXPECT_EQ(ir::reduce_precision_bits(ElementType::kF16, 0x0001, 5, 10), 0u);
}

TEST(ReducePrecisionUnit, TheInterpreterEvaluatesTheOp) {
  // a signalling NaN stays as it is; 1 + 2^-8 rounds to even at 7 bits: 1
  const ir::Module m = frontend::parse_hlo(
      "HloModule r\nENTRY e {\n  x = bf16[3] parameter(0)\n  ROOT r = bf16[3] reduce-precision(x), exponent_bits=8, "
      "mantissa_bits=7\n}\n");
  ir::Literal x(m.shape(m.computation(m.entry()).params[0]));
  x.set_bits(0, 0x7f81);
  x.set_bits(1, 0xff81);
  x.set_bits(2, 0x3f81);
  const std::vector<ir::Literal> args{x};
  const ir::Literal y = ir::evaluate(m, args).value;
  for (int64_t k = 0; k < 3; ++k) EXPECT_EQ(y.get_bits(k), x.get_bits(k));
  const ir::Module m2 = frontend::parse_hlo(
      "HloModule r\nENTRY e {\n  x = f32[1] parameter(0)\n  ROOT r = f32[1] reduce-precision(x), exponent_bits=8, "
      "mantissa_bits=7\n}\n");
  ir::Literal x2(m2.shape(m2.computation(m2.entry()).params[0]));
  x2.set_bits(0, 0x3f808000u);  // 1 + 2^-8: a tie, to even
  const std::vector<ir::Literal> args2{x2};
  EXPECT_EQ(ir::evaluate(m2, args2).value.get_bits(0), 0x3f800000u);
}

}  // namespace
}  // namespace hlsgym::testing
