// The RTL does not grow with the tensors: the large kernels of designs/scale/ (64x64
// int16 matmul, 3x3 conv over a 64x64 int8 image with 2 in and 4 out channels, 256-tap
// FIR) emit at most 2,000 lines each and cosimulate exactly against the interpreter.
#include <fmt/core.h>

#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

std::vector<std::string> scale_designs() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() / "designs" / "scale"))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class Scale : public ::testing::TestWithParam<std::string> {};

TEST_P(Scale, SmallVerilogAndExactCosim) {
  const std::string name = GetParam();
  const frontend::Design d = frontend::load_design((source_dir() / "designs" / "scale" / (name + ".yaml")).string());
  const rtl::EmittedDesign e = rtl::emit(d.module, rtl_fpga());
  EXPECT_LE(e.inventory.lines, 2000) << name;
  rtl::SimOptions o;
  o.vectors = 1;
  const rtl::SimResult r = rtl::cosimulate(d.module, e, rtl_work_dir("scale_" + name), o);
  EXPECT_TRUE(r.passed()) << (r.first ? rtl::describe(*r.first) : "timeout");
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles) << name;
  fmt::print("{}: {} lines, {} cycles, verilator build {:.2f} s, run {:.3f} s\n", name, e.inventory.lines,
             r.measured_cycles, r.build_seconds, r.run_seconds);
}

INSTANTIATE_TEST_SUITE_P(Designs, Scale, ::testing::ValuesIn(scale_designs()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(Scale, EveryLargeKernelIsThere) {
  const auto names = scale_designs();
  for (const char* want : {"matmul_64x64", "conv3x3_64x64", "fir256"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

}  // namespace
}  // namespace hlsgym::testing
