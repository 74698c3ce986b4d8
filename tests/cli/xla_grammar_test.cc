// Issue 17: a module using inline operands, async chains (sugared, generic, collective)
// and a 1-tuple reduce goes through every subcommand that reads a design: parsed,
// verified, interpreted, optimized with its outputs checked, and estimated.
#include <gtest/gtest.h>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {

std::string grammar_module() {
  return "'" + (source_dir() / "tests/data/xla_grammar/inline_async_tuple_reduce.hlo").string() + "'";
}

TEST(XlaGrammarCli, EverySubcommandReadsTheModule) {
  for (const char* cmd : {"stats", "run", "print", "report --lenient"}) {
    SCOPED_TRACE(cmd);
    const CliResult r = run_cli(std::string(cmd) + " " + grammar_module());
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

TEST(XlaGrammarCli, OptimizedOutputsAreChecked) {
  const CliResult r = run_cli("optimize --check " + grammar_module());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("check             passed"), std::string::npos) << r.out;
}

TEST(XlaGrammarCli, AsyncChainsPrintAsTheirSynchronousOps) {
  const CliResult r = run_cli("print " + grammar_module());
  EXPECT_NE(r.out.find("th = f32[4,3] tanh(reshape.anon)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sc = f32[4,3] call(q), to_apply=scaled"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sum = f32[4,3] all-reduce(add.anon), to_apply=add, replica_groups={}"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("-start"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hlsgym::testing
