// Value ranges and narrowed words (hwmodel/value_bits.h): the ranges hold every value the
// interpreter computes (random graphs, every design, random inputs over whole types), the
// storage decision narrows what it should and keeps a product's operands at type width,
// and the estimate prices the narrowed words.
#include "hwmodel/value_bits.h"

#include <gtest/gtest.h>

#include <random>

#include "frontend/load.h"
#include "ir/evaluate.h"
#include "ir/literal.h"
#include "ir/random_module.h"
#include "frontend/hlo_parser.h"
#include "passes/registry.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

TEST(ValueBits, RangeBits) {
  bool sign = true;
  EXPECT_EQ(range_bits({true, 0, 15}, &sign), 4);
  EXPECT_FALSE(sign);
  EXPECT_EQ(range_bits({true, 0, 0}, &sign), 1);
  EXPECT_EQ(range_bits({true, 0, 16}, &sign), 5);
  EXPECT_EQ(range_bits({true, -128, 127}, &sign), 8);
  EXPECT_TRUE(sign);
  EXPECT_EQ(range_bits({true, -256, 254}, &sign), 9);
  EXPECT_EQ(range_bits({true, -1, 0}, &sign), 1);
  EXPECT_EQ(range_bits({true, -129, 0}, &sign), 9);
}

constexpr const char* kSaturating = R"(design: sat
inputs: {a: "s8[8]", b: "s8[8]", m: "s32[8]"}
ops:
  - {name: a16, op: convert, args: [a], type: "s16[8]"}
  - {name: b16, op: convert, args: [b], type: "s16[8]"}
  - {name: s, op: add, args: [a16, b16]}
  - {name: lo, op: constant, value: -128, type: s16}
  - {name: hi, op: constant, value: 127, type: s16}
  - {name: c, op: clamp, args: [lo, s, hi]}
  - {name: y, op: convert, args: [c], type: "s8[8]"}
  - {name: f, op: constant, value: 15, type: s32}
  - {name: fs, op: broadcast, args: [f], type: "s32[8]"}
  - {name: k, op: and, args: [m, fs]}
  - {name: kc, op: copy, args: [k]}
  - {name: p, op: multiply, args: [kc, m]}
  - {name: q, op: add, args: [k, m]}
outputs: [y, p, q]
)";

TEST(ValueBits, RangesAndStoredWords) {
  const ir::Module m = load_yaml(kSaturating);
  const ValueBits v = analyze_value_bits(m);
  const ValueRange s = v.range[named(m, "s")], c = v.range[named(m, "c")], k = v.range[named(m, "k")];
  EXPECT_EQ(s.lo, -256);
  EXPECT_EQ(s.hi, 254);
  EXPECT_EQ(c.lo, -128);
  EXPECT_EQ(c.hi, 127);
  EXPECT_EQ(k.lo, 0);
  EXPECT_EQ(k.hi, 15);
  EXPECT_EQ(v.stored(named(m, "s")), 9);
  EXPECT_TRUE(v.sign(named(m, "s")));
  EXPECT_EQ(v.stored(named(m, "c")), 8);
  EXPECT_EQ(v.stored(named(m, "y")), 0);  // its type is already 8 bits
  EXPECT_EQ(v.stored(named(m, "a")), 0);  // inputs keep their type's words
  EXPECT_EQ(v.stored(named(m, "q")), 0);  // may wrap: the whole type
  // k reaches a multiplier through a copy: kept at type width (synthesis would narrow the
  // product), as is the copy
  EXPECT_EQ(v.stored(named(m, "kc")), 0);
  EXPECT_EQ(v.stored(named(m, "k")), 0);
}

// A gather's start indices do not reach its result: the ids masked to 0..15 narrow though
// the gathered rows are multiplied.
TEST(ValueBits, GatherStartIndicesNarrow) {
  const ir::Module m = frontend::load_design((source_dir() / "designs" / "indexing" / "embedding.hlo").string()).module;
  const ValueBits v = analyze_value_bits(m);
  EXPECT_EQ(v.stored(named(m, "ids")), 4);
  EXPECT_FALSE(v.sign(named(m, "ids")));
  EXPECT_EQ(v.stored(named(m, "rows")), 0);
}

TEST(ValueBits, EstimatePricesNarrowedWords) {
  const ir::Module m = load_yaml(kSaturating);
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(m, fpga_target(), o);
  const ir::InstrId c = named(m, "c");
  bool seen = false;
  for (const Task& k : e.details->graph.tasks) {
    if (k.instr != c) continue;
    seen = true;
    EXPECT_EQ(k.stored_bits, 8);
    EXPECT_EQ(k.value_bits, 8);
    EXPECT_TRUE(k.stored_sign);
  }
  EXPECT_TRUE(seen);
}

int64_t total_checked = 0;

// Every value the interpreter computes in the entry lies in the range claimed for it.
void check_ranges(const ir::Module& m, const std::vector<ir::Literal>& args, const std::string& what) {
  const ValueBits v = analyze_value_bits(m);
  ir::EvalOptions o;
  int64_t checked = 0;
  o.observer = [&](ir::CompId comp, ir::InstrId i, const ir::Literal& l) {
    // every computation: a loop fusion's body and a reduce's combiner are ranged too
    (void)comp;
    if (i >= v.range.size() || !v.range[i].known || l.shape().is_tuple()) return;
    const ValueRange r = v.range[i];
    for (int64_t k = 0; k < l.element_count(); ++k) {
      const int64_t x = l.get_int(k);
      ASSERT_TRUE(x >= r.lo && x <= r.hi) << what << ": " << m.name(i) << "[" << k << "] = " << x << " outside ["
                                          << r.lo << ", " << r.hi << "]";
      if (const int bits = v.stored(i)) {  // the narrowed word gives it back
        const uint64_t word = static_cast<uint64_t>(x) & ((uint64_t{1} << bits) - 1);
        const int64_t back = v.sign(i) && (word >> (bits - 1)) ? static_cast<int64_t>(word | ~((uint64_t{1} << bits) - 1))
                                                               : static_cast<int64_t>(word);
        ASSERT_EQ(back, x) << what << ": " << m.name(i);
      }
      ++checked;
    }
  };
  try {
    ir::evaluate(m, args, o);
  } catch (const ir::EvalBudgetExceeded&) {
    return;
  }
  total_checked += checked;
}

// Arguments whose integers take any value of their type (random_inputs keeps them small).
std::vector<ir::Literal> whole_type_inputs(const ir::Module& m, uint64_t seed) {
  std::vector<ir::Literal> args = ir::random_inputs(m, seed);
  std::mt19937_64 rng(seed);
  for (ir::Literal& a : args) {
    if (a.shape().is_tuple() || !ir::is_integral(a.shape().element_type())) continue;
    for (int64_t k = 0; k < a.element_count(); ++k) a.set_bits(k, rng() & (ir::bit_width(a.shape().element_type()) >= 64 ? ~uint64_t{0} : (uint64_t{1} << ir::bit_width(a.shape().element_type())) - 1));
  }
  return args;
}

TEST(ValueBits, RandomGraphValuesLieInTheirRanges) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    ir::RandomModuleOptions ro;
    ro.seed = seed;
    ro.floats = seed % 3 == 0;
    ir::Module m = ir::random_module(ro);
    check_ranges(m, ir::random_inputs(m, seed), "random graph " + std::to_string(seed));
    check_ranges(m, whole_type_inputs(m, seed), "random graph (whole-type inputs) " + std::to_string(seed));
    if (HasFatalFailure()) return;
    // after the fusion pass: values inside loop fusions' bodies, ranged from the call
    if (seed % 2 == 0 && passes::Registry::global().create("fusion")->run(m)) {
      check_ranges(m, ir::random_inputs(m, seed), "fused random graph " + std::to_string(seed));
      check_ranges(m, whole_type_inputs(m, seed), "fused random graph (whole-type inputs) " + std::to_string(seed));
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(total_checked, 50000);  // 77,844 elements today: the check is not vacuous
}

TEST(ValueBits, DesignValuesLieInTheirRanges) {
  std::vector<std::filesystem::path> files = all_designs();
  for (const char* folder : {"loops", "indexing"})
    for (const auto& f : std::filesystem::directory_iterator(source_dir() / "designs" / folder))
      if (f.path().extension() == ".hlo") files.push_back(f.path());
  for (const auto& f : files) {
    const ir::Module m = frontend::load_design(f.string()).module;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      check_ranges(m, ir::random_inputs(m, seed), f.filename().string());
      check_ranges(m, whole_type_inputs(m, seed), f.filename().string());
      if (HasFatalFailure()) return;
    }
  }
}

// A fixed-point quotient's shape (rtl/fixed_point.cc quotient): a clamped value widened to
// s64, shifted up, divided inside a loop fusion. The shift and the fusion's operands range
// the body's values, and the divider needs 25 bits (24 for -1024 << 13 = -2^23, one more so
// MIN / -1 cannot overflow), not 64; without the clamp, 32 + 13 + 1.
TEST(ValueBits, DividerWidthFromOperandRanges) {
  auto module = [](bool clamped) {
    return frontend::parse_hlo(std::string("HloModule q\nfused {\n  p0 = s32[8] parameter(0)\n  p1 = s64[8] parameter(1)\n"
                                           "  w = s64[8] convert(p0)\n  s = s64[] constant(13)\n  k = s64[8] broadcast(s), dimensions={}\n"
                                           "  n = s64[8] shift-left(w, k)\n  r = s64[8] remainder(n, p1)\n  q = s64[8] divide(n, p1)\n"
                                           "  ROOT t = s64[8] add(q, r)\n}\n"
                                           "ENTRY main {\n  x = s32[8] parameter(0)\n  lo = s32[8] constant({-1024, -1024, -1024, -1024, -1024, -1024, -1024, -1024})\n"
                                           "  hi = s32[8] constant({1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023})\n"
                                           "  c = s32[8] clamp(lo, x, hi)\n  d = s64[8] constant({1, 2, 3, 100, -7, 0, -1, 9})\n") +
                               "  ROOT f = s64[8] fusion(" + (clamped ? "c" : "x") + ", d), kind=kLoop, calls=fused\n}\n", "q.hlo");
  };
  auto by_name = [](const ir::Module& m, const std::string& name) {
    for (ir::InstrId i = 0; i < m.instruction_slots(); ++i)
      if (m.is_live(i) && m.name(i) == name) return i;
    ADD_FAILURE() << "no " << name;
    return ir::InstrId{0};
  };
  const ir::Module m = module(true);
  const ValueBits v = analyze_value_bits(m);
  const ValueRange n = v.range[by_name(m, "n")];
  EXPECT_TRUE(n.known);
  EXPECT_EQ(n.lo, -(int64_t{1} << 23));
  EXPECT_EQ(n.hi, int64_t{1023} << 13);
  EXPECT_EQ(divider_bits(m, by_name(m, "q"), v), 25);
  EXPECT_EQ(divider_bits(m, by_name(m, "r"), v), 25);
  EXPECT_EQ(v.stored(by_name(m, "f")), 0);  // the storage decision is unchanged: s64 words stay
  const ir::Module wide = module(false);
  EXPECT_EQ(divider_bits(wide, by_name(wide, "q"), analyze_value_bits(wide)), 46);
  check_ranges(m, whole_type_inputs(m, 3), "quotient");
}

}  // namespace
}  // namespace hlsgym::testing
