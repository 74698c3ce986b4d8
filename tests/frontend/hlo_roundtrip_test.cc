// Every real XLA HLO file parses; printing is a fixed point after one round; the
// instruction count equals the count of `name = ...` lines in the text.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/printer.h"
#include "tests/support/test_data.h"

namespace hlsgym::frontend {
namespace {

// Counts instruction definitions the way MODELS.md counts them: inside computation
// bodies, a line whose first token is a name (optionally ROOT) followed by " = ".
size_t count_instruction_lines(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  size_t n = 0;
  int depth = 0;
  bool in_body = false;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string_view l(line);
    l.remove_prefix(b);
    if (!in_body) {
      // A computation header ends with '{' (possibly followed by a comment).
      size_t brace = l.rfind('{');
      if (l.rfind("HloModule", 0) == 0 || brace == std::string_view::npos) continue;
      std::string_view tail = l.substr(brace + 1);
      size_t nb = tail.find_first_not_of(" \t");
      if (nb != std::string_view::npos && tail.substr(nb, 2) != "//") continue;
      if (l.find(" = ") != std::string_view::npos && l.find("->") == std::string_view::npos) continue;
      in_body = true;
      depth = 1;
      continue;
    }
    if (l[0] == '}') {
      in_body = false;
      continue;
    }
    if (l.rfind("ROOT ", 0) == 0) l.remove_prefix(5);
    size_t eq = l.find(" = ");
    if (eq == std::string_view::npos) continue;
    std::string_view name = l.substr(0, eq);
    if (name.find_first_of(" ,(){}\"") == std::string_view::npos) ++n;
  }
  (void)depth;
  return n;
}

TEST(HloRoundTrip, EveryRealFileParsesPrintsAndReparses) {
  auto files = testing::all_hlo_files();
  ASSERT_GE(files.size(), 100u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string text = read_file(path.string());
    ir::Module m;
    try {
      m = parse_hlo(text, path.string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(m.instruction_count(), count_instruction_lines(text));
    const std::string once = ir::print_module(m);
    ir::Module again;
    try {
      again = parse_hlo(once, "printed");
    } catch (const std::exception& e) {
      ADD_FAILURE() << "printed text does not parse: " << e.what();
      continue;
    }
    EXPECT_EQ(again.instruction_count(), m.instruction_count());
    const std::string twice = ir::print_module(again);
    EXPECT_TRUE(once == twice) << "print(parse(x)) is not a fixed point";
  }
}

}  // namespace
}  // namespace hlsgym::frontend
