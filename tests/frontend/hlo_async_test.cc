// Issue 17: asynchronous HLO read as the synchronous op it computes (frontend/hlo_async.h).
// Cases modelled on XLA's hlo_parser_test.cc: AsyncOpsWithSyntaxSugar (custom-call-start/
// -update/-done), AsyncStartWithAliasing (a generic async-start calling a computation),
// AllReduceStartAndDone, CollectivePermuteStartAndDone, CopyStartAndCopyDone.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "tests/support/hlo_text.h"

namespace hlsgym::frontend {
namespace {
using testing::hlo_error;
using testing::print_round_trip;

std::string module(const std::string& computations, const std::string& entry_body) {
  return "HloModule m\n\n" + computations + "ENTRY e {\n" + entry_body + "}\n\n";
}

TEST(HloAsync, SugaredStartUpdateDoneIsTheWrappedOp) {
  EXPECT_EQ(print_round_trip(module("", "  p = f32[3] parameter(0)\n"
                                        "  s = ((f32[3]), f32[3], s32[]) exponential-start(p)\n"
                                        "  u = ((f32[3]), f32[3], s32[]) exponential-update(s)\n"
                                        "  ROOT d = f32[3] exponential-done(u)\n")),
            module("", "  p = f32[3] parameter(0)\n  ROOT d = f32[3] exponential(p)\n"));
}

// The wrapped op's attributes are written on the start.
TEST(HloAsync, SugaredStartKeepsTheWrappedOpsAttributes) {
  EXPECT_EQ(print_round_trip(module("", "  p = s32[2,3] parameter(0)\n"
                                        "  s = ((s32[2,3]), s32[3,2], s32[]) transpose-start(p), dimensions={1,0}\n"
                                        "  ROOT d = s32[3,2] transpose-done(s)\n")),
            module("", "  p = s32[2,3] parameter(0)\n  ROOT d = s32[3,2] transpose(p), dimensions={1,0}\n"));
  const std::string custom = print_round_trip(
      module("", "  p0 = f32[10] parameter(0)\n"
                 "  st = ((f32[10]), f32[20], s32[]) custom-call-start(p0), custom_call_target=\"foo\"\n"
                 "  up = ((f32[10]), f32[20], s32[]) custom-call-update(st)\n"
                 "  ROOT dn = f32[20] custom-call-done(up)\n"));
  EXPECT_NE(custom.find("ROOT dn = f32[20] custom-call(p0), custom_call_target=\"foo\""), std::string::npos) << custom;
}

TEST(HloAsync, GenericStartBecomesACallOfItsComputation) {
  const std::string wrapped =
      "wrapped {\n  t = (f32[4], f32[4]) parameter(0)\n  a = f32[4] get-tuple-element(t), index=0\n"
      "  b = f32[4] get-tuple-element(t), index=1\n  ROOT m = f32[4] multiply(a, b)\n}\n\n";
  EXPECT_EQ(print_round_trip(module(wrapped, "  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
                                             "  t = (f32[4], f32[4]) tuple(x, y)\n"
                                             "  s = (((f32[4], f32[4])), f32[4], u32[]) async-start(t), calls=wrapped\n"
                                             "  ROOT d = f32[4] async-done(s), calls=wrapped\n")),
            module(wrapped, "  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
                            "  t = (f32[4], f32[4]) tuple(x, y)\n  ROOT d = f32[4] call(t), to_apply=wrapped\n"));
}

TEST(HloAsync, CollectiveAndCopyPairsAreTheirSynchronousOps) {
  const std::string add = "add {\n  l = f32[] parameter(0)\n  r = f32[] parameter(1)\n  ROOT s = f32[] add(l, r)\n}\n\n";
  EXPECT_EQ(print_round_trip(module(add, "  in = f32[8] parameter(0)\n"
                                         "  ars = f32[8] all-reduce-start(in), replica_groups={}, to_apply=add\n"
                                         "  ard = f32[8] all-reduce-done(ars)\n"
                                         "  cps = (f32[8], f32[8], u32[], u32[]) collective-permute-start(ard), "
                                         "source_target_pairs={{0,1},{1,0}}\n"
                                         "  cpd = f32[8] collective-permute-done(cps)\n"
                                         "  ags = (f32[8], f32[16]) all-gather-start(cpd), replica_groups={}, dimensions={0}\n"
                                         "  agd = f32[16] all-gather-done(ags)\n"
                                         "  cs = (f32[16], f32[16], u32[]) copy-start(agd)\n"
                                         "  ROOT cd = f32[16] copy-done(cs)\n")),
            module(add, "  in = f32[8] parameter(0)\n"
                        "  ard = f32[8] all-reduce(in), to_apply=add, replica_groups={}\n"
                        "  cpd = f32[8] collective-permute(ard), source_target_pairs={{0,1},{1,0}}\n"
                        "  agd = f32[16] all-gather(cpd), dimensions={0}, replica_groups={}\n"
                        "  ROOT cd = f32[16] copy(agd)\n"));
}

TEST(HloAsync, TheDoneHasTheWrappedOpsValue) {
  const ir::Module m = parse_hlo(module("", "  c = f32[3] constant({1, -2, 0.5})\n"
                                            "  s = ((f32[3]), f32[3], s32[]) negate-start(c)\n"
                                            "  ROOT d = f32[3] negate-done(s)\n"),
                                 "m.hlo");
  EXPECT_EQ(ir::evaluate(m, {}).value.to_string(), "{-1, 2, -0.5}");
}

TEST(HloAsync, ChainsXlaRefusesAreLocatedErrors) {
  EXPECT_EQ(hlo_error(module("", "  p = f32[3] parameter(0)\n  s = ((f32[3]), f32[3], s32[]) negate-start(p)\n"
                                 "  ROOT r = f32[3] abs(p)\n")),
            "m.hlo:5:3: 's' (negate-start) has no matching done");
  EXPECT_EQ(hlo_error(module("", "  p = f32[3] parameter(0)\n  s = ((f32[3]), f32[3], s32[]) negate-start(p)\n"
                                 "  d = f32[3] negate-done(s)\n  ROOT t = (((f32[3]), f32[3], s32[]), f32[3]) tuple(s, d)\n")),
            "m.hlo:5:3: 's' (negate-start) is used by 't' (tuple); an async state may only flow start -> update* -> done");
  EXPECT_EQ(hlo_error(module("", "  p = ((f32[3]), f32[3], s32[]) parameter(0)\n  ROOT d = f32[3] async-done(p)\n")),
            "m.hlo:5:3: 'd' (async-done) must take its start's state, not 'p' (parameter)");
  EXPECT_EQ(hlo_error(module("", "  p = f32[3] parameter(0)\n  s = ((f32[3]), f32[3], s32[]) negate-start(p)\n"
                                 "  ROOT d = f32[4] negate-done(s)\n")),
            "m.hlo:6:3: 'd' (async-done) is f32[4] but 's' (negate-start)'s state ((f32[3]), f32[3], s32[]) does not hold "
            "that result at index 1");
  EXPECT_EQ(hlo_error(module("", "  p = f32[3] parameter(0)\n  ROOT s = negate-start(p)\n")),
            "m.hlo:5:12: negate-start needs its async state's shape, e.g. ((operands), result, s32[])");
  EXPECT_EQ(hlo_error(module("", "  p = f32[3] parameter(0)\n  ROOT s = f32[3] frobnicate-start(p)\n")),
            "m.hlo:5:19: unknown opcode 'frobnicate-start'");
}

}  // namespace
}  // namespace hlsgym::frontend
