// Issue 16's fixed-point bar: every float design of designs/ (mlp_layer, softmax,
// layernorm, gelu, attention_head, black_scholes and designs/float/*) in its chosen
// ap_fixed format goes to RTL with 0 mismatches against the interpreter on the quantized
// module and measured == estimated cycles (8 vectors), and its accuracy against the float
// design (rtl/fixed_accuracy.h) is what the README's table says, with no value leaving
// its format on the vectors. The quantized module is built as `rtl --fixed` builds it:
// its integer chains fused (cli/fixed_option.h, fuse_integer_chains), and every design
// fits the FPGA target without `lenient`.
#include <fmt/core.h>

#include <cmath>
#include <map>

#include "ir/verifier.h"
#include "passes/registry.h"
#include "rtl/fixed_accuracy.h"
#include "rtl/fixed_point.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

struct Choice {
  const char* format;
  double min_snr_db;  // the accuracy the README states, rounded down (row_sum_max is exact: inf)
};

// The per-design formats of the README table (float/ designs by file stem).
const std::map<std::string, Choice>& choices() {
  static const std::map<std::string, Choice> c = {
      {"mlp_layer", {"ap_fixed<16,6,AP_RND,AP_SAT>", 86}},
      {"softmax", {"ap_fixed<18,6,AP_RND,AP_SAT>", 61}},
      {"layernorm", {"ap_fixed<20,8,AP_RND,AP_SAT>", 54}},
      {"gelu", {"ap_fixed<16,6,AP_RND,AP_SAT>", 63}},
      {"attention_head", {"ap_fixed<18,8,AP_RND,AP_SAT>", 50}},
      {"black_scholes", {"ap_fixed<18,9,AP_RND,AP_SAT>", 30}},
      {"conv_pool_f32", {"ap_fixed<18,8,AP_RND,AP_SAT>", 84}},
      {"elementwise_bf16", {"ap_fixed<20,10,AP_RND,AP_SAT>", 40}},
      {"row_sum_max", {"ap_fixed<20,11,AP_RND,AP_SAT>", 300}},
      {"saxpy", {"ap_fixed<16,6,AP_RND,AP_SAT>", 78}},
      {"rotate_sincos", {"ap_fixed<24,12,AP_RND,AP_SAT>", 79}},
      {"softplus_elu", {"ap_fixed<18,8,AP_RND,AP_SAT>", 55}},
      {"gamma_pow", {"ap_fixed<20,5,AP_RND,AP_SAT>", 35}},
      {"relu6_clamp", {"ap_fixed<16,6,AP_RND,AP_SAT>", 300}},
      {"wrap_reduce", {"ap_fixed<18,8,AP_RND,AP_SAT>", 38}},
      {"polar_atan2", {"ap_fixed<18,8,AP_RND,AP_SAT>", 53}},
  };
  return c;
}

std::vector<std::string> bar_designs() {
  std::vector<std::string> names = float_designs();
  for (const auto& e : std::filesystem::directory_iterator(source_dir() / "designs" / "float"))
    if (e.path().extension() == ".yaml") names.push_back("float/" + e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// As `rtl --fixed` quantizes (cli/fixed_option.cc): the integer chains as loop fusions.
rtl::QuantizedModule quantized(const ir::Module& m, const std::string& format) {
  rtl::QuantizedModule q = rtl::quantize_module(m, rtl::parse_fixed(format));
  passes::Registry::global().create("fusion")->run(q.module);
  ir::verify(q.module);
  return q;
}

class FixedDesign : public ::testing::TestWithParam<std::string> {};

TEST_P(FixedDesign, CosimulatesExactlyWithItsAccuracy) {
  const std::string name = GetParam();
  const std::string stem = std::filesystem::path(name).filename().string();
  ASSERT_TRUE(choices().count(stem)) << name << " has no chosen format: add it here and to README.md's table";
  const Choice& choice = choices().at(stem);
  const frontend::Design d = rtl_design(name);
  const rtl::QuantizedModule q = quantized(d.module, choice.format);
  EXPECT_TRUE(integer_only(q.module));
  const rtl::EmittedDesign e = rtl::emit(q.module, rtl_fpga(), {});  // not lenient: it fits
  rtl::SimOptions o;
  o.vectors = 8;
  o.seed = 1;
  const rtl::SimResult r = rtl::cosimulate(q.module, e, rtl_work_dir("fixed_bar_" + stem), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
  EXPECT_TRUE(r.passed());
  const rtl::FixedAccuracy a = rtl::measure_accuracy(d.module, q, o.vectors, o.seed);
  EXPECT_FALSE(a.first_overflow) << rtl::describe(*a.first_overflow);
  EXPECT_GE(a.snr_db, choice.min_snr_db);
  fmt::print("| {} | {} | {} / {} | {} | {:.3g} | {:.1f} |\n", name, choice.format, r.estimated_cycles, r.measured_cycles,
             r.mismatches, a.max_abs_error, a.snr_db);
}

INSTANTIATE_TEST_SUITE_P(Designs, FixedDesign, ::testing::ValuesIn(bar_designs()), [](const auto& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '/', '_');
  return s;
});

// A design that carries its own precision (design-level, per input, per op): the
// pricer of designs/fixed/, which per-op formats make 48 dB more accurate than one format (78 vs 30 dB).
TEST(FixedDesignPrecision, BlackScholesApFixedCosimulates) {
  const frontend::Design d = rtl_design("fixed/black_scholes_ap_fixed");
  const rtl::QuantizedModule q = quantized(d.module, d.precision);
  // Its quotients' s64 containers hold 39- and 49-bit dividends: rtl builds its four
  // dividers (a divide and a remainder per quotient) at those widths, not 64 bits
  // (hwmodel::divider_bits), and it fits the xc7z020 without `lenient`.
  const rtl::EmittedDesign e = rtl::emit(q.module, rtl_fpga(), {});
  EXPECT_EQ(e.verilog.find("64'h8000000000000000"), std::string::npos) << "a 64-bit divider's MIN / -1 case";
  rtl::SimOptions o;
  o.vectors = 8;
  o.seed = 1;
  const rtl::SimResult r = rtl::cosimulate(q.module, e, rtl_work_dir("fixed_bar_bs_ap_fixed"), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
  const rtl::FixedAccuracy a = rtl::measure_accuracy(d.module, q, o.vectors, o.seed);
  EXPECT_FALSE(a.first_overflow) << rtl::describe(*a.first_overflow);
  EXPECT_GE(a.snr_db, 78);
  fmt::print("| fixed/black_scholes_ap_fixed | {} + per-op | {} / {} | {} | {:.3g} | {:.1f} |\n", d.precision,
             r.estimated_cycles, r.measured_cycles, r.mismatches, a.max_abs_error, a.snr_db);
}

}  // namespace
}  // namespace hlsgym::testing
