// Attributes: a missing required attribute (iota without iota_dimension) or an unknown
// attribute name (`ENTRY=add` where `to_apply=add` was meant) is one located error, not a
// module that reads out of bounds or silently drops what the user wrote.
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::frontend {
namespace {

std::string error_of(const std::string& text) {
  try {
    ir::Module m = parse_hlo(text, "in.hlo");
    ir::verify(m);
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("WRONG EXCEPTION TYPE: ") + e.what();
  }
  return "NO ERROR";
}

const std::string kAdd = "HloModule m\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n";

TEST(RequiredAttributes, IotaWithoutIotaDimensionIsAnError) {
  // Before: accepted, and `run` printed [33,33,33,33,33] (an out-of-bounds read).
  const std::string e = error_of("HloModule m\n\nENTRY e {\n  ROOT i = s32[5] iota()\n}\n");
  EXPECT_NE(e.find("in.hlo:4:"), std::string::npos) << e;
  EXPECT_NE(e.find("iota needs iota_dimension="), std::string::npos) << e;
  const std::string out = error_of("HloModule m\n\nENTRY e {\n  ROOT i = s32[5] iota(), iota_dimension=1\n}\n");
  EXPECT_NE(out.find("iota_dimension=1 is outside s32[5]"), std::string::npos) << out;
  EXPECT_EQ(error_of("HloModule m\n\nENTRY e {\n  ROOT i = s32[5] iota(), iota_dimension=0\n}\n"), "NO ERROR");
}

TEST(RequiredAttributes, OtherRequiredAttributes) {
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT c = pred[2] compare(a, a)\n}\n")
                .find("compare needs direction="),
            std::string::npos);
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT r = f32[2] reduce-precision(a)\n}\n")
                .find("reduce-precision needs exponent_bits="),
            std::string::npos);
}

// Found by scripts/fuzz_cli.py: a YAML scatter with two arguments (a result of no arrays)
// segfaulted optimize --check.
TEST(RequiredAttributes, ScatterNeedsOperandsIndicesAndUpdates) {
  EXPECT_NE(error_of(kAdd + "ENTRY e {\n  a = f32[4] parameter(0)\n  i = s32[1,1] parameter(1)\n"
                            "  ROOT s = () scatter(a, i), update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n")
                .find("scatter needs N operands, the scatter indices and N updates"),
            std::string::npos);
}

TEST(RequiredAttributes, GatherScatterCustomCallRng) {
  // Found by scripts/fuzz_cli.py: a gather without slice_sizes segfaulted the interpreter.
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[4,3] parameter(0)\n  i = s32[1] parameter(1)\n"
                     "  ROOT g = f32[3] gather(a, i), offset_dims={0}, collapsed_slice_dims={0}, start_index_map={0}, "
                     "index_vector_dim=0\n}\n")
                .find("gather needs"),
            std::string::npos);
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[4,3] parameter(0)\n  i = s32[1] parameter(1)\n"
                     "  ROOT g = f32[3] gather(a, i)\n}\n")
                .find("gather needs"),
            std::string::npos);
  EXPECT_NE(error_of(kAdd + "ENTRY e {\n  a = f32[4] parameter(0)\n  i = s32[1,1] parameter(1)\n  u = f32[1] parameter(2)\n"
                            "  ROOT s = f32[4] scatter(a, i, u), to_apply=add\n}\n")
                .find("scatter needs"),
            std::string::npos);
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT c = f32[4] custom-call(a)\n}\n")
                .find("custom-call needs custom_call_target="),
            std::string::npos);
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                     "  ROOT r = f32[4] rng(a, b)\n}\n")
                .find("rng needs distribution="),
            std::string::npos);
}

TEST(RequiredAttributes, CalledComputations) {
  // Found by scripts/fuzz_cli.py: a reduce whose to_apply= was dropped segfaulted --check.
  EXPECT_NE(error_of(kAdd + "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                            "  ROOT r = f32[] reduce(a, z), dimensions={0}\n}\n")
                .find("in.hlo:12:3: r: reduce needs to_apply="),
            std::string::npos);
  EXPECT_NE(error_of(kAdd + "ENTRY e {\n  a = f32[4] parameter(0)\n  i = s32[1,1] parameter(1)\n  u = f32[1] parameter(2)\n"
                            "  ROOT s = f32[4] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, index_vector_dim=1, metadata={op_name=\"x\"}\n}\n")
                .find("scatter needs to_apply="),
            std::string::npos);
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT s = f32[4] sort(a), dimensions={0}\n}\n")
                .find("sort needs to_apply="),
            std::string::npos);
}

TEST(RequiredAttributes, UnknownAttributeNamesAreErrors) {
  // The case: ENTRY= where to_apply= was meant; before, the reduce had no
  // computation and the attribute was kept as an opaque one.
  const std::string e = error_of(kAdd +
                                 "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                                 "  ROOT r = f32[] reduce(a, z), dimensions={0}, ENTRY=add\n}\n");
  EXPECT_NE(e.find("in.hlo:12:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown attribute 'ENTRY' for reduce"), std::string::npos) << e;
  const std::string typo = error_of(kAdd +
                                    "ENTRY e {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                                    "  ROOT r = f32[] reduce(a, z), dimension={0}, to_apply=add\n}\n");
  EXPECT_NE(typo.find("unknown attribute 'dimension' for reduce; did you mean 'dimensions'?"), std::string::npos) << typo;
  // An attribute hlsgym reads for one opcode only is unknown on another.
  EXPECT_NE(error_of("HloModule m\n\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT n = f32[2] negate(a), index=1\n}\n")
                .find("unknown attribute 'index' for negate"),
            std::string::npos);
  EXPECT_NE(error_of(kAdd + "ENTRY e {\n  a = f32[] parameter(0)\n  ROOT n = f32[] negate(a), body=add\n}\n")
                .find("attribute 'body' does not apply to negate"),
            std::string::npos);
}

TEST(RequiredAttributes, AttributesXlaWritesAreStillKept) {
  EXPECT_EQ(error_of("HloModule m\n\nENTRY e {\n  a = f32[2] parameter(0), sharding={replicated}\n"
                     "  ROOT n = f32[2] negate(a), metadata={op_name=\"x\"}, frontend_attributes={a=\"b\"}, "
                     "backend_config=\"{}\"\n}\n"),
            "NO ERROR");
}

TEST(RequiredAttributes, YamlIotaWithoutDimensionIsAnError) {
  try {
    load_yaml_design("design: d\nops:\n  - {name: i, op: iota, type: \"s32[5]\"}\noutputs: [i]\n", "in.yaml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iota needs iota_dimension="), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("in.yaml:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace hlsgym::frontend
