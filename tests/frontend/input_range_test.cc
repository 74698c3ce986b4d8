// Design inputs with a value range (ir/input_range.h): YAML `range: [lo, hi]` and the
// HLO attribute frontend_attributes={range="lo,hi"}; random vectors stay inside it; bad
// ranges are errors with the file and line.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "ir/evaluate.h"
#include "ir/input_range.h"
#include "ir/printer.h"

namespace hlsgym::frontend {
namespace {

std::string design(const std::string& input) {
  return "design: r\ninputs:\n  " + input + "\nops:\n  - {name: y, op: negate, args: [x]}\noutputs: [y]\n";
}

std::string error_of(const std::string& text) {
  try {
    load_yaml_design(text, "r.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

// Every element of every vector inside [lo, hi], and the vectors reach both ends.
void expect_spread(const ir::Module& m, double lo, double hi) {
  double min = hi, max = lo;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    const ir::Literal x = ir::random_inputs(m, seed)[0];
    for (int64_t k = 0; k < x.element_count(); ++k) {
      const double v = x.shape().element_type() == ir::ElementType::kF32 ? x.get_double(k) : static_cast<double>(x.get_int(k));
      ASSERT_GE(v, lo);
      ASSERT_LE(v, hi);
      min = std::min(min, v), max = std::max(max, v);
    }
  }
  EXPECT_LE(min, lo + (hi - lo) * 0.05);
  EXPECT_GE(max, hi - (hi - lo) * 0.05);
}

TEST(InputRange, RandomVectorsStayInTheYamlRange) {
  expect_spread(load_yaml_design(design("x: {type: \"f32[64]\", range: [50, 150]}")).module, 50, 150);
  expect_spread(load_yaml_design(design("x: {type: \"s8[64]\", range: [-128, -100]}")).module, -128, -100);
  expect_spread(load_yaml_design(design("x: {type: \"u16[64]\", range: [3, 3]}")).module, 3, 3);
  // an input without a range keeps the defaults ([-2, 2] for floats)
  const Design plain = load_yaml_design(design("x: f32[64]"));
  EXPECT_FALSE(ir::input_range(plain.module, plain.module.computation(plain.module.entry()).params[0]));
}

TEST(InputRange, HloParameterAttributeAndPrintRoundTrip) {
  const ir::Module m = parse_hlo(
      "HloModule r\nENTRY e {\n  x = f32[64] parameter(0), frontend_attributes={range=\"0.5,2\"}\n  ROOT y = f32[64] log(x)\n}\n");
  expect_spread(m, 0.5, 2);
  const Design yaml = load_yaml_design(design("x: {type: \"f32[64]\", range: [0.25, 4]}"));
  const ir::Module again = parse_hlo(ir::print_module(yaml.module));
  const ir::InputRange r = *ir::input_range(again, again.computation(again.entry()).params[0]);
  EXPECT_EQ(r.lo, 0.25);
  EXPECT_EQ(r.hi, 4);
}

TEST(InputRange, BadRangesAreErrorsWithTheLine) {
  EXPECT_EQ(error_of(design("x: {type: \"f32[4]\", range: [2, 1]}")),
            "r.yaml:3:30: input 'x': range [2, 1] is empty (lo > hi)");
  EXPECT_EQ(error_of(design("x: {type: \"f32[4]\", range: [0, abc]}")),
            "r.yaml:3:34: input 'x': range bound 'abc' is not a number");
  EXPECT_EQ(error_of(design("x: {type: \"s8[4]\", range: [-200, 5]}")),
            "r.yaml:3:29: input 'x': range [-200, 5] is beyond s8 ([-128, 127])");
  EXPECT_EQ(error_of(design("x: {type: \"s32[4]\", range: [0, 1.5]}")),
            "r.yaml:3:30: input 'x': range bounds of s32 must be integers");
  EXPECT_EQ(error_of(design("x: {type: \"f16[4]\", range: [0, 1e6]}")),
            "r.yaml:3:30: input 'x': range [0, 1e+06] is beyond the finite values of f16 (+-65504)");
  EXPECT_EQ(error_of(design("x: {type: \"f32[4]\", range: 3}")), "r.yaml:3:30: input 'x': range must be [lo, hi]");
  EXPECT_EQ(error_of(design("x: {type: \"f32[4]\", ranges: [0, 1]}")),
            "r.yaml:3:23: input 'x': unknown key 'ranges' (expected type, range, precision)");
  EXPECT_EQ(error_of(design("x: {range: [0, 1]}")), "r.yaml:3:6: missing key 'type'");
  // HLO: the parameter named
  const ir::Module m = parse_hlo(
      "HloModule r\nENTRY e {\n  x = f32[4] parameter(0), frontend_attributes={range=\"1;2\"}\n  ROOT y = f32[4] log(x)\n}\n");
  try {
    ir::random_inputs(m, 1);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter x: range \"1;2\" is not \"lo,hi\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hlsgym::frontend
