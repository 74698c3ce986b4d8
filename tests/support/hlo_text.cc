#include "tests/support/hlo_text.h"

#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace hlsgym::testing {

std::string print_round_trip(const std::string& text, const std::string& file) {
  ir::Module m = frontend::parse_hlo(text, file);
  ir::verify(m);
  const std::string once = ir::print_module(m);
  ir::Module again = frontend::parse_hlo(once, "printed.hlo");
  ir::verify(again);
  EXPECT_EQ(ir::print_module(again), once) << "print(parse(x)) is not a fixed point";
  return once;
}

std::string hlo_error(const std::string& text, const std::string& file) {
  try {
    ir::verify(frontend::parse_hlo(text, file));
  } catch (const Error& e) {
    return e.what();
  }
  return "NO ERROR";
}

}  // namespace hlsgym::testing
