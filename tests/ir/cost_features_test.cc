// XLA HloCostAnalysis formulas on hand-computed examples, and graph features.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/cost_analysis.h"
#include "ir/features.h"

namespace hlsgym::ir {
namespace {

Module parse(const std::string& body) { return frontend::parse_hlo("HloModule t\n\n" + body, "c.hlo"); }

TEST(CostAnalysis, DotIsTwoMNK) {
  Module m = parse("ENTRY e {\n a = f32[8,16] parameter(0)\n b = f32[16,4] parameter(1)\n"
                   " ROOT d = f32[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  const Cost c = module_cost(m);
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 8 * 4 * 16);
  EXPECT_DOUBLE_EQ(c.bytes_accessed, 4.0 * (8 * 4 + 8 * 16 + 16 * 4));
}

TEST(CostAnalysis, ConvolutionCountsValidPositions) {
  // 1-D: input width 5, kernel 3, pad 1_1, stride 1 -> 5 outputs; valid (out, tap) pairs:
  // 5*3 minus the 2 taps that fall in the padding = 13. Features 2 in, 3 out, batch 1.
  Module m = parse("ENTRY e {\n x = f32[1,5,2] parameter(0)\n k = f32[3,2,3] parameter(1)\n"
                   " ROOT y = f32[1,5,3] convolution(x, k), window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f\n}\n");
  EXPECT_DOUBLE_EQ(module_cost(m).flops, 2.0 * 2 * 3 * 1 * 13);
}

// The valid (output, tap) pairs are counted in closed form; on every small 1-D window
// (stride, padding, both dilations) the count equals the pair-by-pair loop it replaced.
TEST(CostAnalysis, ConvolutionValidPositionsMatchTheLoopOnSmallWindows) {
  int cases = 0;
  for (int64_t in = 1; in <= 5; ++in)
    for (int64_t size = 1; size <= 3; ++size)
      for (int64_t stride = 1; stride <= 3; ++stride)
        for (int64_t lo = -2; lo <= 2; ++lo)
          for (int64_t hi = -1; hi <= 2; ++hi)
            for (int64_t bd = 1; bd <= 3; ++bd)
              for (int64_t wd = 1; wd <= 2; ++wd) {
                const WindowDim w{size, stride, lo, hi, bd, wd, false};
                const int64_t dilated = (in - 1) * bd + 1 + lo + hi, span = (size - 1) * wd + 1;
                if (dilated < span) continue;
                const int64_t out = (dilated - span) / stride + 1;
                int64_t pairs = 0;
                for (int64_t o = 0; o < out; ++o)
                  for (int64_t k = 0; k < size; ++k) pairs += window_source(w, o, k, in) >= 0;
                const std::string text = fmt::format(
                    "ENTRY e {{\n x = f32[1,{},1] parameter(0)\n k = f32[{},1,1] parameter(1)\n"
                    " ROOT y = f32[1,{},1] convolution(x, k), window={{size={} stride={} pad={}_{} lhs_dilate={} "
                    "rhs_dilate={}}}, dim_labels=b0f_0io->b0f\n}}\n", in, size, out, size, stride, lo, hi, bd, wd);
                SCOPED_TRACE(text);
                EXPECT_DOUBLE_EQ(module_cost(parse(text)).flops, 2.0 * static_cast<double>(pairs));
                ++cases;
              }
  EXPECT_GT(cases, 1000);
}

// Issue 17: the pair-by-pair loop made a 2^40-wide convolution hang the cost analysis.
TEST(CostAnalysis, HugeConvolutionIsCostedInBoundedTime) {
  Module m = parse("ENTRY e {\n a = f32[1,1099511627776,1] parameter(0)\n k = f32[3,1,1] parameter(1)\n"
                   " ROOT c = f32[1,1099511627776,1] convolution(a, k), window={size=3 pad=1_1}, "
                   "dim_labels=b0f_0io->b0f\n}\n");
  EXPECT_DOUBLE_EQ(module_cost(m).flops, 2.0 * (3.0 * 1099511627776.0 - 2.0));
}

TEST(CostAnalysis, ReduceElementwiseAndTranscendentals) {
  Module m = parse("add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] add(x, y)\n}\n"
                   "ENTRY e {\n a = f32[4,8] parameter(0)\n e1 = f32[4,8] exponential(a)\n"
                   " m1 = f32[4,8] multiply(e1, a)\n z = f32[] constant(0)\n"
                   " ROOT r = f32[4] reduce(m1, z), dimensions={1}, to_apply=add\n}\n");
  const Cost c = module_cost(m);
  EXPECT_DOUBLE_EQ(c.transcendentals, 32);     // exp: one per element, not a flop
  EXPECT_DOUBLE_EQ(c.flops, 32 + (32 - 4));    // multiply + reduce (1 add per element removed)
}

TEST(CostAnalysis, WhileCountsOneIterationAndConditionalTheMax) {
  Module m = parse(
      "cond {\n p = f32[4] parameter(0)\n ROOT t = pred[] constant(false)\n}\n"
      "body {\n p = f32[4] parameter(0)\n ROOT n = f32[4] multiply(p, p)\n}\n"
      "cheap {\n p = f32[4] parameter(0)\n ROOT n = f32[4] negate(p)\n}\n"
      "dear {\n p = f32[4] parameter(0)\n a = f32[4] add(p, p)\n ROOT b = f32[4] add(a, p)\n}\n"
      "ENTRY e {\n x = f32[4] parameter(0)\n w = f32[4] while(x), condition=cond, body=body\n"
      " i = s32[] parameter(1)\n ROOT c = f32[4] conditional(i, w, w), branch_computations={cheap, dear}\n}\n");
  EXPECT_DOUBLE_EQ(module_cost(m).flops, 4 + 8);  // body once + the dearer branch
}

TEST(Features, HandComputedSmallGraph) {
  Module m = parse("ENTRY e {\n a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n c = f32[4] add(a, b)\n"
                   " d = f32[4] multiply(c, a)\n ROOT e = f32[4] exponential(d)\n}\n");
  const Features f = extract_features(m);
  EXPECT_EQ(f.instructions, 5);
  EXPECT_EQ(f.entry_instructions, 5);
  EXPECT_EQ(f.edges, 5);       // add 2, multiply 2, exponential 1
  EXPECT_EQ(f.depth, 4);       // a -> c -> d -> e
  EXPECT_EQ(f.max_fan_out, 2);  // a feeds add and multiply
  EXPECT_EQ(f.parameters, 2);
  EXPECT_EQ(f.opcode_counts[static_cast<int>(Opcode::kAdd)], 1);
  EXPECT_DOUBLE_EQ(f.flops, 8);
  EXPECT_DOUBLE_EQ(f.transcendentals, 4);
  EXPECT_DOUBLE_EQ(f.critical_path_flops, 8);
  EXPECT_EQ(f.to_vector().size(), Features::names().size());
}

}  // namespace
}  // namespace hlsgym::ir
