// computation-deduplicator: every case of XLA's hlo_computation_deduplicator_test.cc
// (openxla/xla xla/service/hlo_computation_deduplicator_test.cc at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), each written as a golden test: HLO in (the
// last case, built with the C++ API in XLA, generated as text); the computations left
// out; the interpreter agreeing.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

// Runs the pass on `text`; returns the names of the computations left.
std::vector<std::string> deduplicate(const std::string& text, bool expect_change) {
  const ir::Module m = testing::run_golden("computation-deduplicator", text, expect_change);
  std::vector<std::string> names;
  for (ir::CompId c : m.live_computations()) names.push_back(m.computation(c).name);
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::string kHeader = "HloModule DeDupTest\n";

std::string region(const std::string& name, const std::string& body) {
  return name + " {\n Arg_0 = s32[] parameter(0)\n Arg_1 = s32[] parameter(1)\n ROOT r = s32[] " + body + "\n}\n";
}

// Two reduces of s32[10] and s32[15] with regions `a` and `b`, multiplied.
std::string two_reduces(const std::string& a, const std::string& b, const std::string& entry = "ENTRY main.15") {
  return entry + " {\n Arg_0.1 = s32[10] parameter(0)\n constant.3 = s32[] constant(0)\n"
         " rd1 = s32[] reduce(Arg_0.1, constant.3), dimensions={0}, to_apply=" + a + "\n"
         " Arg_1.2 = s32[15] parameter(1)\n rd2 = s32[] reduce(Arg_1.2, constant.3), dimensions={0}, to_apply=" + b + "\n"
         " ROOT multiply.14 = s32[] multiply(rd1, rd2)\n}\n";
}

TEST(ComputationDeduplicatorXla, RemoveRegionBandC) {
  const auto names = deduplicate(
      kHeader + "region_A {\n Arg_0.6 = s32[] parameter(0)\n Arg_1.7 = s32[] parameter(1)\n ROOT add.8 = s32[] add(Arg_0.6, Arg_1.7)\n}\n"
      "region_B {\n Arg_0.11 = s32[] parameter(0)\n Arg_1.12 = s32[] parameter(1)\n ROOT add.13 = s32[] add(Arg_0.11, Arg_1.12)\n}\n"
      "region_C {\n Arg_0.17 = s32[] parameter(0)\n Arg_1.18 = s32[] parameter(1)\n ROOT add.19 = s32[] add(Arg_0.17, Arg_1.18)\n}\n"
      "ENTRY main.22 {\n Arg_0.1 = s32[10] parameter(0)\n Arg_1.2 = s32[15] parameter(1)\n Arg_2.3 = s32[20] parameter(2)\n"
      " constant.4 = s32[] constant(0)\n reduce.9 = s32[] reduce(Arg_0.1, constant.4), dimensions={0}, to_apply=region_A\n"
      " reduce.14 = s32[] reduce(Arg_1.2, constant.4), dimensions={0}, to_apply=region_B\n"
      " reduce.20 = s32[] reduce(Arg_2.3, constant.4), dimensions={0}, to_apply=region_C\n"
      " multiply.15 = s32[] multiply(reduce.9, reduce.14)\n ROOT multiply.21 = s32[] multiply(multiply.15, reduce.20)\n}\n",
      true);
  EXPECT_FALSE(has(names, "region_B"));
  EXPECT_FALSE(has(names, "region_C"));
  EXPECT_EQ(names.size(), 2u);
}

TEST(ComputationDeduplicatorXla, RemoveRegionBExactCopy) {
  const auto names = deduplicate(kHeader + region("region_A", "add(Arg_0, Arg_1)") + region("region_B", "add(Arg_0, Arg_1)") +
                                     two_reduces("region_A", "region_B"),
                                 true);
  EXPECT_FALSE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 2u);
}

// main.15 and main.16 each reduce with two regions; main.17 calls both. `x_op` is
// region_X's operation (the other regions add).
std::string nested(const std::string& x_op) {
  return kHeader + region("region_X", x_op + "(Arg_0, Arg_1)") + region("region_Y", "add(Arg_0, Arg_1)") +
         region("region_A", "add(Arg_0, Arg_1)") + region("region_B", "add(Arg_0, Arg_1)") +
         two_reduces("region_X", "region_Y", "main.15") + two_reduces("region_A", "region_B", "main.16") +
         "ENTRY main.17 {\n Arg_0 = s32[10] parameter(0)\n Arg_1 = s32[15] parameter(1)\n"
         " rd1 = s32[] call(Arg_0, Arg_1), to_apply=main.15\n rd2 = s32[] call(Arg_0, Arg_1), to_apply=main.16\n"
         " ROOT ret = add(rd1, rd2)\n}\n";
}

TEST(ComputationDeduplicatorXla, RemoveRegionsWithSameSubcomp) {
  const auto names = deduplicate(nested("add"), true);
  for (const char* gone : {"region_B", "region_A", "region_Y", "main.16"}) EXPECT_FALSE(has(names, gone)) << gone;
  EXPECT_EQ(names.size(), 3u);
}

TEST(ComputationDeduplicatorXla, DontRemoveRegionsWithDifferentSubcomp) {
  const auto names = deduplicate(nested("multiply"), true);
  for (const char* gone : {"region_A", "region_B"}) EXPECT_FALSE(has(names, gone)) << gone;
  for (const char* kept : {"main.15", "main.16", "region_X", "region_Y"}) EXPECT_TRUE(has(names, kept)) << kept;
}

TEST(ComputationDeduplicatorXla, RemoveRegionBVarDifferences) {
  const auto names = deduplicate(
      kHeader + "region_A {\n Arg_0.5 = s32[] parameter(0)\n Arg_1.6 = s32[] parameter(1)\n ROOT add.7 = s32[] add(Arg_0.5, Arg_1.6)\n}\n"
      "region_B {\n Arg_0.2 = s32[] parameter(0)\n Arg_1.3 = s32[] parameter(1)\n ROOT add.8 = s32[] add(Arg_0.2, Arg_1.3)\n}\n" +
          two_reduces("region_A", "region_B"),
      true);
  EXPECT_FALSE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 2u);
}

TEST(ComputationDeduplicatorXla, DontRemoveRegionBCommutative) {
  const auto names = deduplicate(kHeader + region("region_A", "add(Arg_1, Arg_0)") + region("region_B", "add(Arg_0, Arg_1)") +
                                     two_reduces("region_A", "region_B"),
                                 false);
  EXPECT_TRUE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 3u);
}

// Over 1 KiB of constants (dead ones included): XLA leaves the regions alone.
TEST(ComputationDeduplicatorXla, DontRemoveRegionLargeConstant) {
  const auto names = deduplicate(kHeader +
            "region_A {\n Arg_00 = s32[] parameter(0)\n Arg_1_1 = s32[] parameter(1)\n"
      " Arg_0 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_1 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_2 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_3 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_4 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_5 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " add1 = s32[10,10] add(Arg_1, Arg_0)\n add2 = s32[10,10] add(Arg_2, Arg_3)\n add3 = s32[10,10] add(Arg_4, Arg_5)\n"
      " add8 = s32[10,10] add(add1, add2)\n addv = s32[10,10] add(add3, add8)\n ROOT ret = add(Arg_00, Arg_1_1)\n}\n"
      "region_B {\n Arg_00 = s32[] parameter(0)\n Arg_1_1 = s32[] parameter(1)\n"
      " Arg_0 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_1 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_2 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_3 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_4 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " Arg_5 = s32[10,10] constant({{1,2,3,4,5,6,7,8,9,10},{1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}, {1,2,3,4,5,6,7,8,9,10}})\n"
      " add1 = s32[10,10] add(Arg_1, Arg_0)\n add2 = s32[10,10] add(Arg_2, Arg_3)\n add3 = s32[10,10] add(Arg_4, Arg_5)\n"
      " add8 = s32[10,10] add(add1, add2)\n addv = s32[10,10] add(add3, add8)\n ROOT ret = add(Arg_00, Arg_1_1)\n}\n"
      + two_reduces("region_A", "region_B"),
      false);
  EXPECT_TRUE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 3u);
}

TEST(ComputationDeduplicatorXla, DontRemoveRegionBDifferentcomp) {
  const auto names = deduplicate(kHeader + region("region_A", "multiply(Arg_0, Arg_1)") +
                                     region("region_B", "add(Arg_0, Arg_1)") + two_reduces("region_A", "region_B"),
                                 false);
  EXPECT_TRUE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 3u);
}

TEST(ComputationDeduplicatorXla, DontRemoveRegionBDifferentType) {
  const auto names = deduplicate(
      "HloModule DeDupTest\n"
      "region_A {\n Arg_0.5 = s32[] parameter(0)\n Arg_1.6 = s32[] parameter(1)\n ROOT add.7 = s32[] multiply(Arg_0.5, Arg_1.6)\n}\n"
      "region_B {\n Arg_0.5 = s16[] parameter(0)\n Arg_1.6 = s16[] parameter(1)\n ROOT add.7 = s16[] multiply(Arg_0.5, Arg_1.6)\n}\n"
      "ENTRY main.15 {\n Arg_0.1 = s32[10] parameter(0)\n constant.3 = s32[] constant(5)\n"
      " rd1 = s32[] reduce(Arg_0.1, constant.3), dimensions={0}, to_apply=region_A\n Arg_1.2 = s16[15] parameter(1)\n"
      " constant.4 = s16[] constant(5)\n rd2 = s16[] reduce(Arg_1.2, constant.4), dimensions={0}, to_apply=region_B\n}\n",
      false);
  EXPECT_TRUE(has(names, "region_B"));
  EXPECT_EQ(names.size(), 3u);
}

// The entry (here named region_B) is never merged into the identical region_A.
TEST(ComputationDeduplicatorXla, DontRemoveRegionBEntryComp) {
  const auto names = deduplicate(kHeader + region("region_A1", "multiply(Arg_0, Arg_1)") +
                                     region("region_B1", "add(Arg_0, Arg_1)") +
                                     two_reduces("region_A1", "region_B1", "ENTRY region_B") +
                                     two_reduces("region_A1", "region_B1", "region_A"),
                                 false);
  EXPECT_EQ(names.size(), 4u);
}

// Two identical regions of 130 instructions (two parameters, a chain of 128 adds):
// over XLA's 128.
TEST(ComputationDeduplicatorXla, LargeSubComputationTest) {
  std::string text = "HloModule m\n";
  for (int r = 0; r < 2; ++r) {
    text += "region_" + std::to_string(r) + " {\n a0 = s32[] parameter(0)\n n0 = s32[] parameter(1)\n";
    for (int i = 0; i < 128; ++i)
      text += (i == 127 ? " ROOT n" : " n") + std::to_string(i + 1) + " = s32[] add(a0, n" + std::to_string(i) + ")\n";
    text += "}\n";
  }
  text += "ENTRY main_func {\n a0 = s32[10] parameter(0)\n c0 = s32[] constant(5)\n a1 = s32[10] parameter(1)\n"
          " c1 = s32[] constant(6)\n r0 = s32[] reduce(a0, c0), dimensions={0}, to_apply=region_0\n"
          " r1 = s32[] reduce(a0, c0), dimensions={0}, to_apply=region_1\n ROOT t = (s32[], s32[]) tuple(r0, r1)\n}\n";
  EXPECT_EQ(deduplicate(text, false).size(), 3u);
}

}  // namespace
}  // namespace hlsgym::passes
