// Issue 17: modules that parse but are ill-typed used to pass the verifier and reach the
// interpreter (segfaults, out-of-bounds reads), the passes (internal errors) or the cost
// model (0 cycles). Each file of tests/data/ill_typed/ is one such class; the verifier
// must name the instruction, its line and column, and the problem.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

struct IllTyped {
  const char* file;
  const char* expected;  // substring of the error
  int line, column;      // of the offending instruction (0: not checked)
};

const IllTyped kCases[] = {
    {"gather.hlo", "collapsed_slice_dims {7}: 7 is outside [0, 2)", 6, 3},
    {"gather_type.hlo", "declared shape s32[3,5] but the operands give f32[3,5]", 6, 3},
    {"scatter.hlo", "inserted_window_dims {5}: 5 is outside [0, 2)", 13, 3},
    {"dus.hlo", "dynamic-update-slice needs 2 scalar start indices for f32[4,5], has 1", 7, 3},
    {"dynamic_slice_index.hlo", "start index 0 must be an integer scalar, is f32[]", 6, 3},
    {"allreduce.hlo", "all-reduce needs at least 1 operand(s), has 0", 11, 3},
    {"allreduce2.hlo", "all-reduce of f32[4] cannot return f32[8]", 11, 3},
    {"convert_rank.hlo", "convert from f32[4] to s32[2,2] changes the dimensions", 5, 3},
    {"reshape_type.hlo", "reshape from f32[4] to s8[2,2] changes the element type", 5, 3},
    {"bitcast_convert.hlo", "bitcast-convert from f32[4] to s16[4] does not preserve the bits", 5, 3},
    {"threefry.hlo", "cuda_threefry2x32 takes key0, key1, x0, x1, has 1 operands", 5, 3},
    {"threefry2.hlo", "cuda_threefry2x32 operand 2 is u32[2]; it must be u32 with 4 elements", 6, 3},
    {"overflow.hlo", "has more elements than a 64-bit size can count", 4, 3},
    {"token.hlo", "operand 0 (t) is token[], not an array of values", 5, 3},
    {"tuple_into_add.hlo", "negate: operand 0 must be an array, is (f32[4])", 6, 3},
    {"u4.hlo", "declared shape f32[4] but the operands give u4[4]", 5, 3},
    {"call.hlo", "to_apply f parameter 0 is f32[4] but is given s32[2] (a)", 10, 3},
    {"fusion_result.hlo", "calls fused returns f32[4,4] but the fusion is declared f32[4,2]", 10, 3},
    {"while_param.hlo", "condition cond parameter 0 is s32[2] but is given s32[]", 15, 3},
    {"sort_comparator.hlo", "comparator lt parameter 0 is s32[], needs f32[]", 11, 3},
    {"reduce_nodims.hlo", "reduce needs dimensions={...}", 12, 18},
    {"recursive_call.hlo", "c: the call graph has a cycle: f -> f", 5, 3},
    // Issue 21 (fuzzing): a segfault in `run` (the interpreter read the operand at the result's indices).
    {"allgather.hlo", "all-gather of f32[1,3] along dimension 1 cannot return f32[40000,6]: the other dimensions stay", 5, 3},
    {"allgather_dim.hlo", "all-gather dimension 2 is out of range for f32[1,3]", 5, 3},
    {"map_shapes.hlo", "map operand 1 is s32[]; every operand must have the result's dimensions, s32[4,4]", 12, 3},
    {"reducescatter.hlo", "reduce-scatter of f32[4,2] along dimension 0 cannot return f32[8,2]", 11, 3},
};

std::string error_of(const std::filesystem::path& p) {
  try {
    Module m = frontend::parse_hlo(frontend::read_file(p.string()), p.filename().string());
    verify(m);
  } catch (const Error& e) {
    return e.what();
  }
  return "NO ERROR";
}

TEST(VerifierIllTyped, EveryClassIsOneLocatedError) {
  const std::filesystem::path dir = std::filesystem::path(HLSGYM_SOURCE_DIR) / "tests/data/ill_typed";
  std::set<std::string> covered;
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.file);
    covered.insert(c.file);
    const std::string e = error_of(dir / c.file);
    EXPECT_NE(e.find(c.expected), std::string::npos) << e;
    if (c.line > 0) {
      EXPECT_EQ(e.rfind(fmt::format("{}:{}:{}: ", c.file, c.line, c.column), 0), 0u) << e;
    }
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  // A file added to the folder without a row here would be tested by nothing.
  for (const auto& f : std::filesystem::directory_iterator(dir))
    EXPECT_TRUE(covered.count(f.path().filename().string())) << f.path() << " has no expected message";
}

// A reduce (sort, reverse) without dimensions= was read as an identity.
TEST(VerifierIllTyped, ReduceSortReverseNeedDimensions) {
  const std::string add = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";
  auto error = [](const std::string& text) {
    try {
      verify(frontend::parse_hlo(text, "d.hlo"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("NO ERROR");
  };
  EXPECT_EQ(error("HloModule m\n\n" + add + "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                  "  ROOT r = f32[4] reduce(a, z), to_apply=add\n}\n"),
            "d.hlo:11:19: reduce needs dimensions={...}");
  EXPECT_EQ(error("HloModule m\n\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] reverse(a)\n}\n"),
            "d.hlo:5:19: reverse needs dimensions={...}");
  EXPECT_EQ(error("HloModule m\n\n" + add + "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                  "  ROOT r = f32[4] reduce(a, z), dimensions={}, to_apply=add\n}\n"),
            "NO ERROR");
}

// Shapes XLA's all-gather and reduce-scatter really take, from the real files: one
// replica ({{0}}) keeps the shape, two double (halve) the dimension, and torch_xla's
// variadic form passes a rank-0 companion operand through.
TEST(VerifierIllTyped, GatherAndScatterShapesThatAreRight) {
  const std::string add = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";
  for (const std::string body : {
           "  a = f32[1,3] parameter(0)\n  ROOT g = f32[1,6] all-gather(a), replica_groups={{0,1}}, dimensions={1}\n",
           "  a = f32[1,3] parameter(0)\n  ROOT g = f32[1,3] all-gather(a), replica_groups={{0}}, dimensions={1}\n",
           "  a = f32[4,3] parameter(0)\n  b = f32[] parameter(1)\n"
           "  ROOT g = (f32[4,3], f32[]) all-gather(a, b), replica_groups={{0}}, dimensions={0}\n",
           "  a = f32[4,2] parameter(0)\n  ROOT r = f32[2,2] reduce-scatter(a), replica_groups={{0,1}}, dimensions={0}, "
           "to_apply=add\n"}) {
    SCOPED_TRACE(body);
    EXPECT_NO_THROW(verify(frontend::parse_hlo("HloModule m\n\n" + add + "ENTRY e {\n" + body + "}\n", "ok.hlo")));
  }
}

// The rank-0 pass-through the verifier allows: the interpreter indexed dimension 0 of a
// scalar (a segfault found next to the fuzzed all-gather above).
TEST(VerifierIllTyped, AScalarAllGatherIsTheIdentity) {
  const Module m = frontend::parse_hlo(
      "HloModule m\n\nENTRY e {\n  a = f32[] parameter(0)\n"
      "  ROOT g = f32[] all-gather(a), replica_groups={{0,1}}, dimensions={0}\n}\n", "s.hlo");
  verify(m);
  const std::vector<Literal> args = random_inputs(m, 3);
  EXPECT_EQ(evaluate(m, args).value, args[0]);
}

}  // namespace
}  // namespace hlsgym::ir
