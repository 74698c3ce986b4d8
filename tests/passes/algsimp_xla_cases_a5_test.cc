// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla 001918b7), its cases from
// SliceOfBroadcastToBroadcast to ConvertConvToMatmul, each a golden test (HLO in; the
// root pattern, or no change, out; the interpreter agreeing). XLA's C++-builder cases
// are written as HLO text; its parameterized convolution-padding tests are one TEST each,
// every parameter a SCOPED_TRACE. A case hlsgym answers differently on purpose checks
// hlsgym's answer and names its line in xla_cases/deliberate_differences.txt.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/passes/algsimp_golden.h"

namespace hlsgym::passes {
namespace {
using testing::expect_listed;
using testing::expect_listed_unchanged;
using testing::root_expression;
using testing::simplify;

TEST(AlgsimpXlaA5, SliceOfBroadcastToBroadcast) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[11] parameter(0)
  b = f32[11,12] broadcast(p), dimensions={0}
  ROOT s = f32[11,3] slice(b), slice={[0:11], [3:6]}
})");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
}

TEST(AlgsimpXlaA5, SliceOfReshapeToReshapeOfSlice) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[132,13] parameter(0)
  r = f32[11,12,13] reshape(p)
  ROOT s = f32[9,12,13] slice(r), slice={[0:9], [0:12], [0:13]}
})");
  EXPECT_EQ(root_expression(m), "reshape(slice(parameter(0)))");
}

TEST(AlgsimpXlaA5, SliceOfReshapeUnchanged) {
  simplify(R"(
ENTRY test {
  p = f32[1,144,25,1,512] parameter(0)
  r = f32[3600,512] reshape(p)
  ROOT s = f32[960,512] slice(r), slice={[0:960], [0:512]}
})", false);
}

const char* kLessThan = R"(
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  e = s32[] parameter(4)
  f = s32[] parameter(5)
  ROOT r = pred[] compare(a, b), direction=LT
}
lt1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT
}
)";

TEST(AlgsimpXlaA5, RemoveNoopSort) {
  const ir::Module m = simplify(std::string(kLessThan) + R"(
ENTRY test {
  keys = f32[1] parameter(0)
  ROOT s = f32[1] sort(keys), dimensions={0}, to_apply=lt1
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// No elements: nothing for the interpreter to compare.
TEST(AlgsimpXlaA5, ReplaceEffectiveScalarKeyValueSortWithTuple) {
  const ir::Module m = simplify(std::string(kLessThan) + R"(
ENTRY test {
  keys = f32[5,0] parameter(0)
  v0 = s32[5,0] parameter(1)
  v1 = s32[5,0] parameter(2)
  ROOT s = (f32[5,0], s32[5,0], s32[5,0]) sort(keys, v0, v1), dimensions={0}, to_apply=lt
})", true, false);
  EXPECT_EQ(root_expression(m), "tuple(parameter(0), parameter(1), parameter(2))");
}

std::string binary_pred(const std::string& op, const std::string& value, bool constant_first) {
  const std::string ops = constant_first ? "(c, p)" : "(p, c)";
  return "ENTRY test {\n p = pred[] parameter(0)\n c = pred[] constant(" + value + ")\n ROOT r = pred[] " + op + ops +
         "\n}\n";
}

TEST(AlgsimpXlaA5, AndTrue) {
  EXPECT_EQ(root_expression(simplify(binary_pred("and", "true", false))), "parameter(0)");
}

TEST(AlgsimpXlaA5, AndTrue2) {
  EXPECT_EQ(root_expression(simplify(binary_pred("and", "true", true))), "parameter(0)");
}

TEST(AlgsimpXlaA5, AndFalse) {
  EXPECT_EQ(root_expression(simplify(binary_pred("and", "false", false))), "constant(false)");
}

TEST(AlgsimpXlaA5, AndFalse2) {
  EXPECT_EQ(root_expression(simplify(binary_pred("and", "false", true))), "constant(false)");
}

TEST(AlgsimpXlaA5, OrTrue) {
  EXPECT_EQ(root_expression(simplify(binary_pred("or", "true", false))), "constant(true)");
}

TEST(AlgsimpXlaA5, OrTrue2) {
  EXPECT_EQ(root_expression(simplify(binary_pred("or", "true", true))), "constant(true)");
}

TEST(AlgsimpXlaA5, OrFalse) {
  EXPECT_EQ(root_expression(simplify(binary_pred("or", "false", false))), "parameter(0)");
}

TEST(AlgsimpXlaA5, OrFalse2) {
  EXPECT_EQ(root_expression(simplify(binary_pred("or", "false", true))), "parameter(0)");
}

// ---- a pad merged into a convolution's window (listed: see the lines) ----

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// "lo_hi[_interior]x..." applied to `dims`.
std::vector<int64_t> padded_dims(const std::vector<int64_t>& dims, const std::string& padding) {
  std::vector<int64_t> out;
  const auto parts = split(padding, 'x');
  for (size_t d = 0; d < dims.size(); ++d) {
    const auto v = split(parts[d], '_');
    const int64_t interior = v.size() > 2 ? std::stoll(v[2]) : 0;
    out.push_back(dims[d] + std::stoll(v[0]) + std::stoll(v[1]) + std::max<int64_t>(dims[d] - 1, 0) * interior);
  }
  return out;
}

// The spatial output sizes of a 2-D window ("size=AxB pad=.. lhs_dilate=.. rhs_dilate=..")
// over `in` (no strides in these cases).
std::vector<int64_t> window_output(const std::vector<int64_t>& in, const std::string& window) {
  std::vector<int64_t> size(2, 1), lo(2, 0), hi(2, 0), lhs(2, 1), rhs(2, 1);
  for (const std::string& field : split(window, ' ')) {
    if (field.empty()) continue;
    const size_t eq = field.find('=');
    const std::string key = field.substr(0, eq);
    const auto v = split(field.substr(eq + 1), 'x');
    for (size_t d = 0; d < 2; ++d) {
      if (key == "size") size[d] = std::stoll(v[d]);
      if (key == "lhs_dilate") lhs[d] = std::stoll(v[d]);
      if (key == "rhs_dilate") rhs[d] = std::stoll(v[d]);
      if (key == "pad") {
        const auto p = split(v[d], '_');
        lo[d] = std::stoll(p[0]);
        hi[d] = std::stoll(p[1]);
      }
    }
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t base = (in[d] - 1) * lhs[d] + 1 + lo[d] + hi[d], win = (size[d] - 1) * rhs[d] + 1;
    out.push_back(base < win ? 0 : base - win + 1);
  }
  return out;
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "f32[";
  for (size_t k = 0; k < dims.size(); ++k) s += (k ? "," : "") + std::to_string(dims[k]);
  return s + "]";
}

struct ConvPadding {
  std::string padding, window, merged;  // merged: XLA's window after the merge, "" = XLA keeps it
  float pad_value = 0;
};

// conv(pad(input), filter) with XLA's shapes (never interpreted: hlsgym leaves it).
std::string conv_of_padded_input(const ConvPadding& c) {
  const std::vector<int64_t> input = {1024, 128, 100, 100};
  const std::vector<int64_t> padded = padded_dims(input, c.padding);
  const std::vector<int64_t> filter = {padded[1], 256, 3, 3};
  const auto spatial = window_output({padded[2], padded[3]}, "size=3x3 " + c.window);
  const std::vector<int64_t> out = {padded[0], 256, spatial[0], spatial[1]};
  std::ostringstream s;
  s << "ENTRY test {\n input = " << shape_text(input) << " parameter(0)\n v = f32[] constant(" << c.pad_value
    << ")\n pad = " << shape_text(padded) << " pad(input, v), padding=" << c.padding << "\n filter = "
    << shape_text(filter) << " parameter(1)\n ROOT conv = " << shape_text(out)
    << " convolution(pad, filter), window={size=3x3 " << c.window << "}, dim_labels=bf01_io01->bf01\n}\n";
  return s.str();
}

// XLA folds a zero pad of the input's spatial dims into the window's padding and base
// dilation; hlsgym keeps the pad (listed): 0 * inf in the padded input is NaN where the
// window's padding skips the product.
TEST(AlgsimpXlaA5, ConvInputPaddingTest_DoTest) {
  expect_listed("ConvInputPaddingTest_DoTest");
  const std::vector<ConvPadding> cases = {
      {"0_0x0_0x1_1x2_2", "", "pad=1_1x2_2"},
      {"0_0x0_0x1_2x3_4", "pad=10_10x20_20", "pad=11_12x23_24"},
      {"0_0x0_0x1_2_3x4_5_6", "", "pad=1_2x4_5 lhs_dilate=4x7"},
      {"0_0x0_0x0_0_1x0_0_0", "lhs_dilate=1x10", "lhs_dilate=2x10"},
      {"0_0x0_0x0_1_1x0_0_0", "pad=0_0x3_0 lhs_dilate=1x10", "pad=0_1x3_0 lhs_dilate=2x10"},
      {"0_0x0_0x1_1x2_2", "", "", 1},
      {"0_0x0_0x0_0_1x0_0", "pad=1_0x0_0", ""},
      {"0_0x0_0x0_0_1x0_0", "pad=0_1x0_0", ""},
      {"0_0x0_0x0_0_1x0_0", "lhs_dilate=2x1", ""},
      {"0_0x0_0x1_0_0x0_0", "lhs_dilate=2x1", ""},
      {"0_0x0_0x0_1_0x0_0", "lhs_dilate=2x1", ""},
      {"0_0x0_0x0_0_1x0_0", "lhs_dilate=2x1", ""},
      {"1_0x0_0x0_0x0_0", "", ""},
      {"0_0x1_0x0_0x0_0", "", ""},
  };
  for (const ConvPadding& c : cases) {
    SCOPED_TRACE(c.padding + " " + c.window);
    simplify(conv_of_padded_input(c), false, false);
  }
}

// conv(input, pad(filter)) with XLA's shapes (never interpreted: hlsgym leaves it).
std::string conv_of_padded_filter(const ConvPadding& c) {
  const std::vector<int64_t> filter = {128, 256, 3, 3};
  const std::vector<int64_t> padded = padded_dims(filter, c.padding);
  const std::vector<int64_t> input = {1024, padded[0], 100, 100};
  const std::string window =
      "size=" + std::to_string(padded[2]) + "x" + std::to_string(padded[3]) + " " + c.window;
  const auto spatial = window_output({100, 100}, window);
  const std::vector<int64_t> out = {1024, padded[1], spatial[0], spatial[1]};
  std::ostringstream s;
  s << "ENTRY test {\n v = f32[] constant(" << c.pad_value << ")\n filter = " << shape_text(filter)
    << " parameter(1)\n pad = " << shape_text(padded) << " pad(filter, v), padding=" << c.padding
    << "\n input = " << shape_text(input) << " parameter(0)\n ROOT conv = " << shape_text(out)
    << " convolution(input, pad), window={" << window << "}, dim_labels=bf01_io01->bf01\n}\n";
  return s.str();
}

// XLA folds interior zero padding of the filter's spatial dims into the window's
// dilation; hlsgym keeps the pad (listed): 0 * inf in the input is NaN where a dilated
// window skips the product.
TEST(AlgsimpXlaA5, ConvFilterPaddingTest_DoIt) {
  expect_listed("ConvFilterPaddingTest_DoIt");
  const std::vector<ConvPadding> cases = {
      {"1_0_0x0_0_0x0_0x0_0", "", ""},        {"0_1_0x0_0_0x0_0x0_0", "", ""},
      {"0_0_1x0_0_0x0_0x0_0", "", ""},        {"0_0_0x1_0_0x0_0x0_0", "", ""},
      {"0_0_0x0_1_0x0_0x0_0", "", ""},        {"0_0_0x0_0_1x0_0x0_0", "", ""},
      {"0_0_0x0_0_0x1_0x0_0", "", ""},        {"0_0_0x0_0_0x0_1x0_0", "", ""},
      {"0_0_0x0_0_0x0_0x1_0", "", ""},        {"0_0_0x0_0_0x0_0x0_1", "", ""},
      {"0_0x0_0x0_0_5x0_0", "", "rhs_dilate=6x1"},
      {"0_0x0_0x0_0x0_0_10", "", "rhs_dilate=1x11"},
      {"0_0x0_0x0_0_10x0_0_100", "", "rhs_dilate=11x101"},
      {"0_0x0_0x0_0_1x0_0", "rhs_dilate=1x10", "rhs_dilate=2x10"},
      {"0_0x0_0x0_0x0_0_5", "rhs_dilate=10x1", "rhs_dilate=10x6"},
      {"0_0x0_0x0_0_1x0_0", "rhs_dilate=2x10", ""},
      {"0_0x0_0x0_0x0_0_5", "rhs_dilate=10x2", ""},
      {"0_0x0_0x0_0_5x0_0", "", "", 1},
  };
  for (const ConvPadding& c : cases) {
    SCOPED_TRACE(c.padding + " " + c.window);
    simplify(conv_of_padded_filter(c), false, false);
  }
}

// XLA rewrites a 1x1 convolution into bitcast(dot) only when layout-sensitive (the
// bitcasts need layouts); hlsgym runs layout-insensitive and keeps the convolution
// (listed). XLA's default case: NHWC input 10x2x2x3, HWIO filter 1x1x3x10.
TEST(AlgsimpXlaA5, ConvertConvToMatmul) {
  expect_listed_unchanged("ConvertConvToMatmul", R"(
ENTRY test {
  input = f32[10,2,2,3] parameter(0)
  filter = f32[1,1,3,10] parameter(1)
  ROOT conv = f32[10,2,2,10] convolution(input, filter), window={size=1x1}, dim_labels=b01f_01io->b01f
})");
}

}  // namespace
}  // namespace hlsgym::passes
