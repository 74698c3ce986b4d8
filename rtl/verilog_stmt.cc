#include "rtl/verilog_stmt.h"

namespace hlsgym::rtl::verilog_detail {

std::string print(const Stmts& list, int depth, const StmtPrint& how) {
  const std::string pad(static_cast<size_t>(2 * depth), ' ');
  std::string out;
  for (const Stmt& s : list) {
    if (!s.cond.empty()) {
      out += pad + "if (" + s.cond + ") begin\n" + print(s.then_, depth + 1, how) + pad + "end else begin\n" +
             print(s.else_, depth + 1, how) + pad + "end\n";
      continue;
    }
    const std::string target = how.rename ? how.rename(s.target) : s.target;
    if (!target.empty()) out += pad + target + " " + how.op + " " + s.value + ";\n";
  }
  return out;
}

}  // namespace hlsgym::rtl::verilog_detail
