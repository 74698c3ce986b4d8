// Float designs through the RTL emitter's IEEE-754 units (rtl/verilog_float.cc), in f32,
// bf16 and f16: Verilator against ir::evaluate in the hardware's accumulation order
// (AccumulationOrder::kHardware: sequential per lane, then the adder tree), bit for bit,
// and the cycles from start to done equal to the estimate, which reads the units'
// latencies from the target's float_units table; transcendentals (exp, log, tanh,
// logistic, rsqrt, erf, log1p, expm1, sine, cosine, power) compared with the interpreter's
// unit mode (TranscendentalEval::kUnit, the units' own algorithms; atan2 too). Ops without a
// unit (tan, cbrt, ...) are refused naming the op, its type and its design line.
#include <fmt/core.h>

#include <fstream>
#include <sstream>

#include "frontend/yaml_design.h"
#include "hwmodel/float_unit_key.h"
#include "ir/error.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

// A design file with every f32 made `type` (same lines, so refusals name the same line).
ir::Module retyped(const std::filesystem::path& file, const std::string& type) {
  return frontend::load_yaml_design(replace_all(read_file(file), "f32", type), file.string()).module;
}

void expect_cosim(const ir::Module& m, const std::string& name, int64_t lanes = 0, int vectors = 8) {
  rtl::EmitOptions o;
  if (lanes > 0) o.estimate.lanes = lanes;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
  EXPECT_TRUE(e.floating);
  EXPECT_GT(e.inventory.float_units, 0);
  rtl::SimOptions so;
  so.vectors = vectors;
  so.seed = 5;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("float_" + name), so);
  EXPECT_EQ(r.mismatches, 0) << name << ": " << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_EQ(r.timeouts, 0) << name;
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles) << name;
  EXPECT_TRUE(r.passed()) << name;
  EXPECT_EQ(r.restart_interval, r.estimated_cycles + 1) << name;
  fmt::print("{}: estimated {} cycles, measured {}; {} float units\n", name, r.estimated_cycles, r.measured_cycles,
             e.inventory.float_units);
}

// designs/float/*.yaml and mlp_layer, as written (f32, or bf16 for the elementwise zoo).
class FloatDesign : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatDesign, MatchesHardwareOrderReferenceAndEstimate) {
  const std::filesystem::path file = source_dir() / "designs" / (GetParam() + ".yaml");
  const ir::Module m = frontend::load_design(file.string()).module;
  expect_cosim(m, replace_all(GetParam(), "/", "_"));
}

INSTANTIATE_TEST_SUITE_P(Designs, FloatDesign,
                         ::testing::Values("float/saxpy", "float/elementwise_bf16", "float/row_sum_max",
                                           "float/conv_pool_f32", "float/rotate_sincos", "float/softplus_elu",
                                           "float/gamma_pow", "float/relu6_clamp", "float/wrap_reduce", "float/polar_atan2", "mlp_layer",
                                           "softmax", "layernorm",
                                           "attention_head", "black_scholes", "gelu"),
                         [](const auto& info) { return replace_all(info.param, "/", "_"); });

// The same designs retargeted to bf16 and f16 (every f32 in the file replaced).
class RetypedDesign : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(RetypedDesign, MatchesHardwareOrderReferenceAndEstimate) {
  const auto& [design, type] = GetParam();
  const ir::Module m = retyped(source_dir() / "designs" / (design + ".yaml"), type);
  expect_cosim(m, replace_all(design, "/", "_") + "_" + type);
}

INSTANTIATE_TEST_SUITE_P(Designs, RetypedDesign,
                         ::testing::Combine(::testing::Values("mlp_layer", "float/saxpy", "float/row_sum_max",
                                                              "float/conv_pool_f32", "float/rotate_sincos",
                                                              "float/softplus_elu", "float/gamma_pow", "float/relu6_clamp", "float/wrap_reduce",
                                                              "float/polar_atan2", "softmax",
                                                              "layernorm",
                                                              "attention_head", "black_scholes", "gelu"),
                                            ::testing::Values("bf16", "f16")),
                         [](const auto& info) {
                           return replace_all(std::get<0>(info.param), "/", "_") + "_" + std::get<1>(info.param);
                         });

// Lanes: a dot's outputs spread over lanes, and a reduction split over more lanes than
// outputs, its chunks joined by a tree of float adders (maximum units for the max).
TEST(FloatLanes, SplitReductionsJoinInTheHardwareOrder) {
  const ir::Module rows = frontend::load_design((source_dir() / "designs" / "float" / "row_sum_max.yaml").string()).module;
  expect_cosim(rows, "row_sum_max_lanes8", 8);
  expect_cosim(rows, "row_sum_max_lanes3", 3);
  const ir::Module mlp = rtl_design("mlp_layer").module;
  expect_cosim(mlp, "mlp_layer_lanes4", 4, 4);
}

TEST(FloatLanes, DotSplitOverLanesInF16) {
  const ir::Module dot = frontend::load_yaml_design(R"(design: dot16
inputs:
  a: f16[24]
  b: f16[24]
ops:
  - {name: d, op: dot, args: [a, b], lhs_contracting_dims: [0], rhs_contracting_dims: [0]}
outputs: [d]
)", "dot16.yaml").module;
  expect_cosim(dot, "dot16_lanes4", 4);  // 4 chunks of 6 products, then a tree of 2 levels
  expect_cosim(dot, "dot16_lanes5", 5);  // 5 chunks of 5 (the last of 4), an odd chunk passing a level
}

// Tasks the binding put on one unit instance share its float units (add and subtract the
// same adder): as many IEEE-754 instances as the binding has fp_add and fp_mul instances.
TEST(FloatSharing, TasksOnOneInstanceShareItsUnits) {
  const ir::Module m = frontend::load_yaml_design(R"(design: chain
inputs:
  a: f32[6]
  b: f32[6]
  c: f32[6]
ops:
  - {name: s1, op: add, args: [a, b]}
  - {name: s2, op: subtract, args: [s1, c]}
  - {name: s3, op: add, args: [s2, a]}
  - {name: s4, op: subtract, args: [s3, b]}
  - {name: m1, op: multiply, args: [s4, a]}
  - {name: m2, op: multiply, args: [m1, s2]}
  - {name: m3, op: multiply, args: [m2, s3]}
outputs: [m3, s4]
)", "chain.yaml").module;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
  int instances = 0;
  for (const hwmodel::UnitInstance& u : e.estimate.details->binding.units)
    instances += u.unit == static_cast<uint8_t>(hwmodel::UnitClass::kFpAdd) ||
                 u.unit == static_cast<uint8_t>(hwmodel::UnitClass::kFpMul);
  EXPECT_LE(e.inventory.float_units, instances);
  EXPECT_LT(e.inventory.float_units, 7);  // seven float ops
  expect_cosim(m, "chain");
}

// Two padded f32 pools and two fused bodies on one adder instance (--units fp_add=1):
// each task delays the lane's padding flag and the shared units' results on its own.
TEST(FloatSharing, TasksOnOneLaneDelayTheirOwnSignals) {
  ir::Module m = frontend::load_yaml_design(R"(design: pools
inputs:
  x: f32[6,6]
  y: f32[6,6]
ops:
  - {name: zero, op: constant, value: 0, type: f32}
  - {name: p, op: reduce-window, args: [x, zero], window: "{size=3x3 stride=2x2 pad=1_1x1_1}", to_apply: add}
  - {name: q, op: reduce-window, args: [y, zero], window: "{size=2x3 stride=1x2 pad=1_0x0_1}", to_apply: add}
  - {name: xy, op: multiply, args: [x, y]}
  - {name: s, op: add, args: [xy, x]}
  - {name: t, op: subtract, args: [s, y]}
  - {name: yy, op: multiply, args: [y, y]}
  - {name: u, op: add, args: [yy, x]}
  - {name: v, op: maximum, args: [u, y]}
outputs: [p, q, t, v]
)", "pools.yaml").module;
  passes::Registry::global().find("fusion")->make()->run(m);
  ir::verify(m);
  rtl::EmitOptions o;
  o.estimate.unit_limits = {{"fp_add", 1}};
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
  rtl::SimOptions so;
  so.vectors = 8;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("float_pools_one_adder"), so);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_TRUE(r.passed()) << "measured " << r.measured_cycles << ", estimated " << r.estimated_cycles;
}

// Fused loop bodies: the elementwise chains of each design as one pipeline of units.
TEST(FloatFusion, FusedBodiesRunAsOnePipeline) {
  for (const std::string name : {"float/elementwise_bf16", "float/saxpy", "mlp_layer"}) {
    ir::Module m = frontend::load_design((source_dir() / "designs" / (name + ".yaml")).string()).module;
    passes::Registry::global().find("fusion")->make()->run(m);
    ir::verify(m);
    bool fused = false;
    for (ir::InstrId i : m.instructions(m.entry())) fused |= m.opcode(i) == ir::Opcode::kFusion;
    EXPECT_TRUE(fused) << name;
    expect_cosim(m, replace_all(name, "/", "_") + "_fused");
  }
}

// The estimate's depth of a float op is the unit's latency in the target's table, the one
// the RTL instantiates: a convert f32 -> f16 of 8 elements takes read + fcvt + 7 cycles.
TEST(FloatEstimate, ReadsTheUnitLatencyAndAreaOfTheTable) {
  const ir::Module m = frontend::load_yaml_design(R"(design: cvt
inputs:
  x: f32[8]
ops:
  - {name: h, op: convert, args: [x], type: "f16[8]"}
outputs: [h]
)", "cvt.yaml").module;
  const hwmodel::FloatUnitCost* cost = rtl_fpga().float_unit("fcvt_to_f16", ir::ElementType::kF32);
  ASSERT_NE(cost, nullptr);
  hwmodel::EstimateOptions o;
  o.keep_details = true;
  const hwmodel::Estimate e = hwmodel::estimate(m, rtl_fpga(), o);
  EXPECT_EQ(e.cycles, 1 + cost->latency + 8 - 1);
  const rtl::EmittedDesign d = rtl::emit(m, rtl_fpga());
  EXPECT_EQ(d.estimated_cycles, e.cycles);
  EXPECT_NE(d.verilog.find("hg_fcvt_f32_f16_chain"), std::string::npos);
  // one lane of the convert's unit: the table's Yosys count, its FF less the result's 16
  // bits (rtl instantiates the `_chain` form, which has no result register: Yosys 25 FF,
  // hwmodel/README.md)
  const auto& tasks = e.details->graph.tasks;
  bool found = false;
  for (const hwmodel::Task& k : tasks)
    if (k.instr != ir::kNoId && m.opcode(k.instr) == ir::Opcode::kConvert) {
      found = true;
      EXPECT_DOUBLE_EQ(k.area.lut, cost->lut);
      EXPECT_DOUBLE_EQ(k.area.ff, cost->ff - 16);
      EXPECT_DOUBLE_EQ(k.area.ff, 25);
      EXPECT_DOUBLE_EQ(k.area.dsp, cost->dsp);
    }
  EXPECT_TRUE(found);
}

// A divide and a square root on one fp_div instance cost both units; two divides one
// (rtl builds one unit per distinct kind on an instance and shares it).
TEST(FloatEstimate, AnInstanceCostsEachDistinctUnitOnce) {
  auto fp_div_area = [](const std::string& second) {
    const ir::Module m = frontend::load_yaml_design(fmt::format(R"(design: dv
inputs:
  a: bf16[8]
  b: bf16[8]
ops:
  - {{name: d, op: divide, args: [a, b]}}
  - {{name: e, op: {}}}
outputs: [d, e]
)", second), "dv.yaml").module;
    hwmodel::EstimateOptions o;
    o.keep_details = true;
    o.unit_limits = {{"fp_div", 1}};
    const hwmodel::Estimate e = hwmodel::estimate(m, rtl_fpga(), o);
    double lut = 0;
    for (const hwmodel::UnitInstance& u : e.details->binding.units)
      if (u.unit == static_cast<uint8_t>(hwmodel::UnitClass::kFpDiv)) lut += u.area.lut;
    return lut;
  };
  const auto fdiv = rtl_fpga().float_unit("fdiv", ir::ElementType::kBF16), fsqrt = rtl_fpga().float_unit("fsqrt", ir::ElementType::kBF16);
  ASSERT_TRUE(fdiv && fsqrt);
  EXPECT_DOUBLE_EQ(fp_div_area("sqrt, args: [a]"), fdiv->lut + fsqrt->lut);
  EXPECT_DOUBLE_EQ(fp_div_area("divide, args: [b, a]"), fdiv->lut);
}

// floor, ceil and the two round-to-nearest units (exact: the interpreter's libm results),
// on values whose fractions they cut, in the three formats.
TEST(FloatRounding, UnitsMatchTheInterpreter) {
  for (const std::string type : {"f32", "bf16", "f16"}) {
    const ir::Module m = frontend::load_yaml_design(replace_all(R"(design: rounding
inputs:
  x: {type: "T[16]", range: [-40, 40]}
ops:
  - {name: a, op: floor, args: [x]}
  - {name: b, op: ceil, args: [x]}
  - {name: c, op: round-nearest-even, args: [x]}
  - {name: d, op: round-nearest-afz, args: [x]}
  - {name: s, op: add, args: [a, b]}
  - {name: t, op: subtract, args: [c, d]}
outputs: [s, t]
)", "T", type), "rounding.yaml").module;
    expect_cosim(m, "rounding_" + type);
  }
}

// GELU's x^3 is the integer power unit (fpowi3), also after fusion, where the fused
// body's power reads a parameter the fusion binds to the constant 3; x^2.5 takes the
// general power unit (fpow). An op without a unit (gelu's tanh made tan) is refused: the
// message names the op, its type and its line.
TEST(FloatPower, ConstantIntegerExponentTakesFpowiEvenFusedOthersFpow) {
  const std::string gelu = read_file(source_dir() / "designs" / "gelu.yaml");
  for (const bool fused : {false, true}) {
    ir::Module m = frontend::load_yaml_design(gelu, "gelu.yaml").module;
    if (fused) passes::Registry::global().find("fusion")->make()->run(m);
    ir::verify(m);
    bool has_fusion = false;
    for (ir::InstrId i : m.instructions(m.entry())) has_fusion |= m.opcode(i) == ir::Opcode::kFusion;
    EXPECT_EQ(has_fusion, fused);
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
    EXPECT_NE(e.verilog.find("hg_fpowi3_f32"), std::string::npos) << fused;
    EXPECT_EQ(e.verilog.find("hg_fpow_f32"), std::string::npos) << fused;
    expect_cosim(m, fused ? "gelu_fused" : "gelu_unfused");
  }
  const std::string fractional = replace_all(gelu, "value: 3,", "value: 2.5,");
  ASSERT_NE(fractional, gelu);
  for (const bool fused : {false, true}) {
    ir::Module m = frontend::load_yaml_design(fractional, "gelu.yaml").module;
    if (fused) passes::Registry::global().find("fusion")->make()->run(m);
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
    EXPECT_NE(e.verilog.find("hg_fpow_f32"), std::string::npos) << fused;
    expect_cosim(m, fused ? "gelu_x2_5_fused" : "gelu_x2_5");
  }
}

TEST(FloatRefusal, OpWithoutUnitNamesOpTypeAndLine) {
  const std::string gelu = read_file(source_dir() / "designs" / "gelu.yaml");
  const std::string tan = replace_all(gelu, "op: tanh,", "op: tan,");
  ASSERT_NE(tan, gelu);
  for (const std::string type : {"f32", "bf16"}) {
    const ir::Module m = frontend::load_yaml_design(replace_all(tan, "f32", type), "gelu.yaml").module;
    const std::string msg = error_of([&] { rtl::emit(m, rtl_fpga()); });
    EXPECT_NE(msg.find("tan"), std::string::npos) << msg;
    EXPECT_NE(msg.find(" on " + type), std::string::npos) << msg;
    EXPECT_NE(msg.find("gelu.yaml:15"), std::string::npos) << msg;  // the t line
  }
}

TEST(FloatRefusal, OpsAndTypesWithoutUnits) {
  auto refuse = [](const std::string& yaml) {
    return error_of([&] { rtl::emit(frontend::load_yaml_design(yaml, "bad.yaml").module, rtl_fpga()); });
  };
  const std::string f64 = refuse("design: d\ninputs:\n  x: f64[4]\nops:\n  - {name: y, op: add, args: [x, x]}\noutputs: [y]\n");
  EXPECT_NE(f64.find("f64"), std::string::npos) << f64;
  EXPECT_NE(f64.find("--fixed"), std::string::npos) << f64;
  EXPECT_NE(f64.find("bad.yaml:3"), std::string::npos) << f64;  // the parameter, the first f64 value
  const std::string cbrt = refuse("design: d\ninputs:\n  x: f32[4]\nops:\n  - {name: y, op: cbrt, args: [x]}\noutputs: [y]\n");
  EXPECT_NE(cbrt.find("cbrt"), std::string::npos) << cbrt;
  EXPECT_NE(cbrt.find("f32"), std::string::npos) << cbrt;
  EXPECT_NE(cbrt.find("bad.yaml:5"), std::string::npos) << cbrt;
  const std::string rem = refuse(
      "design: d\ninputs:\n  x: bf16[4]\n  l: bf16[4]\nops:\n  - {name: y, op: sign, args: [x]}\noutputs: [y]\n");
  EXPECT_NE(rem.find("no IEEE-754 unit"), std::string::npos) << rem;
  EXPECT_NE(rem.find("bf16"), std::string::npos) << rem;
  EXPECT_NE(rem.find("bad.yaml:6"), std::string::npos) << rem;
  const std::string mixed = refuse(
      "design: d\ninputs:\n  a: bf16[8]\n  b: bf16[8]\nops:\n  - {name: y, op: dot, args: [a, b], lhs_contracting_dims: [0], "
      "rhs_contracting_dims: [0], type: f32}\noutputs: [y]\n");
  EXPECT_NE(mixed.find("bf16 x bf16 operands into f32"), std::string::npos) << mixed;
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

// Random float graphs (f32 with f16/bf16 and integer converts; no control flow) after
// random pass orders: each one the emitter builds cosimulates bit for bit against the
// hardware-order reference with measured == estimated cycles; the others are refused by
// an op without a unit (transcendentals, floor, clamp, ...), never by a crash.
TEST(FloatRandomGraphs, EmittedOnesMatchTheHardwareOrderReference) {
  int emitted = 0, refused = 0;
  for (uint64_t seed = 1; seed <= 60 && emitted < 8; ++seed) {
    ir::RandomModuleOptions o = small_rtl_graph_options(seed, 8 + static_cast<int>(seed % 8), true, false);
    o.integers = seed % 3 == 0;
    ir::Module m = ir::random_module(o);
    m.set_name(fmt::format("rfloat_{}", seed));
    if (seed % 2 == 0) passes::Registry::global().find("fusion")->make()->run(m);
    ir::verify(m);
    rtl::EmittedDesign e;
    try {
      e = rtl::emit(m, rtl_fpga());
    } catch (const Error& err) {
      const std::string msg = err.what();
      EXPECT_NE(msg.find("rtl: op "), std::string::npos) << "seed " << seed << ": " << msg;
      ++refused;
      continue;
    }
    rtl::SimOptions so;
    so.vectors = 4;
    so.seed = seed;
    const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir(fmt::format("float_random_{}", seed)), so);
    EXPECT_EQ(r.mismatches, 0) << "seed " << seed << ": " << (r.first ? rtl::describe(*r.first) : "");
    EXPECT_TRUE(r.passed()) << "seed " << seed << ": measured " << r.measured_cycles << ", estimated "
                            << r.estimated_cycles;
    ++emitted;
  }
  fmt::print("random float graphs: {} emitted and cosimulated, {} refused\n", emitted, refused);
  EXPECT_GE(emitted, 8);
}

}  // namespace
}  // namespace hlsgym::testing
