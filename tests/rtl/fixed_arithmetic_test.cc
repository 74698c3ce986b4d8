// Property tests of the quantized arithmetic (rtl/fixed_point.h) against the exact
// reference (ir/fixed_format.h, computed in __int128): random ap_fixed formats (widths
// 2..64, integer bits below 0 and above W, every rounding and overflow mode), random
// operand values, and per-op formats that differ from the operands'.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/fixed_format.h"
#include "rtl/fixed_point.h"

namespace hlsgym::testing {
namespace {
using ir::FixedFormat;
using ir::i128;

FixedFormat random_format(std::mt19937_64& rng, int max_width) {
  FixedFormat f;
  f.width = 2 + static_cast<int>(rng() % static_cast<uint64_t>(max_width - 1));
  f.integer_bits = static_cast<int>(rng() % static_cast<uint64_t>(f.width + 9)) - 4;  // -4 .. W+4
  f.rounding = static_cast<ir::FixedRounding>(rng() % 3);
  f.overflow = static_cast<ir::FixedOverflow>(rng() % 2);
  return f;
}

int64_t random_value(std::mt19937_64& rng, const FixedFormat& f) {
  // edges (min, max, 0, +-1) often, else uniform in the format's range
  switch (rng() % 8) {
    case 0: return ir::fixed_min(f);
    case 1: return ir::fixed_max(f);
    case 2: return static_cast<int64_t>(rng() % 3) - 1;
    default: {
      const uint64_t span = static_cast<uint64_t>(ir::fixed_max(f)) - static_cast<uint64_t>(ir::fixed_min(f));
      return ir::fixed_min(f) + static_cast<int64_t>(span == ~uint64_t{0} ? rng() : rng() % (span + 1));
    }
  }
}

// floor(a / b) and whether it was inexact (b != 0).
std::pair<i128, bool> floor_div(i128 a, i128 b) {
  i128 q = a / b;
  const i128 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) --q;
  return {q, r != 0};
}

struct Case {
  const char* op;
  int max_width;  // products need 2W bits
};

// y = op(a, b) with a in fa, b in fb, y in fr (the op's own precision).
std::string design(const char* op, const FixedFormat& fa, const FixedFormat& fb, const FixedFormat& fr) {
  return std::string("design: t\ninputs:\n  a: f32[1]\n  b: f32[1]\nops:\n") +
         "  - {name: qa, op: convert, args: [a], type: \"f32[1]\", precision: \"" + ir::to_string(fa) + "\"}\n" +
         "  - {name: qb, op: convert, args: [b], type: \"f32[1]\", precision: \"" + ir::to_string(fb) + "\"}\n" +
         "  - {name: y, op: " + op + ", args: [qa, qb], precision: \"" + ir::to_string(fr) + "\"}\n" +
         "outputs: [y]\n";
}

int64_t reference(const std::string& op, int64_t a, const FixedFormat& fa, int64_t b, const FixedFormat& fb,
                  const FixedFormat& fr) {
  const int ka = fa.fraction_bits(), kb = fb.fraction_bits();
  if (op == "add" || op == "subtract") {
    const int k = std::max(ka, kb);
    const i128 x = static_cast<i128>(a) << (k - ka), y = static_cast<i128>(b) << (k - kb);
    return ir::requantize(op == "add" ? x + y : x - y, k, fr);
  }
  if (op == "multiply") return ir::requantize(static_cast<i128>(a) * b, ka + kb, fr);
  if (op == "maximum") {  // the operands are put into fr first
    return std::max(ir::requantize(a, ka, fr), ir::requantize(b, kb, fr));
  }
  // divide: a 2^ka / (b 2^kb) exactly, with the guard bit and sticky
  const int k = fr.fraction_bits() + 1 + kb - ka;
  const auto [q, inexact] = floor_div(static_cast<i128>(a) << k, b);
  return ir::requantize(q, fr.fraction_bits() + 1, inexact, fr);
}

TEST(FixedArithmetic, MatchesTheExactReferenceOnRandomFormats) {
  std::mt19937_64 rng(16);
  const Case cases[] = {{"add", 64}, {"subtract", 64}, {"maximum", 64}, {"multiply", 32}, {"divide", 24}};
  int checked = 0, refused = 0;
  for (const Case& cs : cases) {
    for (int trial = 0; trial < 150; ++trial) {
      const FixedFormat fa = random_format(rng, cs.max_width), fb = random_format(rng, cs.max_width),
                        fr = random_format(rng, cs.max_width);
      const std::string text = design(cs.op, fa, fb, fr);
      rtl::QuantizedModule q;
      try {
        q = rtl::quantize_module(frontend::load_yaml_design(text, "t.yaml").module, fa);
      } catch (const Error& e) {
        // only a refusal that says why (an intermediate past 64 bits, a divisor's point)
        const std::string w = e.what();
        EXPECT_TRUE(w.find("64") != std::string::npos || w.find("fraction bits") != std::string::npos) << w;
        ++refused;
        continue;
      }
      for (int v = 0; v < 20; ++v) {
        const int64_t a = random_value(rng, fa), b = random_value(rng, fb);
        if (std::string(cs.op) == "divide" && b == 0) continue;
        std::vector<ir::Literal> args{ir::Literal(ir::Shape(ir::fixed_container(fa.width), {1})),
                                      ir::Literal(ir::Shape(ir::fixed_container(fa.width), {1}))};
        // the inputs arrive in the default format fa and are requantized to fa, fb by the converts
        args[0].set_int(0, a);
        args[1].set_int(0, ir::requantize(b, fb.fraction_bits(), fa));
        const int64_t b_in = ir::requantize(ir::requantize(b, fb.fraction_bits(), fa), fa.fraction_bits(), fb);
        if (std::string(cs.op) == "divide" && b_in == 0) continue;
        const int64_t got = ir::evaluate(q.module, args).value.get_int(0);
        const int64_t want = reference(cs.op, a, fa, b_in, fb, fr);
        ASSERT_EQ(got, want) << cs.op << " a=" << a << " " << ir::to_string(fa) << " b=" << b_in << " "
                             << ir::to_string(fb) << " -> " << ir::to_string(fr);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000);
  std::printf("checked %d, refused %d\n", checked, refused);
  EXPECT_LT(refused, 200);
}

TEST(FixedArithmetic, ParsesApFixedAndTheShortForm) {
  const FixedFormat f = ir::parse_fixed_format("ap_fixed<18, 8, AP_RND, AP_SAT>");
  EXPECT_EQ(f.width, 18);
  EXPECT_EQ(f.integer_bits, 8);
  EXPECT_EQ(f.rounding, ir::FixedRounding::kRound);
  EXPECT_EQ(f.overflow, ir::FixedOverflow::kSaturate);
  EXPECT_EQ(ir::parse_fixed_format(ir::to_string(f)), f);
  EXPECT_EQ(ir::parse_fixed_format("16,8"), (FixedFormat{16, 8}));
  EXPECT_EQ(ir::parse_fixed_format("ap_fixed<8,-2>").fraction_bits(), 10);
  EXPECT_EQ(ir::parse_fixed_format("ap_fixed<8,12,AP_RND_CONV>").fraction_bits(), -4);
  for (const char* bad : {"16", "1,1", "65,8", "16,8x", "a,b", "ap_fixed<16,8,AP_RND_ZERO>", "ap_fixed<16,8,AP_TRN,AP_SAT_SYM>",
                          "ap_ufixed<16,8>", "ap_fixed<16,8,AP_TRN,AP_SAT,2>", "ap_fixed<16,8", "8,-60"}) {
    try {
      ir::parse_fixed_format(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("supported: ap_fixed<W,I"), std::string::npos) << e.what();
    }
  }
}

TEST(FixedArithmetic, RoundingModesOnTies) {
  const auto q = [](double v, const char* spec) { return ir::quantize_real(v, ir::parse_fixed_format(spec)); };
  EXPECT_EQ(q(2.5, "ap_fixed<8,8,AP_TRN>"), 2);
  EXPECT_EQ(q(-2.5, "ap_fixed<8,8,AP_TRN>"), -3);
  EXPECT_EQ(q(2.5, "ap_fixed<8,8,AP_RND>"), 3);
  EXPECT_EQ(q(-2.5, "ap_fixed<8,8,AP_RND>"), -2);
  EXPECT_EQ(q(2.5, "ap_fixed<8,8,AP_RND_CONV>"), 2);
  EXPECT_EQ(q(3.5, "ap_fixed<8,8,AP_RND_CONV>"), 4);
  EXPECT_EQ(q(200, "ap_fixed<8,8,AP_TRN,AP_SAT>"), 127);
  EXPECT_EQ(q(200, "ap_fixed<8,8,AP_TRN,AP_WRAP>"), 200 - 256);
  EXPECT_EQ(q(-1.0 / 0.0, "ap_fixed<8,8,AP_TRN,AP_WRAP>"), -128);
}

}  // namespace
}  // namespace hlsgym::testing
