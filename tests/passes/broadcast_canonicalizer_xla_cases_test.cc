// broadcast_canonicalizer: every case of XLA's broadcast_canonicalizer_test.cc
// (openxla/xla xla/hlo/transforms/simplifiers/broadcast_canonicalizer_test.cc at
// 73d973412746940ae206c6c5190d3a0a19ffd225; not under xla/service/ at the commits the
// other rows read), each a golden test: XLA's HLO text in; the instructions XLA's
// FileCheck lines name (shape with layout, operands, dimensions), or no change, out; the
// interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

const char* const kPass = "broadcast_canonicalizer";

// "shape opcode dimensions" of an instruction, e.g. "f32[3,2,2]{2,1,0} transpose {1,0,2}";
// a shape without a layout is printed with the default one ({2,1,0} for rank 3), as XLA does.
std::string line(const ir::Module& m, ir::InstrId i) {
  std::string dims, layout;
  for (int64_t d : m.attrs(i).dimensions) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  for (int64_t d = m.shape(i).rank(); d-- > 0;) layout += std::to_string(d) + (d ? "," : "");
  const std::string shape = m.shape(i).to_string(false) + "{" + layout + "}";
  EXPECT_TRUE(m.shape(i).to_string() == shape || m.shape(i).to_string() == m.shape(i).to_string(false))
      << "not the default layout: " << m.shape(i).to_string();
  return shape + " " + std::string(ir::name(m.opcode(i))) + " {" + dims + "}";
}

// XLA's reshape(broadcast(parameter)) module: `param`, `bcast` and `reshape` are the
// three instructions' shapes, `dims` the broadcast's dimensions. The result must be
// reshape(broadcast(transpose(parameter))) with the transpose and broadcast `t` and `b`
// (their line()), and no other transpose.
void expect_transposed_first(const std::string& param, const std::string& bcast, const std::string& dims,
                             const std::string& reshape, const std::string& t, const std::string& b) {
  const ir::Module m = testing::run_golden(
      kPass,
      "HloModule fusion.1644\nENTRY fusion.1644 {\n parameter.2 = " + param + " parameter(0)\n %broadcast.399 = " +
          bcast + " broadcast(%parameter.2), dimensions={" + dims + "}\n ROOT %reshape.43 = " + reshape +
          " reshape(%broadcast.399)\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m), "reshape(broadcast(transpose(parameter(0))))");
  const ir::InstrId root = m.computation(m.entry()).root, broadcast = m.operand(root, 0);
  EXPECT_EQ(line(m, m.operand(broadcast, 0)), t);
  EXPECT_EQ(line(m, broadcast), b);
  EXPECT_EQ(m.shape(root).to_string(), reshape);
  EXPECT_EQ(testing::count_opcode(m, m.entry(), ir::Opcode::kTranspose), 1);
}

TEST(BroadcastCanonicalizerXla, ReshapeBroadcast) {
  expect_transposed_first("f32[2,3,2]{2,1,0}", "f32[3,2,8,2]{3,2,1,0}", "1,0,3", "f32[3,16,1,2]{3,2,1,0}",
                          "f32[3,2,2]{2,1,0} transpose {1,0,2}", "f32[3,2,8,2]{3,2,1,0} broadcast {0,1,3}");
}

TEST(BroadcastCanonicalizerXla, ReshapeBroadcast22) {
  expect_transposed_first("f32[5,6,7]{2,1,0}", "f32[8,7,9,5,6]{4,3,2,1,0}", "3,4,1", "f32[8,7,45,1,6]{4,3,2,1,0}",
                          "f32[7,5,6]{2,1,0} transpose {2,0,1}", "f32[8,7,9,5,6]{4,3,2,1,0} broadcast {1,3,4}");
}

TEST(BroadcastCanonicalizerXla, Rank1OperandNoTranspose) {
  testing::run_golden(kPass,
                      "HloModule fusion.1644\nENTRY fusion.1644 {\n parameter.2 = f32[2]{0} parameter(0)\n"
                      " ROOT %broadcast.399 = f32[2,3,8,2]{3,2,1,0} broadcast(%parameter.2), dimensions={0}\n}\n",
                      false);
}

// The called computation is rewritten once, in place; both calls still call it.
TEST(BroadcastCanonicalizerXla, CalledComputationTwice) {
  const ir::Module m = testing::run_golden(
      kPass,
      "HloModule module\nfoo {\n param = f32[2,3,2]{2,1,0} parameter(0)\n"
      " ROOT broadcast = f32[3,2,8,2]{3,2,1,0} broadcast(param), dimensions={1,0,3}\n}\n"
      "ENTRY entry {\n p0 = f32[2,3,2]{2,1,0} parameter(0)\n p1 = f32[2,3,2]{2,1,0} parameter(1)\n"
      " call.0 = f32[3,2,8,2]{3,2,1,0} call(p0), to_apply=foo\n call.1 = f32[3,2,8,2]{3,2,1,0} call(p1), to_apply=foo\n"
      " ROOT add = f32[3,2,8,2]{3,2,1,0} add(call.0, call.1)\n}\n",
      true);
  const ir::InstrId root = m.computation(m.entry()).root;
  const ir::CompId foo = m.called(m.operand(root, 0))[0];
  EXPECT_EQ(m.called(m.operand(root, 1))[0], foo);
  EXPECT_EQ(m.computation(foo).name, "foo");
  EXPECT_EQ(m.instruction_count(foo), 3u);
  const ir::InstrId bcast = m.computation(foo).root, t = m.operand(bcast, 0);
  EXPECT_EQ(testing::expression(m, bcast), "broadcast(transpose(parameter(0)))");
  EXPECT_EQ(line(m, t), "f32[3,2,2]{2,1,0} transpose {1,0,2}");
  EXPECT_EQ(line(m, bcast), "f32[3,2,8,2]{3,2,1,0} broadcast {0,1,3}");
}

}  // namespace
}  // namespace hlsgym::passes
