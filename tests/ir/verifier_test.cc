// The verifier accepts every real XLA module and rejects hand-made wrong ones with a
// message naming the instruction and the problem.
#include "ir/verifier.h"

#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "tests/support/test_data.h"

namespace hlsgym::ir {
namespace {

TEST(Verifier, AcceptsEveryRealHloFile) {
  for (const auto& path : testing::all_hlo_files()) {
    Module m = frontend::parse_hlo(frontend::read_file(path.string()), path.string());
    auto issues = verify_all(m);
    EXPECT_TRUE(issues.empty()) << path.filename() << ": " << issues.size() << " issues, first: "
                                << issues.front().message << " (line " << issues.front().line << ")";
  }
}

struct BadCase {
  const char* what;
  const char* body;      // instructions of the entry (plus any computations before it)
  const char* expected;  // substring of the first message
  int line;              // line of the offending instruction
};

const BadCase kBad[] = {
    {"add shapes", "ENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[5] parameter(1)\n  ROOT c = f32[4] add(a, b)\n}",
     "c: add: operand shapes f32[4] and f32[5] differ", 4},
    {"add type mismatch", "ENTRY e {\n  a = f32[4] parameter(0)\n  b = s32[4] parameter(1)\n  ROOT c = f32[4] add(a, b)\n}",
     "operand element types differ", 4},
    {"declared shape", "ENTRY e {\n  a = f32[4] parameter(0)\n  ROOT n = f32[3] negate(a)\n}",
     "n: declared shape f32[3] but the operands give f32[4]", 3},
    {"dot contracting", "ENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[4,5] parameter(1)\n  ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}",
     "contracting dimension sizes differ", 4},
    {"transpose permutation", "ENTRY e {\n  a = f32[2,3] parameter(0)\n  ROOT t = f32[3,2] transpose(a), dimensions={0,0}\n}",
     "dimensions must be a permutation", 3},
    {"slice bounds", "ENTRY e {\n  a = f32[4] parameter(0)\n  ROOT s = f32[4] slice(a), slice={[2:6]}\n}",
     "out of bounds", 3},
    {"gte index", "ENTRY e {\n  a = f32[4] parameter(0)\n  t = (f32[4]) tuple(a)\n  ROOT g = f32[4] get-tuple-element(t), index=1\n}",
     "index 1 out of range", 4},
    {"reduce to_apply non-scalar",
     "add {\n  x = f32[2] parameter(0)\n  y = f32[2] parameter(1)\n  ROOT s = f32[2] add(x, y)\n}\n"
     "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add\n}",
     "to_apply must take scalars", 9},
    {"while body shape",
     "cond {\n  p = s32[] parameter(0)\n  ROOT t = pred[] constant(false)\n}\n"
     "body {\n  p = s32[] parameter(0)\n  ROOT f = f32[] convert(p)\n}\n"
     "ENTRY e {\n  a = s32[] parameter(0)\n  ROOT w = s32[] while(a), condition=cond, body=body\n}",
     "while body returns f32[] but the loop state is s32[]", 11},
    {"cycle", "ENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[4] add(a, c)\n  ROOT c = f32[4] add(a, b)\n}",
     "cycle", 0},
    {"parameter gap", "ENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[4] parameter(2)\n  ROOT c = f32[4] add(a, b)\n}",
     "parameter numbers skip 1", 1},
    {"broadcast dims", "ENTRY e {\n  a = f32[3] parameter(0)\n  ROOT b = f32[2,4] broadcast(a), dimensions={1}\n}",
     "broadcast dimension 1 maps operand size 3", 3},
    {"concatenate", "ENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[2,4] parameter(1)\n  ROOT c = f32[4,3] concatenate(a, b), dimensions={0}\n}",
     "differ outside dimension 0", 4},
    {"reshape count", "ENTRY e {\n  a = f32[2,3] parameter(0)\n  ROOT r = f32[5] reshape(a)\n}",
     "changes the element count", 3},
    {"arity", "ENTRY e {\n  a = f32[2] parameter(0)\n  ROOT n = f32[2] negate(a, a)\n}",
     "negate takes 1 operands, has 2", 3},
    {"select predicate", "ENTRY e {\n  p = f32[2] parameter(0)\n  a = f32[2] parameter(1)\n  ROOT s = f32[2] select(p, a, a)\n}",
     "predicate must be pred", 4},
};

TEST(Verifier, RejectsWrongModulesWithClearMessages) {
  for (const auto& c : kBad) {
    SCOPED_TRACE(c.what);
    Module m = frontend::parse_hlo(std::string("HloModule bad\n\n") + c.body, "bad.hlo");
    auto issues = verify_all(m);
    ASSERT_FALSE(issues.empty());
    EXPECT_NE(issues.front().message.find(c.expected), std::string::npos) << issues.front().message;
    if (c.line > 0) {
      EXPECT_EQ(issues.front().line, c.line + 2);  // +2: header and blank line
    }
    EXPECT_THROW(verify(m), Error);
  }
}

TEST(Verifier, ErrorCarriesFileAndLine) {
  Module m = frontend::parse_hlo(
      "HloModule bad\n\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT n = f32[3] negate(a)\n}\n", "x.hlo");
  try {
    verify(m);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x.hlo:5:3: n: declared shape", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace hlsgym::ir
