// Cases of XLA's HLO evaluator tests (hlo_evaluator_test.cc) where hlsgym differed.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

Literal run(const std::string& body, std::vector<Literal> args = {}) {
  Module m = frontend::parse_hlo("HloModule t\n\n" + body, "t.hlo");
  verify(m);
  return evaluate(m, args).value;
}

// XLA: imag of a real float is 0 and real is the value itself (hlsgym gave NaN).
TEST(EvaluateXlaCases, RealAndImagOfRealFloats) {
  const Literal im = run("ENTRY e {\n  c = f32[3] constant({1.5, -2, 0})\n  ROOT i = f32[3] imag(c)\n}\n");
  const Literal re = run("ENTRY e {\n  c = f32[3] constant({1.5, -2, 0})\n  ROOT r = f32[3] real(c)\n}\n");
  const double values[] = {1.5, -2, 0};
  for (int64_t k = 0; k < 3; ++k) {
    EXPECT_EQ(im.get_double(k), 0.0) << k;
    EXPECT_EQ(re.get_double(k), values[k]) << k;
  }
}

}  // namespace
}  // namespace hlsgym::ir
