// Property tests of the rewrites ported from XLA's pass tests: random instances of each
// pattern (shapes, dimension numbers, slice ranges, loop steps drawn from a seeded
// generator) must be rewritten and keep the interpreter's outputs exactly.
#include <gtest/gtest.h>

#include <random>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

using Rng = std::mt19937;

int64_t draw(Rng& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

std::string dims(const std::vector<int64_t>& d) {
  std::string out = "[";
  for (size_t k = 0; k < d.size(); ++k) out += (k ? "," : "") + std::to_string(d[k]);
  return out + "]";
}

// Runs `pass` once on `text`; it must change the module, verify, and keep the outputs.
void expect_exact_rewrite(const std::string& pass, const std::string& text) {
  SCOPED_TRACE(text);
  const ir::Module before = testing::parse_module(text);
  ir::Module m = before;
  EXPECT_TRUE(testing::run_pass(pass, m));
  testing::expect_same_outputs(before, m);
}

// Two dots sharing their lhs or their rhs, with random batch, free and contracting sizes,
// the contracting dimension at a random side of each operand.
TEST(XlaRewriteProperties, DotMergerKeepsValues) {
  Rng rng(17);
  for (int trial = 0; trial < 24; ++trial) {
    const bool share_lhs = draw(rng, 0, 1);
    const bool batch = draw(rng, 0, 1);
    const int64_t b = draw(rng, 1, 3), k = draw(rng, 1, 5), m0 = draw(rng, 1, 4), m1 = draw(rng, 1, 4),
                  n = draw(rng, 1, 4);
    const bool lhs_k_first = draw(rng, 0, 1), rhs_k_first = draw(rng, 0, 1);
    auto lhs = [&](int64_t rows) {
      std::vector<int64_t> d = lhs_k_first ? std::vector<int64_t>{k, rows} : std::vector<int64_t>{rows, k};
      if (batch) d.insert(d.begin(), b);
      return d;
    };
    auto rhs = [&](int64_t cols) {
      std::vector<int64_t> d = rhs_k_first ? std::vector<int64_t>{k, cols} : std::vector<int64_t>{cols, k};
      if (batch) d.insert(d.begin(), b);
      return d;
    };
    const int64_t off = batch ? 1 : 0;
    std::string dn = "lhs_contracting_dims={" + std::to_string(off + (lhs_k_first ? 0 : 1)) +
                     "}, rhs_contracting_dims={" + std::to_string(off + (rhs_k_first ? 0 : 1)) + "}";
    if (batch) dn += ", lhs_batch_dims={0}, rhs_batch_dims={0}";
    const std::string bd = batch ? std::to_string(b) + "," : "";
    std::string text = "HloModule p\n\nENTRY e {\n";
    if (share_lhs) {
      text += " a = s32" + dims(lhs(n)) + " parameter(0)\n x = s32" + dims(rhs(m0)) + " parameter(1)\n y = s32" +
              dims(rhs(m1)) + " parameter(2)\n d0 = s32[" + bd + std::to_string(n) + "," + std::to_string(m0) +
              "] dot(a, x), " + dn + "\n d1 = s32[" + bd + std::to_string(n) + "," + std::to_string(m1) +
              "] dot(a, y), " + dn + "\n";
    } else {
      text += " x = s32" + dims(lhs(m0)) + " parameter(0)\n y = s32" + dims(lhs(m1)) + " parameter(1)\n a = s32" +
              dims(rhs(n)) + " parameter(2)\n d0 = s32[" + bd + std::to_string(m0) + "," + std::to_string(n) +
              "] dot(x, a), " + dn + "\n d1 = s32[" + bd + std::to_string(m1) + "," + std::to_string(n) +
              "] dot(y, a), " + dn + "\n";
    }
    text += " ROOT t = tuple(d0, d1)\n}\n";  // the parser infers the tuple's shape
    expect_exact_rewrite("dot-merger", text);
  }
}

// Random slices (starts, limits, strides) of two sources, an elementwise op on each
// pair of pieces; sunk whenever the pieces compute at least a source's elements.
TEST(XlaRewriteProperties, SliceSinkerKeepsValues) {
  Rng rng(23);
  const char* const ops[] = {"add", "multiply", "subtract", "maximum", "and", "xor"};
  int sunk = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t rows = draw(rng, 2, 6), cols = draw(rng, 1, 4);
    const int pieces = static_cast<int>(draw(rng, 1, 4));
    const std::string op = ops[draw(rng, 0, 5)];
    std::string text = "HloModule p\n\nENTRY e {\n a = s32[" + std::to_string(rows) + "," + std::to_string(cols) +
                       "] parameter(0)\n b = s32[" + std::to_string(rows) + "," + std::to_string(cols) +
                       "] parameter(1)\n";
    std::string roots;
    int64_t elements = 0;
    for (int p = 0; p < pieces; ++p) {
      const int64_t start = draw(rng, 0, rows - 1), limit = draw(rng, start + 1, rows), stride = draw(rng, 1, 2);
      const int64_t count = (limit - start + stride - 1) / stride;
      elements += count * cols;
      const std::string n = std::to_string(p), shape = "s32[" + std::to_string(count) + "," + std::to_string(cols) + "]";
      const std::string range = "{[" + std::to_string(start) + ":" + std::to_string(limit) + ":" + std::to_string(stride) +
                                "], [0:" + std::to_string(cols) + "]}";
      text += " sa" + n + " = " + shape + " slice(a), slice=" + range + "\n sb" + n + " = " + shape +
              " slice(b), slice=" + range + "\n r" + n + " = " + shape + " " + op + "(sa" + n + ", sb" + n + ")\n";
      roots += (p ? ", r" : "r") + n;
    }
    text += " ROOT t = tuple(" + roots + ")\n}\n";
    if (elements < rows * cols) continue;  // XLA leaves these alone; the golden tests cover that
    ++sunk;
    expect_exact_rewrite("slice-sinker", text);
  }
  EXPECT_GE(sunk, 10);
}

// Two induction variables with random starts and steps, read by the body and after the
// loop; the loop runs a random number of times (more than once, so it stays a loop).
TEST(XlaRewriteProperties, MergedInductionVariablesKeepValues) {
  Rng rng(29);
  for (int trial = 0; trial < 16; ++trial) {
    const int64_t a0 = draw(rng, -50, 50), b0 = draw(rng, -50, 50), sa = draw(rng, 1, 5), sb = draw(rng, -5, 5);
    const int64_t trips = draw(rng, 2, 9);
    const std::string text =
        "HloModule p\n"
        "body {\n s = (s32[], s32[], s32[]) parameter(0)\n a = s32[] get-tuple-element(s), index=0\n"
        " b = s32[] get-tuple-element(s), index=1\n acc = s32[] get-tuple-element(s), index=2\n"
        " ca = s32[] constant(" + std::to_string(sa) + ")\n cb = s32[] constant(" + std::to_string(sb) + ")\n"
        " a1 = s32[] add(a, ca)\n b1 = s32[] add(cb, b)\n ab = s32[] multiply(a, b)\n acc1 = s32[] add(acc, ab)\n"
        " ROOT t = (s32[], s32[], s32[]) tuple(a1, b1, acc1)\n}\n"
        "cond {\n s = (s32[], s32[], s32[]) parameter(0)\n a = s32[] get-tuple-element(s), index=0\n"
        " limit = s32[] constant(" + std::to_string(a0 + sa * trips) + ")\n"
        " ROOT lt = pred[] compare(a, limit), direction=LT\n}\n"
        "ENTRY e {\n a = s32[] constant(" + std::to_string(a0) + ")\n b = s32[] constant(" + std::to_string(b0) + ")\n"
        " acc = s32[] parameter(0)\n init = (s32[], s32[], s32[]) tuple(a, b, acc)\n"
        " w = (s32[], s32[], s32[]) while(init), condition=cond, body=body\n"
        " wa = s32[] get-tuple-element(w), index=0\n wb = s32[] get-tuple-element(w), index=1\n"
        " wacc = s32[] get-tuple-element(w), index=2\n ROOT r = (s32[], s32[], s32[]) tuple(wa, wb, wacc)\n}\n";
    expect_exact_rewrite("simplify-while-loops", text);
  }
}

}  // namespace
}  // namespace hlsgym::passes
