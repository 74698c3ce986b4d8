// A design whose buffers exceed the target's memory does not fit, on the FPGA (whose
// report checked only DSP/LUT/FF/BRAM and said "fits" with 13 TB of buffers on a 512 MB
// part) as on the CPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "hwmodel/estimate.h"
#include "ir/error.h"
#include "tests/hwmodel/hwmodel_test_util.h"
#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {

// 2^20 x 2^14 f32 in and out: 64 GiB each, over the FPGA target's 512 MB and the CPU's 16 GiB of DRAM.
const char* kHuge =
    "design: huge\ninputs:\n  x: f32[1048576,16384]\nops:\n  - {name: y, op: negate, args: [x]}\noutputs: [y]\n";

TEST(MemoryCapacity, FpgaDesignBiggerThanDramDoesNotFit) {
  const ir::Module m = load_yaml(kHuge);
  for (const hwmodel::Target* t : {&fpga_target(), &cpu_target()}) {
    SCOPED_TRACE(t->name);
    try {
      hwmodel::estimate(m, *t);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("does not fit target " + t->name + ": needs"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bytes of memory, the target has " + std::to_string(t->dram().capacity_bytes)),
                std::string::npos)
          << e.what();
    }
    hwmodel::EstimateOptions o;
    o.lenient = true;
    const hwmodel::Estimate e = hwmodel::estimate(m, *t, o);
    EXPECT_FALSE(e.fits);
    EXPECT_GT(e.memory_bytes, t->dram().capacity_bytes);
  }
}

TEST(MemoryCapacity, ShippedDesignsStillFit) {
  for (const char* name : {"fir8", "softmax", "attention_head", "conv2d"}) {
    const hwmodel::Estimate e = hwmodel::estimate(load_named_design(name), fpga_target());
    EXPECT_TRUE(e.fits) << name << ": " << e.fit_problem;
  }
}

TEST(MemoryCapacity, ReportSaysSo) {
  const std::filesystem::path p = hlsgym::testing::scratch("hlsgym_memory_capacity_huge.yaml");
  std::ofstream(p) << kHuge;
  const CliResult r = run_cli("report " + p.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("does not fit target fpga: needs"), std::string::npos) << r.err;
  const CliResult lenient = run_cli("report --lenient " + p.string());
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_NE(lenient.out.find("does not fit: needs"), std::string::npos) << lenient.out;
  std::filesystem::remove(p);
}

}  // namespace
}  // namespace hlsgym::testing
