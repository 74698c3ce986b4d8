// Bad input gets one clear message: float types without units (naming --fixed), ops outside the
// emitter's set (naming the op and the design line), CPU targets, missing tools (naming
// the Debian package), Verilator build failures (log path and first error). And the
// cosimulation is not vacuous: a wrong operator or a task issued before its operands
// are written is caught.
#include <cstdlib>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "rtl/yosys.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

// f32, f16 and bf16 have IEEE-754 units (float_designs_test.cc); other float types need
// --fixed.
TEST(Refusal, FloatTypeWithoutUnitsNamesFixed) {
  const frontend::Design d = frontend::load_yaml_design(R"(design: wide
inputs:
  x: f64[4]
ops:
  - {name: y, op: multiply, args: [x, x]}
outputs: [y]
)",
                                                        "wide.yaml");
  const std::string msg = error_of([&] { rtl::emit(d.module, rtl_fpga()); });
  EXPECT_NE(msg.find("f64"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--fixed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("wide.yaml:3"), std::string::npos) << msg;
}

TEST(Refusal, UnsupportedOpNamesOpAndLine) {
  const frontend::Design d = frontend::load_yaml_design(R"(design: pow
inputs:
  a: s32[4]
  b: s32[4]
ops:
  - {name: s, op: add, args: [a, b]}
  - {name: p, op: power, args: [s, b]}
outputs: [p]
)",
                                                        "pow.yaml");
  const std::string msg = error_of([&] { rtl::emit(d.module, rtl_fpga()); });
  EXPECT_NE(msg.find("pow.yaml:7"), std::string::npos) << msg;
  EXPECT_NE(msg.find("power"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
}

// Loops and conditionals reach the RTL (while_test.cc); an unsupported op inside a loop
// body is refused by name and line like one in the entry.
TEST(Refusal, UnsupportedOpInsideALoopBody) {
  const ir::Module m = frontend::parse_hlo(R"(HloModule sort_loop
cond {
  s = (s32[], s32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(2)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = s32[4] get-tuple-element(s), index=1
  x = s32[1] constant({7})
  u = s32[4] sort(v), dimensions={0}, to_apply=lt
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  ROOT t = (s32[], s32[4]) tuple(i1, u)
}
lt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
ENTRY main {
  v = s32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], s32[4]) tuple(z, v)
  w = (s32[], s32[4]) while(init), condition=cond, body=body
  ROOT r = s32[4] get-tuple-element(w), index=1
}
)", "sort_loop.hlo");
  const std::string msg = error_of([&] { rtl::emit(m, rtl_fpga()); });
  EXPECT_NE(msg.find("op sort"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sort_loop.hlo:13"), std::string::npos) << msg;
}

// A scatter is refused with the way through: scatter_expander makes it a counted loop the
// emitter builds, which then cosimulates exactly (a histogram: repeated indices, and
// out-of-range ones that XLA skips).
TEST(Refusal, ScatterNamesTheExpanderThatBuildsIt) {
  ir::Module m = frontend::parse_hlo(R"(HloModule histogram
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY main {
  hist = s32[8] parameter(0)
  raw = s32[6,1] parameter(1)
  nine = s32[] constant(9)
  nines = s32[6,1] broadcast(nine), dimensions={}
  idx = s32[6,1] and(raw, nines)
  upd = s32[6] parameter(2)
  ROOT r = s32[8] scatter(hist, idx, upd), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}
)", "histogram.hlo");
  const std::string msg = error_of([&] { rtl::emit(m, rtl_fpga()); });
  EXPECT_NE(msg.find("op scatter"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--order scatter_expander"), std::string::npos) << msg;
  const passes::PassInfo* expander = passes::Registry::global().find("scatter_expander");
  ASSERT_NE(expander, nullptr);
  ASSERT_TRUE(expander->make()->run(m));
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
  rtl::SimOptions o;
  o.vectors = 8;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("scatter_expanded"), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_TRUE(r.passed()) << r.measured_cycles << " measured, " << r.estimated_cycles << " estimated";
}

TEST(Refusal, CpuTarget) {
  const hwmodel::Target cpu = hwmodel::load_target("cpu", {source_dir() / "designs" / "targets"});
  const std::string msg = error_of([&] { rtl::emit(rtl_design("fir8").module, cpu); });
  EXPECT_NE(msg.find("FPGA"), std::string::npos) << msg;
}

TEST(Refusal, MissingToolNamesDebianPackage) {
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  const std::string verilator = error_of([] { rtl::require_tool("verilator", "verilator"); });
  const std::string yosys = error_of([] { rtl::require_tool("yosys", "yosys"); });
  setenv("PATH", path.c_str(), 1);
  EXPECT_NE(verilator.find("Debian package 'verilator'"), std::string::npos) << verilator;
  EXPECT_NE(yosys.find("Debian package 'yosys'"), std::string::npos) << yosys;
}

TEST(Refusal, BuildFailureGivesLogAndFirstError) {
  rtl::EmittedDesign e = rtl::emit(rtl_design("dot_product").module, rtl_fpga());
  e.verilog += "this is not verilog\n";
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("build_failure"));
  const std::string msg = error_of([&] { rtl::build_model(e, f, false); });
  EXPECT_NE(msg.find("verilator_build.log"), std::string::npos) << msg;
  EXPECT_NE(msg.find("first error: %Error"), std::string::npos) << msg;
}

TEST(Refusal, YosysFailureGivesFirstError) {
  rtl::EmittedDesign e = rtl::emit(rtl_design("dot_product").module, rtl_fpga());
  e.verilog += "this is not verilog\n";
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("yosys_failure"));
  const std::string msg = error_of([&] { rtl::synthesize(e, f, false); });
  EXPECT_NE(msg.find("first error: "), std::string::npos) << msg;
  EXPECT_EQ(msg.find("(no error line found)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("yosys_word.log"), std::string::npos) << msg;
}

// A build that outlives --timeout is stopped and says so; progress reports reach the caller.
TEST(Refusal, BuildTimeoutStopsTheBuild) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("matvec").module, rtl_fpga());
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("build_timeout"));
  const std::string msg = error_of([&] { rtl::build_model(e, f, false, 0.05); });
  EXPECT_NE(msg.find("did not finish within --timeout 0.05 s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("verilator_build.log"), std::string::npos) << msg;
}

// dot_product with its accumulator adding the wrong way: every output differs.
TEST(CosimCatches, AWrongOperator) {
  const frontend::Design d = rtl_design("dot_product");
  rtl::EmittedDesign e = rtl::emit(d.module, rtl_fpga());
  const size_t at = e.verilog.find("u0_q0_acc + u0_q0_p");
  ASSERT_NE(at, std::string::npos);
  e.verilog.replace(at, 19, "u0_q0_acc ^ u0_q0_p");
  rtl::SimOptions o;
  o.vectors = 4;
  const rtl::SimResult r = rtl::cosimulate(d.module, e, rtl_work_dir("wrong_operator"), o);
  ASSERT_TRUE(r.first.has_value());
  EXPECT_GT(r.mismatches, 0);
  EXPECT_FALSE(r.passed());
  const std::string what = rtl::describe(*r.first);
  EXPECT_NE(what.find("out_y"), std::string::npos) << what;
  EXPECT_NE(what.find("expected"), std::string::npos) << what;
  EXPECT_NE(what.find("got"), std::string::npos) << what;
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);  // the schedule itself is intact
}

// fir8's reduction issued at cycle 2 instead of 11, while the multiplier still streams
// its products: it reads elements that are not written yet (stale or random values).
TEST(CosimCatches, ATaskIssuedBeforeItsOperandsAreWritten) {
  const frontend::Design d = rtl_design("fir8");
  rtl::EmittedDesign e = rtl::emit(d.module, rtl_fpga());
  auto swap = [&](const std::string& from, const std::string& to) {
    const size_t at = e.verilog.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    e.verilog.replace(at, from.size(), to);
  };
  swap("cyc >= 5'd11 && cyc < 5'd19", "cyc >= 5'd2 && cyc < 5'd10");  // the reduce's window [11, 19)
  swap("(running && cyc == 5'd10)) begin", "(running && cyc == 5'd1)) begin");  // its loop counters' restart
  rtl::SimOptions o;
  o.vectors = 8;
  const rtl::SimResult r = rtl::cosimulate(d.module, e, rtl_work_dir("early_task"), o);
  EXPECT_GT(r.mismatches, 0);
}

}  // namespace
}  // namespace hlsgym::testing
