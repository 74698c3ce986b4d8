// dynamic-slice and dynamic-update-slice in XLA's older form, all start indices in one
// rank-1 operand (XLA's own dynamic_index_splitter_test.cc uses it, and the parser and
// verifier accept it): the interpreter reads start d from element d of that vector,
// clamped as for scalar indices, and agrees with the scalar-index form.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"

namespace hlsgym::ir {
namespace {

Literal s32_values(const Shape& s, std::initializer_list<int64_t> v) {
  Literal out(s);
  int64_t k = 0;
  for (int64_t x : v) out.set_int(k++, x);
  return out;
}

Literal iota_3x4(const Shape& s) {
  Literal out(s);
  for (int64_t k = 0; k < out.element_count(); ++k) out.set_int(k, k);
  return out;
}

TEST(EvaluateVectorIndex, DynamicSliceReadsEachStartFromTheVector) {
  const Module m = frontend::parse_hlo(
      "HloModule t\nENTRY e {\n o = s32[3,4] parameter(0)\n i = s32[2] parameter(1)\n"
      " ROOT r = s32[2,2] dynamic-slice(o, i), dynamic_slice_sizes={2,2}\n}\n");
  const auto& params = m.computation(m.entry()).params;
  std::vector<Literal> args{iota_3x4(m.shape(params[0])), s32_values(m.shape(params[1]), {1, 7})};
  const Literal r = evaluate(m, args).value;  // start (1, 7) clamps to (1, 2)
  EXPECT_EQ(r.get_int(0), 6);
  EXPECT_EQ(r.get_int(1), 7);
  EXPECT_EQ(r.get_int(2), 10);
  EXPECT_EQ(r.get_int(3), 11);
}

TEST(EvaluateVectorIndex, DynamicUpdateSliceWritesAtTheVectorsStart) {
  const Module m = frontend::parse_hlo(
      "HloModule t\nENTRY e {\n o = s32[3,4] parameter(0)\n u = s32[1,2] parameter(1)\n i = s32[2] parameter(2)\n"
      " ROOT r = s32[3,4] dynamic-update-slice(o, u, i)\n}\n");
  const auto& params = m.computation(m.entry()).params;
  std::vector<Literal> args{iota_3x4(m.shape(params[0])), s32_values(m.shape(params[1]), {-1, -2}),
                            s32_values(m.shape(params[2]), {2, 1})};
  const Literal r = evaluate(m, args).value;
  for (int64_t k = 0; k < 12; ++k) EXPECT_EQ(r.get_int(k), k == 9 ? -1 : k == 10 ? -2 : k) << k;
}

}  // namespace
}  // namespace hlsgym::ir
