// --fixed W,I: the quantized module is integer, computes fixed-point arithmetic as
// documented, and its RTL matches its interpretation bit for bit.
#include <cmath>

#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "rtl/fixed_point.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

const char* kDesign = R"(design: affine
inputs:
  x: f32[4]
  w: f32[4]
ops:
  - {name: p,    op: multiply, args: [x, w]}
  - {name: half, op: constant, value: 0.5, type: "f32[4]"}
  - {name: s,    op: add, args: [p, half]}
  - {name: zero, op: constant, value: 0, type: "f32[4]"}
  - {name: r,    op: maximum, args: [s, zero]}
  - {name: d,    op: dot, args: [x, w], lhs_contracting_dims: [0], rhs_contracting_dims: [0]}
outputs: [r, d]
)";

TEST(FixedPoint, ParsesFormats) {
  EXPECT_EQ(rtl::parse_fixed("16,8").fraction_bits(), 8);
  EXPECT_EQ(rtl::parse_fixed("32,12").width, 32);
  // ap_fixed allows any width from 2 and integer bits outside 0..W (issue 16 item 4)
  EXPECT_EQ(rtl::parse_fixed("12,4").width, 12);
  EXPECT_EQ(rtl::parse_fixed("16,17").fraction_bits(), -1);
  for (const char* bad : {"16", "1,1", "65,8", "16,8x", "a,b"}) EXPECT_THROW(rtl::parse_fixed(bad), Error) << bad;
}

TEST(FixedPoint, QuantizesArithmetic) {
  const ir::Module q = rtl::quantize(frontend::load_yaml_design(kDesign, "affine.yaml").module, rtl::parse_fixed("16,8"));
  EXPECT_TRUE(integer_only(q));
  std::vector<ir::Literal> args{ir::Literal(ir::Shape(ir::ElementType::kS16, {4})),
                                ir::Literal(ir::Shape(ir::ElementType::kS16, {4}))};
  const double xs[] = {1.5, -2.0, 0.25, 3.0}, ws[] = {2.25, 1.0, -4.0, 0.5};
  for (int k = 0; k < 4; ++k) args[0].set_int(k, static_cast<int64_t>(xs[k] * 256)), args[1].set_int(k, static_cast<int64_t>(ws[k] * 256));
  const ir::Literal out = ir::evaluate(q, args).value;
  const ir::Literal& r = out.tuple_elements()[0];
  EXPECT_EQ(r.get_int(0), static_cast<int64_t>((1.5 * 2.25 + 0.5) * 256));  // 3.375 + 0.5
  EXPECT_EQ(r.get_int(1), 0);                                              // relu(-2 + 0.5)
  EXPECT_EQ(out.tuple_elements()[1].get_int(0), static_cast<int64_t>((3.375 - 2 - 1 + 1.5) * 256));
}

TEST(FixedPoint, RefusesOpsWithoutAFixedPointForm) {
  const char* text = R"(design: angle
inputs:
  y: f32[4]
  x: f32[4]
ops:
  - {name: a, op: acos, args: [y]}
outputs: [a]
)";
  try {
    rtl::quantize(frontend::load_yaml_design(text, "angle.yaml").module, rtl::parse_fixed("16,8"));
    FAIL() << "acos has no fixed-point form";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("acos ('a') has no fixed-point form"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("angle.yaml:6"), std::string::npos) << e.what();
  }
}

// Transcendentals are tables now (issue 16 item 4): softmax quantizes to an integer module.
TEST(FixedPoint, TabulatesTranscendentals) {
  const ir::Module q = rtl::quantize(rtl_design("softmax").module, rtl::parse_fixed("ap_fixed<18,6,AP_RND,AP_SAT>"));
  EXPECT_TRUE(integer_only(q));
}

// Per-op formats: outputs of different widths in one tuple, a reduction with its own
// format (its combiner stays in the default one), an input with its own format.
TEST(FixedPoint, PerOpFormatsMix) {
  const char* text = R"(design: mix
precision: "ap_fixed<16,6,AP_RND,AP_SAT>"
inputs:
  x: {type: "f32[4]", precision: "ap_fixed<12,2,AP_RND_CONV,AP_WRAP>"}
  w: f32[4]
ops:
  - {name: p, op: multiply, args: [x, w], precision: "ap_fixed<24,8,AP_TRN,AP_SAT>"}
  - {name: zero, op: constant, value: 0, type: f32}
  - {name: s, op: reduce, args: [p, zero], dimensions: [0], to_apply: add, precision: "ap_fixed<40,12,AP_RND,AP_SAT>"}
  - {name: e, op: exponential, args: [x]}
outputs: [p, s, e]
)";
  const frontend::Design d = frontend::load_yaml_design(text, "mix.yaml");
  EXPECT_EQ(d.precision, "ap_fixed<16,6,AP_RND,AP_SAT>");
  const rtl::QuantizedModule q = rtl::quantize_module(d.module, ir::parse_fixed_format(d.precision));
  EXPECT_TRUE(integer_only(q.module));
  ASSERT_EQ(q.inputs.size(), 2u);
  EXPECT_EQ(q.inputs[0]->width, 12);
  EXPECT_EQ(q.inputs[1]->width, 16);
  ASSERT_EQ(q.outputs.size(), 3u);
  EXPECT_EQ(q.outputs[0]->width, 24);
  EXPECT_EQ(q.outputs[1]->width, 40);
  EXPECT_EQ(q.outputs[2]->width, 16);
  // x = 1.5, w = 2: p = 3 in <24,8> (16 fraction bits), s = 4 * 3 through the 16-bit
  // combiner (<16,6>: 10 fraction bits) into <40,12> (28 fraction bits)
  std::vector<ir::Literal> args{ir::Literal(ir::Shape(ir::ElementType::kS16, {4})), ir::Literal(ir::Shape(ir::ElementType::kS16, {4}))};
  for (int k = 0; k < 4; ++k) args[0].set_int(k, 3 << 9), args[1].set_int(k, 2 << 10);
  const ir::Literal out = ir::evaluate(q.module, args).value;
  EXPECT_EQ(out.tuple_elements()[0].get_int(0), int64_t{3} << 16);
  EXPECT_EQ(out.tuple_elements()[1].get_int(0), int64_t{12} << 28);
  EXPECT_NEAR(static_cast<double>(out.tuple_elements()[2].get_int(0)) / 1024, std::exp(1.5), 2.0 / 1024);
}

TEST(FixedPoint, QuantizedDesignCosimulates) {
  const ir::Module q = rtl::quantize(frontend::load_yaml_design(kDesign, "affine.yaml").module, rtl::parse_fixed("16,8"));
  const rtl::EmittedDesign e = rtl::emit(q, rtl_fpga());
  rtl::SimOptions o;
  o.vectors = 12;
  const rtl::SimResult r = rtl::cosimulate(q, e, rtl_work_dir("fixed_affine"), o);
  EXPECT_TRUE(r.passed()) << (r.first ? rtl::describe(*r.first) : "") << " cycles " << r.measured_cycles << " vs "
                          << r.estimated_cycles;
}

}  // namespace
}  // namespace hlsgym::testing
