// dot_dimension_sorter: every case of XLA's dot_dimension_sorter_test.cc (openxla/xla
// xla/service/gpu/dot_dimension_sorter_test.cc at 602467cc58857913d83ce52fa4deeefa18be935e;
// a GPU pass in XLA, not under xla/service/ at the commits the other rows read). Its first
// three cases check XLA's GPU pipeline with the pass disabled; here the pipeline step that
// lowers a dot to a canonical matrix product is hlsgym's dot_decomposer, which, like XLA's
// GPU dot rewriting, transposes an operand whose contracting dimensions are out of order.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

std::string dot_module(int64_t m, int64_t k0, int64_t n, const std::string& lhs_dims, const std::string& rhs_dims) {
  const std::string m_s = std::to_string(m), k_s = std::to_string(k0), n_s = std::to_string(n);
  return "HloModule m\nENTRY e {\n p0 = f16[1," + m_s + "," + k_s + ",32] parameter(0)\n p1 = f16[" + n_s + "," + k_s +
         ",32] parameter(1)\n ROOT _ = f16[1," + m_s + "," + n_s + "] dot(p0, p1),\n lhs_contracting_dims={" +
         lhs_dims + "}, rhs_contracting_dims={" + rhs_dims + "}\n}\n";
}

// Transposes of parameter `k` (-1: of any parameter) after the canonicalizing pipeline
// step, run to its fixed point.
int parameter_transposes_after_lowering(const std::string& text, int k = -1) {
  ir::Module m = testing::parse_module(text);
  testing::run_to_fixed_point("dot_decomposer", m);
  int n = 0;
  for (ir::InstrId i : m.instructions(m.entry())) {
    if (m.opcode(i) != ir::Opcode::kTranspose || m.opcode(m.operand(i, 0)) != ir::Opcode::kParameter) continue;
    n += k < 0 || m.attrs(m.operand(i, 0)).parameter_number == k;
  }
  return n;
}

TEST(DotDimensionSorterXla, UnsortedDimsCreateTransposes) {
  EXPECT_GE(parameter_transposes_after_lowering(dot_module(14, 9, 12, "3,2", "2,1")), 1);
}

// XLA's GPU pipeline makes no transpose of a dot with sorted contracting dimensions.
// hlsgym's canonical product is [M, K] x [K, N], so dot_decomposer still transposes this
// rhs ([N, K...] -> [K..., N]) (listed); the lhs, which the sorting is about, is not
// transposed, and the pass leaves the sorted dot alone.
TEST(DotDimensionSorterXla, SortedDimsDoNotCreateTransposes) {
  EXPECT_FALSE(testing::deliberate_difference("dot_dimension_sorter", "SortedDimsDoNotCreateTransposes").empty());
  const std::string text = dot_module(14, 9, 12, "2,3", "1,2");
  EXPECT_EQ(parameter_transposes_after_lowering(text, 0), 0);
  EXPECT_EQ(parameter_transposes_after_lowering(text, 1), 1);
  testing::run_golden("dot_dimension_sorter", text, false);
}

// The two orders compute the same values (XLA: within 1e-6 after its pipeline; here the
// interpreter, exactly, on random inputs).
TEST(DotDimensionSorterXla, DimOrderCanBeChanged) {
  testing::expect_same_outputs(testing::parse_module(dot_module(14, 9, 12, "3,2", "2,1")),
                               testing::parse_module(dot_module(14, 9, 12, "2,3", "1,2")));
}

TEST(DotDimensionSorterXla, SortContractingDims) {
  const ir::Module before = testing::parse_module(dot_module(144, 96, 122, "3,2", "2,1"));
  const ir::InstrId root = before.computation(before.entry()).root;
  EXPECT_EQ(before.attrs(root).dot_dims->lhs_contracting, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(before.attrs(root).dot_dims->rhs_contracting, (std::vector<int64_t>{2, 1}));
  const ir::Module m = testing::run_golden("dot_dimension_sorter", dot_module(144, 96, 122, "3,2", "2,1"), true);
  const ir::InstrId sorted = m.computation(m.entry()).root;
  EXPECT_EQ(m.attrs(sorted).dot_dims->lhs_contracting, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(m.attrs(sorted).dot_dims->rhs_contracting, (std::vector<int64_t>{1, 2}));
}

TEST(DotDimensionSorterXla, NothingToReorder) {
  testing::run_golden("dot_dimension_sorter", dot_module(144, 96, 122, "2,3", "1,2"), false);
}

}  // namespace
}  // namespace hlsgym::passes
