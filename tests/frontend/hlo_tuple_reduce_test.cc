// Issue 17: a one-input reduce (or reduce-window) whose reducer returns a 1-tuple has a
// 1-tuple result, as in XLA (hlo_parser_test.cc's TupleReduce is the variadic case;
// XLA's shape inference makes the result a tuple whenever the reducer returns one).
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "tests/support/hlo_text.h"

namespace hlsgym::frontend {
namespace {
using testing::hlo_error;
using testing::print_round_trip;

const std::string kMaxInTuple =
    "max1 {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  m = s32[] maximum(a, b)\n"
    "  ROOT t = (s32[]) tuple(m)\n}\n\n";

std::string module(const std::string& entry_body) {
  return "HloModule m\n\n" + kMaxInTuple + "ENTRY e {\n" + entry_body + "}\n\n";
}

TEST(HloTupleReduce, OmittedShapeIsTheOneTuple) {
  EXPECT_EQ(print_round_trip(module("  x = s32[2,3] parameter(0)\n  z = s32[] constant(-9)\n"
                                    "  ROOT r = reduce(x, z), dimensions={1}, to_apply=max1\n")),
            module("  x = s32[2,3] parameter(0)\n  z = s32[] constant(-9)\n"
                   "  ROOT r = (s32[2]) reduce(x, z), dimensions={1}, to_apply=max1\n"));
  EXPECT_EQ(print_round_trip(module("  x = s32[4] parameter(0)\n  z = s32[] constant(-9)\n"
                                    "  ROOT w = reduce-window(x, z), window={size=3}, to_apply=max1\n")),
            module("  x = s32[4] parameter(0)\n  z = s32[] constant(-9)\n"
                   "  ROOT w = (s32[2]) reduce-window(x, z), window={size=3}, to_apply=max1\n"));
}

TEST(HloTupleReduce, EvaluatesToATupleOfTheReduction) {
  const ir::Module m = parse_hlo(module("  x = s32[2,3] constant({ {4, -1, 7}, {-3, -8, 0} })\n"
                                        "  z = s32[] constant(-9)\n"
                                        "  r = (s32[2]) reduce(x, z), dimensions={1}, to_apply=max1\n"
                                        "  w = (s32[2,2]) reduce-window(x, z), window={size=1x2}, to_apply=max1\n"
                                        "  ROOT out = ((s32[2]), (s32[2,2])) tuple(r, w)\n"),
                                 "m.hlo");
  EXPECT_EQ(ir::evaluate(m, {}).value.to_string(), "(({7, 0}), ({ {4, 7}, {-3, 0} }))");
}

TEST(HloTupleReduce, ResultAndReducerMustAgreeOnTheTuple) {
  EXPECT_EQ(hlo_error(module("  x = s32[3] parameter(0)\n  z = s32[] constant(0)\n"
                             "  ROOT r = s32[] reduce(x, z), dimensions={0}, to_apply=max1\n")),
            "m.hlo:13:3: r: declared shape s32[] but the operands give (s32[])");
  const std::string scalar_reducer =
      "HloModule m\n\nmax {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT m = s32[] maximum(a, b)\n}\n\n"
      "ENTRY e {\n  x = s32[3] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = (s32[]) reduce(x, z), dimensions={0}, to_apply=max\n}\n";
  EXPECT_EQ(hlo_error(scalar_reducer), "m.hlo:12:3: r: declared shape (s32[]) but the operands give s32[]");
}

}  // namespace
}  // namespace hlsgym::frontend
