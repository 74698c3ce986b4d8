// The HLS pass family: tree-height-reduction, strength-reduction, bitwidth-narrowing and
// fusion. Golden rewrites on hand-written HLO, no-change runs that leave the text
// identical, properties on the HLS designs (the passes fire where expected and the
// interpreter agrees on 20 input sets), and every pass on the real HLO files.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <random>
#include <set>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/hls_range.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

const char* const kHlsPasses[] = {"tree-height-reduction", "strength-reduction", "bitwidth-narrowing",
                                  "fusion", "loop-unroll-by-2"};

ir::Module parse(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule t\n\n" + body, "p.hlo");
  ir::verify(m);
  return m;
}

// Runs `pass`, checks the verifier, and returns whether it changed the module.
bool apply(const std::string& pass, ir::Module& m) {
  const bool changed = Registry::global().create(pass)->run(m);
  auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << pass << ": " << issues.front().message << "\n" << ir::print_module(m);
  return changed;
}

// Random arguments whose integer elements take any bit pattern of their type (the
// extremes included), unlike ir::random_inputs' small integers.
std::vector<ir::Literal> full_range_inputs(const ir::Module& m, uint64_t seed) {
  std::vector<ir::Literal> args = ir::random_inputs(m, seed);
  std::mt19937_64 rng(seed * 7919 + 1);
  for (ir::Literal& a : args) {
    if (a.is_tuple() || !ir::is_integral(a.shape().element_type())) continue;
    for (int64_t k = 0; k < a.element_count(); ++k) {
      const uint64_t r = rng();
      // A quarter of the elements are extremes (all ones, sign bit, zero, one).
      const uint64_t special[] = {~uint64_t{0}, uint64_t{1} << (ir::bit_width(a.shape().element_type()) - 1), 0, 1,
                                  ~uint64_t{0} >> 1};
      a.set_bits(k, (r & 3) == 0 ? special[(r >> 2) % 5] : r >> 3);
    }
  }
  return args;
}

// The interpreter gives the same outputs before and after, on `seeds` input sets of
// each kind (ir::random_inputs and full-range integers).
void expect_same_outputs(const ir::Module& before, const ir::Module& after, int seeds = 4) {
  EquivalenceOptions o;
  o.input_sets = seeds;
  const EquivalenceResult r = check_equivalence(before, after, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail << "\nbefore:\n"
                                            << ir::print_module(before) << "\nafter:\n" << ir::print_module(after);
  for (int s = 0; s < seeds; ++s) {
    const auto args = full_range_inputs(before, static_cast<uint64_t>(s) + 100);
    EXPECT_EQ(ir::evaluate(before, args).value, ir::evaluate(after, args).value)
        << "full-range inputs, seed " << s << "\nafter:\n" << ir::print_module(after);
  }
}

// Longest path from a leaf to the root of the entry, counted in instructions.
int depth(const ir::Module& m) {
  std::vector<int> d(m.instruction_slots(), 0);
  const ir::CompId e = m.entry();
  for (InstrId i : m.post_order(e)) {
    int best = -1;
    for (InstrId o : m.operands(i)) best = std::max(best, d[o]);
    d[i] = best + 1;
  }
  return d[m.computation(e).root];
}

int count(const ir::Module& m, Opcode op) {
  int n = 0;
  for (ir::CompId c : m.live_computations())
    for (InstrId i : m.instructions(c)) n += m.opcode(i) == op;
  return n;
}

// A left-deep chain r = (((p0 op p1) op p2) ... op p{n-1}) over `type` parameters.
std::string chain(const std::string& op, const std::string& type, int n) {
  std::string s = "ENTRY e {\n";
  for (int k = 0; k < n; ++k) s += " p" + std::to_string(k) + " = " + type + " parameter(" + std::to_string(k) + ")\n";
  std::string prev = "p0";
  for (int k = 1; k < n; ++k) {
    const std::string name = k + 1 == n ? "r" : "c" + std::to_string(k);
    s += std::string(k + 1 == n ? " ROOT " : " ") + name + " = " + type + " " + op + "(" + prev + ", p" +
         std::to_string(k) + ")\n";
    prev = name;
  }
  return s + "}\n";
}

// Every pass returns false and leaves the text identical on `text`.
void expect_no_change(const std::string& pass, const std::string& text) {
  SCOPED_TRACE(pass);
  ir::Module m = parse(text);
  const std::string before = ir::print_module(m);
  EXPECT_FALSE(apply(pass, m));
  EXPECT_EQ(ir::print_module(m), before);
}

// ---------------------------------------------------------------- tree-height-reduction

TEST(TreeHeightReduction, BalancesALongIntegerChain) {
  for (const char* op : {"add", "multiply", "xor", "maximum", "minimum", "and", "or"}) {
    SCOPED_TRACE(op);
    const ir::Module original = parse(chain(op, "s32[4]", 16));
    ir::Module m = original;
    ASSERT_EQ(depth(m), 15);
    EXPECT_TRUE(apply("tree-height-reduction", m));
    EXPECT_EQ(depth(m), 4);  // log2(16)
    EXPECT_EQ(m.instruction_count(), original.instruction_count());
    EXPECT_NE(ir::print_module(m).find("ROOT r = s32[4] " + std::string(op)), std::string::npos);
    expect_same_outputs(original, m);
    EXPECT_FALSE(apply("tree-height-reduction", m));  // optimal already
  }
}

TEST(TreeHeightReduction, LateLeavesJoinNearTheRoot) {
  // y = ((a + b) + c) + d where d = a*b*c*... is late: a + b + c first, then d.
  const ir::Module original = parse(
      "ENTRY e {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n c = s32[] parameter(2)\n"
      " m1 = s32[] multiply(a, b)\n m2 = s32[] multiply(m1, c)\n n = s32[] negate(m2)\n"
      " s1 = s32[] add(n, a)\n s2 = s32[] add(s1, b)\n ROOT s3 = s32[] add(s2, c)\n}\n");
  ir::Module m = original;
  ASSERT_EQ(depth(m), 6);
  EXPECT_TRUE(apply("tree-height-reduction", m));
  EXPECT_EQ(depth(m), 4);  // n is ready at 3; (a + b) + c at 2; n + that at 4
  expect_same_outputs(original, m);
}

TEST(TreeHeightReduction, FloatMaxIsRegroupedFloatAddIsNot) {
  const ir::Module original = parse(chain("maximum", "f32[3]", 8));
  ir::Module m = original;
  EXPECT_TRUE(apply("tree-height-reduction", m));
  EXPECT_EQ(depth(m), 3);
  expect_same_outputs(original, m);
  expect_no_change("tree-height-reduction", chain("add", "f32[3]", 8));
  expect_no_change("tree-height-reduction", chain("multiply", "f64[3]", 8));
}

TEST(TreeHeightReduction, NoChange) {
  // Balanced already; intermediates with two uses; three leaves with equal depths.
  expect_no_change("tree-height-reduction",
                   "ENTRY e {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n c = s32[] parameter(2)\n"
                   " d = s32[] parameter(3)\n x = s32[] add(a, b)\n y = s32[] add(c, d)\n ROOT r = s32[] add(x, y)\n}\n");
  expect_no_change("tree-height-reduction",
                   "ENTRY e {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n c = s32[] parameter(2)\n"
                   " d = s32[] parameter(3)\n x = s32[] add(a, b)\n y = s32[] add(x, c)\n z = s32[] add(y, d)\n"
                   " ROOT t = (s32[], s32[], s32[]) tuple(x, y, z)\n}\n");
  expect_no_change("tree-height-reduction", chain("add", "s32[2]", 3));
  expect_no_change("tree-height-reduction", chain("subtract", "s32[2]", 9));
}

// ---------------------------------------------------------------- strength-reduction

std::string multiply_by(const std::string& type, const std::string& constant) {
  return "ENTRY e {\n x = " + type + "[8] parameter(0)\n c = " + type + "[] constant(" + constant + ")\n"
         " b = " + type + "[8] broadcast(c), dimensions={}\n ROOT r = " + type + "[8] multiply(x, b)\n}\n";
}

TEST(StrengthReduction, CanonicalSignedDigits) {
  struct Case {
    std::string type, constant;
    int shifts, adds, subtracts, negates;
  };
  const Case cases[] = {
      {"s32", "10", 2, 1, 0, 0},   // (x<<3) + (x<<1)
      {"s32", "7", 1, 0, 1, 0},    // (x<<3) - x
      {"s32", "2", 1, 0, 0, 0},    // x<<1
      {"s32", "-1", 0, 0, 0, 1},   // -x
      {"s32", "-6", 2, 0, 1, 0},   // (x<<1) - (x<<3)
      {"s16", "-5", 1, 0, 1, 1},   // -(x<<2) - x
      {"u8", "255", 0, 0, 0, 1},   // 255 == -1 mod 2^8
      {"u32", "4294967295", 0, 0, 0, 1},
      {"s64", "4611686018427387904", 1, 0, 0, 0},  // 2^62
      {"s8", "-128", 1, 0, 0, 1},  // -(x<<7)
      {"u16", "1025", 1, 1, 0, 0},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.type + " * " + k.constant);
    const ir::Module original = parse(multiply_by(k.type, k.constant));
    ir::Module m = original;
    EXPECT_TRUE(apply("strength-reduction", m));
    EXPECT_EQ(count(m, Opcode::kMultiply), 0);
    EXPECT_EQ(count(m, Opcode::kShiftLeft), k.shifts);
    EXPECT_EQ(count(m, Opcode::kAdd), k.adds);
    EXPECT_EQ(count(m, Opcode::kSubtract), k.subtracts);
    EXPECT_EQ(count(m, Opcode::kNegate), k.negates);
    expect_same_outputs(original, m);
    EXPECT_FALSE(apply("strength-reduction", m));
  }
}

TEST(StrengthReduction, ConstantOnTheLeftAndSplatArrays) {
  const ir::Module original = parse(
      "ENTRY e {\n x = s32[4] parameter(0)\n c = s32[4] constant({10, 10, 10, 10})\n"
      " ROOT r = s32[4] multiply(c, x)\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("strength-reduction", m));
  const std::string text = ir::print_module(m);
  EXPECT_EQ(count(m, Opcode::kMultiply), 0) << text;
  EXPECT_NE(text.find("ROOT"), std::string::npos);
  EXPECT_NE(text.find("add("), std::string::npos) << text;
  expect_same_outputs(original, m);
}

TEST(StrengthReduction, NoChange) {
  expect_no_change("strength-reduction", multiply_by("s32", "21845"));  // 0x5555: 8 CSD digits
  expect_no_change("strength-reduction", multiply_by("s32", "1"));      // algsimp's
  expect_no_change("strength-reduction", multiply_by("f32", "2"));      // integers only
  expect_no_change("strength-reduction",
                   "ENTRY e {\n x = s32[4] parameter(0)\n c = s32[4] constant({2, 4, 2, 2})\n"
                   " ROOT r = s32[4] multiply(x, c)\n}\n");  // not uniform
  expect_no_change("strength-reduction",
                   "ENTRY e {\n x = s32[4] parameter(0)\n y = s32[4] parameter(1)\n ROOT r = s32[4] multiply(x, y)\n}\n");
}

// ---------------------------------------------------------------- bitwidth-narrowing

// The element type of the only instruction with opcode `op` (kInvalid if not one).
ir::ElementType only(const ir::Module& m, Opcode op) {
  ir::ElementType t = ir::ElementType::kInvalid;
  int n = 0;
  for (InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == op) {
      t = m.shape(op == Opcode::kCompare ? m.operand(i, 0) : i).element_type();
      ++n;
    }
  return n == 1 ? t : ir::ElementType::kInvalid;
}

TEST(BitwidthNarrowing, AddOfWidenedBytesBecomesS16) {
  const ir::Module original = parse(
      "ENTRY e {\n a = s8[8] parameter(0)\n b = s8[8] parameter(1)\n a32 = s32[8] convert(a)\n"
      " b32 = s32[8] convert(b)\n ROOT s = s32[8] add(a32, b32)\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("bitwidth-narrowing", m));
  EXPECT_EQ(only(m, Opcode::kAdd), ir::ElementType::kS16);
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.opcode(root), Opcode::kConvert);
  EXPECT_EQ(m.shape(root).element_type(), ir::ElementType::kS32);
  EXPECT_EQ(m.instruction_count(), 6u) << ir::print_module(m);  // a, b, 2 converts, add, convert
  expect_same_outputs(original, m, 8);
  EXPECT_FALSE(apply("bitwidth-narrowing", m));
}

struct NarrowCase {
  std::string body;  // entry instructions; the root is named r
  Opcode op;
  ir::ElementType expected;
};

TEST(BitwidthNarrowing, RangesOfManyOps) {
  const NarrowCase cases[] = {
      // A mask bounds an and: the low 8 bits of a u32 word.
      {" x = u32[8] parameter(0)\n m = u32[] constant(255)\n mb = u32[8] broadcast(m), dimensions={}\n"
       " ROOT r = u32[8] and(x, mb)\n", Opcode::kAnd, ir::ElementType::kU8},
      // iota < 100 compares in s8.
      {" i = s32[64] iota(), iota_dimension=0\n c = s32[] constant(100)\n cb = s32[64] broadcast(c), dimensions={}\n"
       " ROOT r = pred[64] compare(i, cb), direction=LT\n", Opcode::kCompare, ir::ElementType::kS8},
      // u8 * u8 < 2^16.
      {" a = u8[4] parameter(0)\n b = u8[4] parameter(1)\n a32 = u32[4] convert(a)\n b32 = u32[4] convert(b)\n"
       " ROOT r = u32[4] multiply(a32, b32)\n", Opcode::kMultiply, ir::ElementType::kU16},
      // max of s16 values with a small constant stays in s16 (s64 op).
      {" a = s16[4] parameter(0)\n a64 = s64[4] convert(a)\n z = s64[] constant(-3)\n zb = s64[4] broadcast(z), dimensions={}\n"
       " ROOT r = s64[4] maximum(a64, zb)\n", Opcode::kMaximum, ir::ElementType::kS16},
      // A logical shift of a u16 value by a small amount.
      {" a = u16[4] parameter(0)\n a32 = u32[4] convert(a)\n s = u32[4] constant({0, 3, 17, 40})\n"
       " ROOT r = u32[4] shift-right-logical(a32, s)\n", Opcode::kShiftRightLogical, ir::ElementType::kU16},
      // Division by a possibly-zero s8 value: x / 0 = -1 fits s8.
      {" a = s8[4] parameter(0)\n b = s8[4] parameter(1)\n a32 = s32[4] convert(a)\n b32 = s32[4] convert(b)\n"
       " ROOT r = s32[4] divide(a32, b32)\n", Opcode::kDivide, ir::ElementType::kS16},
      // Remainder by a u8 value.
      {" a = u32[4] parameter(0)\n b = u8[4] parameter(1)\n n = u32[4] popcnt(a)\n b32 = u32[4] convert(b)\n"
       " ROOT r = u32[4] remainder(n, b32)\n", Opcode::kRemainder, ir::ElementType::kU8},
      // select of two widened bytes.
      {" p = pred[4] parameter(0)\n a = s8[4] parameter(1)\n b = u8[4] parameter(2)\n a32 = s32[4] convert(a)\n"
       " b32 = s32[4] convert(b)\n ROOT r = s32[4] select(p, a32, b32)\n", Opcode::kSelect, ir::ElementType::kS16},
      // A clamp to [-100, 100] of a widened byte.
      {" a = s8[4] parameter(0)\n a32 = s32[4] convert(a)\n lo = s32[] constant(-100)\n hi = s32[] constant(100)\n"
       " ROOT r = s32[4] clamp(lo, a32, hi)\n", Opcode::kClamp, ir::ElementType::kS8},
      // Shift-left of a byte by up to 7 stays below 2^15 (s16 before u16: same signedness).
      {" a = u8[4] parameter(0)\n a32 = s32[4] convert(a)\n s = s32[4] constant({0, 1, 7, 5})\n"
       " ROOT r = s32[4] shift-left(a32, s)\n", Opcode::kShiftLeft, ir::ElementType::kS16},
      // Sum of 16 bytes fits s16 through a reduce; then an s32 subtract of two such sums.
      {" a = u8[16] parameter(0)\n b = u8[16] parameter(1)\n a32 = s32[16] convert(a)\n b32 = s32[16] convert(b)\n"
       " z = s32[] constant(0)\n sa = s32[] reduce(a32, z), dimensions={0}, to_apply=add\n"
       " sb = s32[] reduce(b32, z), dimensions={0}, to_apply=add\n ROOT r = s32[] subtract(sa, sb)\n",
       Opcode::kSubtract, ir::ElementType::kS16},
  };
  const std::string add = "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n";
  for (const NarrowCase& k : cases) {
    SCOPED_TRACE(k.body);
    const ir::Module original = parse(add + "ENTRY e {\n" + k.body + "}\n");
    ir::Module m = original;
    EXPECT_TRUE(apply("bitwidth-narrowing", m));
    EXPECT_EQ(only(m, k.op), k.expected) << ir::print_module(m);
    expect_same_outputs(original, m, 8);
    EXPECT_FALSE(apply("bitwidth-narrowing", m));
  }
}

TEST(BitwidthNarrowing, NoChangeWhereAValueMayNeedTheWidth) {
  const std::string cases[] = {
      // Full-width parameters: nothing known.
      " a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n ROOT r = s32[4] add(a, b)\n",
      // s16 * s16 needs all 32 bits.
      " a = s16[4] parameter(0)\n b = s16[4] parameter(1)\n a32 = s32[4] convert(a)\n b32 = s32[4] convert(b)\n"
      " ROOT r = s32[4] multiply(a32, b32)\n",
      // A logical shift of a possibly negative value is huge.
      " a = s8[4] parameter(0)\n a32 = s32[4] convert(a)\n s = s32[] constant(31)\n sb = s32[4] broadcast(s), dimensions={}\n"
      " ROOT r = s32[4] shift-right-logical(a32, sb)\n",
      // u32 division by a possibly zero value gives all ones.
      " a = u8[4] parameter(0)\n b = u8[4] parameter(1)\n a32 = u32[4] convert(a)\n b32 = u32[4] convert(b)\n"
      " ROOT r = u32[4] divide(a32, b32)\n",
      // Already 8 bits wide.
      " a = s8[4] parameter(0)\n b = s8[4] parameter(1)\n ROOT r = s8[4] add(a, b)\n",
  };
  for (const std::string& body : cases) expect_no_change("bitwidth-narrowing", "ENTRY e {\n" + body + "}\n");
}

// Every op of the range analysis on values derived from bytes, so that random inputs
// hit the extremes (-128, 127, 255, 0) often; shift amounts reach past the width and,
// signed, below zero.
std::string byte_ops_module() {
  std::string s =
      "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n"
      "max {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] maximum(x, y)\n}\n"
      "ENTRY e {\n a8 = s8[16] parameter(0)\n b8 = s8[16] parameter(1)\n u8 = u8[16] parameter(2)\n"
      " v8 = u8[16] parameter(3)\n a = s32[16] convert(a8)\n b = s32[16] convert(b8)\n u = s32[16] convert(u8)\n"
      " uu = u32[16] convert(u8)\n vv = u32[16] convert(v8)\n sh = s32[16] convert(v8)\n"
      " hb = s32[] constant(100)\n h = s32[16] broadcast(hb), dimensions={}\n io = s32[16] iota(), iota_dimension=0\n"
      " z = s32[] constant(0)\n";
  const char* ops[] = {
      "s32[16] add(a, u)", "s32[16] subtract(a, u)", "s32[16] multiply(a, b)", "s32[16] multiply(u, a)",
      "s32[16] negate(a)", "s32[16] abs(a)", "s32[16] and(a, u)", "s32[16] and(a, b)", "s32[16] or(u, sh)",
      "s32[16] or(a, b)", "s32[16] xor(u, sh)", "s32[16] not(a)", "u32[16] not(uu)",
      "s32[16] shift-left(u, sh)", "s32[16] shift-left(a, b)", "s32[16] shift-right-logical(u, sh)",
      "s32[16] shift-right-logical(a, sh)", "s32[16] shift-right-arithmetic(a, sh)",
      "s32[16] shift-right-arithmetic(a, b)", "u32[16] shift-right-arithmetic(uu, vv)",
      "s32[16] divide(a, b)", "s32[16] divide(u, sh)", "u32[16] divide(uu, vv)", "s32[16] remainder(a, b)",
      "s32[16] remainder(a, h)", "u32[16] remainder(uu, vv)", "s32[16] remainder(u, a)",
      "s32[16] maximum(a, u)", "s32[16] minimum(a, h)", "s32[16] clamp(b, a, u)", "s32[16] add(io, a)",
      "s32[16] popcnt(a)", "s32[16] count-leading-zeros(u)", "s32[16] sign(a)",
      "s32[] reduce(u, z), dimensions={0}, to_apply=add", "s32[] reduce(a, z), dimensions={0}, to_apply=max",
  };
  std::string tuple = " ROOT t = (";
  std::string names;
  int k = 0;
  for (const char* op : ops) {
    const std::string name = "r" + std::to_string(k++);
    s += " " + name + " = " + op + "\n";
    tuple += std::string(k > 1 ? ", " : "") + std::string(op).substr(0, std::string(op).find(' '));
    names += (k > 1 ? ", " : "") + name;
  }
  return s + tuple + ") tuple(" + names + ")\n}\n";
}

// The range analysis is sound: every element any integer instruction takes, on
// full-range inputs, lies in its computed range.
void expect_ranges_hold(const ir::Module& original, int input_sets) {
  hls::RangeAnalysis ranges(original);
  const ir::CompId e = original.entry();
  for (InstrId i : original.post_order(e)) ranges.compute(i);
  std::vector<std::vector<ir::Literal>> inputs;
  for (int s = 0; s < input_sets; ++s) inputs.push_back(full_range_inputs(original, static_cast<uint64_t>(s) + 7));
  for (InstrId i : original.post_order(e)) {
    const hls::Range r = ranges.get(i);
    const ir::ElementType t = original.shape(i).element_type();
    if (!r.known() || !original.shape(i).is_array()) continue;
    ir::Module m = original;
    m.set_root(e, i);
    for (const auto& args : inputs) {
      const ir::Literal v = ir::evaluate(m, args).value;
      for (int64_t k = 0; k < v.element_count(); ++k) {
        const hls::Int x = ir::is_unsigned_integral(t) ? hls::Int(v.get_bits(k)) : hls::Int(v.get_int(k));
        ASSERT_TRUE(r.lo <= x && x <= r.hi)
            << original.name(i) << " = " << static_cast<int64_t>(x) << " outside [" << static_cast<int64_t>(r.lo)
            << ", " << static_cast<int64_t>(r.hi) << "]\n" << ir::print_module(original);
      }
    }
  }
}

TEST(RangeAnalysis, SoundOnByteDerivedValuesAndRandomGraphs) {
  expect_ranges_hold(parse(byte_ops_module()), 40);
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 20 + static_cast<int>(seed % 20);
    o.floats = false;
    o.control_flow = false;
    SCOPED_TRACE(seed);
    expect_ranges_hold(ir::random_module(o), 3);
  }
}

TEST(BitwidthNarrowing, ExactOnByteDerivedValues) {
  const ir::Module original = parse(byte_ops_module());
  ir::Module m = original;
  EXPECT_TRUE(apply("bitwidth-narrowing", m));
  int narrowed = 0;
  for (InstrId i : m.instructions(m.entry()))
    narrowed += m.opcode(i) != Opcode::kConvert && ir::bit_width(m.shape(i).element_type()) <= 16 &&
                m.opcode(i) != Opcode::kParameter && m.opcode(i) != Opcode::kConstant && m.shape(i).rank() > 0;
  EXPECT_GE(narrowed, 20) << ir::print_module(m);
  expect_same_outputs(original, m, 40);
  EXPECT_FALSE(apply("bitwidth-narrowing", m));
}

// Random integer graphs: whatever the pass narrows must stay exact on full-range inputs.
TEST(BitwidthNarrowing, ExactOnRandomIntegerGraphs) {
  int fired = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 20 + static_cast<int>(seed % 30);
    o.integers = true;
    o.floats = false;
    const ir::Module original = ir::random_module(o);
    for (const char* pass : kHlsPasses) {
      ir::Module m = original;
      if (!apply(pass, m)) continue;
      fired += std::string(pass) == "bitwidth-narrowing";
      SCOPED_TRACE(std::string(pass) + " seed " + std::to_string(seed));
      expect_same_outputs(original, m, 2);
    }
  }
  EXPECT_GT(fired, 10);
}

// ---------------------------------------------------------------- fusion

TEST(Fusion, ElementwiseChainsBecomeLoopFusions) {
  const ir::Module original = parse(
      "ENTRY e {\n a = f32[8] parameter(0)\n b = f32[8] parameter(1)\n w = f32[8,8] parameter(2)\n"
      " s = f32[8] add(a, b)\n n = f32[8] negate(s)\n two = f32[] constant(2)\n tb = f32[8] broadcast(two), dimensions={}\n"
      " m = f32[8] multiply(n, tb)\n d = f32[8] dot(w, m), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " e1 = f32[8] exponential(d)\n ROOT t = f32[8] tanh(e1)\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("fusion", m));
  const std::string text = ir::print_module(m);
  EXPECT_EQ(count(m, Opcode::kFusion), 2) << text;
  EXPECT_NE(text.find("kind=kLoop, calls=fused_computation\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kind=kLoop, calls=fused_computation.1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ROOT fusion"), std::string::npos) << text;
  // The entry keeps 3 parameters, the dot and 2 fusions; the module grows by 2 fusions
  // and 3 fused parameters (a, b; d) and loses nothing else.
  EXPECT_EQ(m.instruction_count(m.entry()), 6u);
  EXPECT_EQ(m.instruction_count(), original.instruction_count() + 2 + 3);
  expect_same_outputs(original, m);
  EXPECT_FALSE(apply("fusion", m));
  // The text reads back to the same module.
  ir::Module reread = frontend::parse_hlo(text, "f.hlo");
  EXPECT_EQ(ir::print_module(reread), text);
}

TEST(Fusion, SharedProducersAreNotDuplicated) {
  // s feeds two consumers in different groups (one through a dot): it stays outside.
  const ir::Module original = parse(
      "ENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n s = s32[4] add(a, b)\n n = s32[4] negate(s)\n"
      " x = s32[4] abs(s)\n d = s32[] dot(n, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
      " y = s32[4] not(s)\n y2 = s32[4] multiply(y, y)\n ROOT t = (s32[], s32[4]) tuple(d, y2)\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("fusion", m));
  EXPECT_EQ(count(m, Opcode::kFusion), 1) << ir::print_module(m);  // not(s) and y*y
  EXPECT_EQ(count(m, Opcode::kAdd), 1);
  EXPECT_EQ(count(m, Opcode::kNegate), 1);
  expect_same_outputs(original, m);
}

TEST(Fusion, WhileBodiesFuseReducersDoNot) {
  const ir::Module original = parse(
      "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n s = s32[] add(x, y)\n ROOT n = s32[] negate(s)\n}\n"
      "cond {\n p = (s32[], s32[4]) parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
      " k = s32[] constant(3)\n ROOT c = pred[] compare(i, k), direction=LT\n}\n"
      "body {\n p = (s32[], s32[4]) parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
      " v = s32[4] get-tuple-element(p), index=1\n one = s32[] constant(1)\n i1 = s32[] add(i, one)\n"
      " ob = s32[4] broadcast(one), dimensions={}\n w = s32[4] add(v, ob)\n w2 = s32[4] multiply(w, w)\n"
      " ROOT t = (s32[], s32[4]) tuple(i1, w2)\n}\n"
      "ENTRY e {\n v = s32[4] parameter(0)\n z = s32[] constant(0)\n t = (s32[], s32[4]) tuple(z, v)\n"
      " l = (s32[], s32[4]) while(t), condition=cond, body=body\n g = s32[4] get-tuple-element(l), index=1\n"
      " ROOT r = s32[] reduce(g, z), dimensions={0}, to_apply=add\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("fusion", m));
  EXPECT_EQ(count(m, Opcode::kFusion), 1) << ir::print_module(m);
  EXPECT_EQ(m.instruction_count(m.find_computation("add")), 4u);
  expect_same_outputs(original, m);
}

TEST(Fusion, SlicesTransposesAndReversesJoinTheLoop) {
  // Every element of a slice, transpose, reverse or copy is one operand element: in
  // hardware an address mapping of the fused loop's reads, so they fuse like broadcasts.
  const ir::Module original = parse(
      "ENTRY e {\n x = s16[4,6] parameter(0)\n y = s16[6,4] parameter(1)\n"
      " t = s16[6,4] transpose(x), dimensions={1,0}\n r = s16[6,4] reverse(y), dimensions={0,1}\n"
      " c = s16[6,4] copy(r)\n s = s16[6,4] subtract(t, c)\n sl = s16[3,4] slice(s), slice={[1:6:2], [0:4]}\n"
      " ROOT m = s16[3,4] multiply(sl, sl)\n}\n");
  ir::Module m = original;
  EXPECT_TRUE(apply("fusion", m));
  EXPECT_EQ(count(m, Opcode::kFusion), 1) << ir::print_module(m);
  EXPECT_EQ(m.instruction_count(m.entry()), 3u) << ir::print_module(m);  // x, y and the fusion
  expect_same_outputs(original, m);
  EXPECT_FALSE(apply("fusion", m));
}

TEST(Fusion, NoChange) {
  expect_no_change("fusion", "ENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n ROOT r = s32[4] add(a, b)\n}\n");
  // Each elementwise op feeds a non-fusible consumer; a lone broadcast+constant is no chain.
  expect_no_change("fusion",
                   "ENTRY e {\n a = f32[4,4] parameter(0)\n n = f32[4,4] negate(a)\n"
                   " d = f32[4,4] dot(n, n), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                   " c = f32[] constant(1)\n b = f32[4,4] broadcast(c), dimensions={}\n"
                   " ROOT r = f32[4,4] dot(d, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

// ---------------------------------------------------------------- loop-unroll-by-2

// for (i = start; i < limit; ++i) v = v * 3 + i; acc += v  (the induction variable is
// element `k` of the state: 0 or 2).
std::string counted_loop(int start, int limit, bool swapped = false, const std::string& extra_body = "") {
  const std::string state = swapped ? "(s32[4], s32[], s32[])" : "(s32[], s32[4], s32[])";
  const std::string ik = swapped ? "2" : "0", vk = swapped ? "0" : "1", ak = swapped ? "1" : "2";
  auto tuple = [&](const std::string& i, const std::string& v, const std::string& a) {
    return swapped ? v + ", " + a + ", " + i : i + ", " + v + ", " + a;
  };
  return "cond {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=" + ik + "\n"
         " n = s32[] constant(" + std::to_string(limit) + ")\n ROOT c = pred[] compare(" +
         (swapped ? "n, i), direction=GT" : "i, n), direction=LT") + "\n}\n"
         "body {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=" + ik + "\n"
         " v = s32[4] get-tuple-element(p), index=" + vk + "\n a = s32[] get-tuple-element(p), index=" + ak + "\n"
         " three = s32[] constant(3)\n tb = s32[4] broadcast(three), dimensions={}\n ib = s32[4] broadcast(i), dimensions={}\n"
         " v3 = s32[4] multiply(v, tb)\n v1 = s32[4] add(v3, ib)\n s = s32[] reduce(v1, a), dimensions={0}, to_apply=add\n"
         " one = s32[] constant(1)\n i1 = s32[] add(one, i)\n" + extra_body +
         " ROOT t = " + state + " tuple(" + tuple("i1", "v1", "s") + ")\n}\n"
         "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT r = s32[] add(x, y)\n}\n"
         "ENTRY e {\n v = s32[4] parameter(0)\n z = s32[] constant(" + std::to_string(start) + ")\n"
         " a = s32[] constant(0)\n t = " + state + " tuple(" + tuple("z", "v", "a") + ")\n"
         " ROOT l = " + state + " while(t), condition=cond, body=body\n}\n";
}

TEST(LoopUnrollBy2, EvenTripCountsRunADoubledBody) {
  for (auto [start, limit, swapped] : {std::tuple{0, 10, false}, std::tuple{-3, 5, true}, std::tuple{7, 9, false}}) {
    SCOPED_TRACE(limit);
    const ir::Module original = parse(counted_loop(start, limit, swapped));
    ir::Module m = original;
    EXPECT_TRUE(apply("loop-unroll-by-2", m));
    const ir::CompId body = m.find_computation("body");
    EXPECT_EQ(m.instruction_count(body), 2 * original.instruction_count(original.find_computation("body")) - 1);
    EXPECT_EQ(count(m, Opcode::kMultiply), 2);
    EXPECT_EQ(count(m, Opcode::kWhile), 1);
    expect_same_outputs(original, m);
    EXPECT_FALSE(apply("loop-unroll-by-2", m));
  }
}

TEST(LoopUnrollBy2, NoChange) {
  expect_no_change("loop-unroll-by-2", counted_loop(0, 9));   // odd trip count
  expect_no_change("loop-unroll-by-2", counted_loop(5, 5));   // no trips
  expect_no_change("loop-unroll-by-2", counted_loop(4, 5));   // one trip
  expect_no_change("loop-unroll-by-2", counted_loop(0, 10, false,
                   " o = token[] after-all()\n of = token[] outfeed(v1, o), outfeed_shape=s32[4]\n"));
  // The step is not one.
  std::string step2 = counted_loop(0, 10);
  step2.replace(step2.find(" one = s32[] constant(1)"), 24, " one = s32[] constant(2)");
  expect_no_change("loop-unroll-by-2", step2);
  // The start is not a constant.
  std::string param_start = counted_loop(0, 10);
  param_start.replace(param_start.find(" z = s32[] constant(0)"), 22, " z = s32[] parameter(1)");
  expect_no_change("loop-unroll-by-2", param_start);
  expect_no_change("loop-unroll-by-2", "ENTRY e {\n a = s32[4] parameter(0)\n ROOT r = s32[4] add(a, a)\n}\n");
}

// ---------------------------------------------------------------- the designs

// Every HLS pass on every design: which ones fire, and the interpreter agrees on 20
// input sets of each kind.
TEST(HlsPasses, FireWhereExpectedOnTheDesigns) {
  const std::map<std::string, std::set<std::string>> expected = {
      {"tree-height-reduction", {"fir16_sym", "stencil_3pt"}},
      {"strength-reduction", {"stencil_3pt"}},
      {"bitwidth-narrowing", {"bit_mix"}},
      {"fusion", {"bit_mix", "fir16_sym", "fir8", "sad", "saturating_add", "stencil_3pt"}},
      {"loop-unroll-by-2", {}},  // no design has a loop
  };
  const std::set<std::string> integer_designs = {"fir8", "dot_product", "matvec", "matmul_4x4", "conv2d",
                                                 "stencil_3pt", "sad", "saturating_add", "bit_mix", "maxpool", "fir16_sym"};
  for (const char* pass : kHlsPasses) {
    std::set<std::string> fired;
    for (const auto& path : testing::all_designs()) {
      const ir::Module original = frontend::load_design(path.string()).module;
      const std::string design = path.stem().string();
      SCOPED_TRACE(std::string(pass) + " on " + design);
      ir::Module m = original;
      if (!apply(pass, m)) {
        EXPECT_EQ(ir::print_module(m), ir::print_module(original));
        continue;
      }
      if (integer_designs.count(design)) fired.insert(design);
      expect_same_outputs(original, m, 20);
      EXPECT_FALSE(apply(pass, m)) << "a second run changed it again";
      if (std::string(pass) == "strength-reduction") {
        for (InstrId i : m.instructions(m.entry())) EXPECT_NE(m.opcode(i), Opcode::kMultiply);
      }
    }
    EXPECT_EQ(fired, expected.at(pass)) << pass;
  }
}

TEST(HlsPasses, NarrowingShrinksTheBitMixMask) {
  ir::Module m = frontend::load_design((testing::source_dir() / "designs/bit_mix.yaml").string()).module;
  EXPECT_TRUE(apply("bitwidth-narrowing", m));
  EXPECT_EQ(only(m, Opcode::kAnd), ir::ElementType::kU16) << ir::print_module(m);
}

// ---------------------------------------------------------------- the real HLO files

TEST(HlsPasses, SmallRealModulesKeepTheirOutputs) {
  std::vector<ir::Module> modules;
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    const ir::Features ft = ir::extract_features(m);
    if (ft.instructions <= 300 && ft.max_tensor_elements <= 20000 && ft.while_loops == 0) modules.push_back(std::move(m));
  }
  ASSERT_GE(modules.size(), 40u);
  std::map<std::string, int> fired;
  for (const auto& original : modules)
    for (const char* pass : kHlsPasses) {
      SCOPED_TRACE(original.name() + " / " + pass);
      ir::Module m = original;
      if (!apply(pass, m)) {
        EXPECT_EQ(ir::print_module(m), ir::print_module(original));
        continue;
      }
      ++fired[pass];
      EquivalenceOptions o;
      o.input_sets = 2;
      const EquivalenceResult r = check_equivalence(original, m, o);
      EXPECT_NE(r.status, CheckStatus::kFailed) << r.detail;
    }
  for (const char* pass : kHlsPasses) std::cout << pass << " fired on " << fired[pass] << " of " << modules.size() << " small real modules\n";
  EXPECT_GT(fired["fusion"], 10);
  EXPECT_GT(fired["bitwidth-narrowing"], 0);
}

TEST(HlsPasses, EveryRealFileStaysValid) {
  int files = 0;
  for (const auto& f : testing::all_hlo_files()) {
    SCOPED_TRACE(f.string());
    const ir::Module original = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    ++files;
    for (const char* pass : kHlsPasses) {
      ir::Module m = original;
      const bool changed = apply(pass, m);
      if (changed) {
        EXPECT_FALSE(Registry::global().create(pass)->run(m)) << pass << " is not idempotent";
      }
    }
  }
  EXPECT_EQ(files, 108);
}

}  // namespace
}  // namespace hlsgym::passes
