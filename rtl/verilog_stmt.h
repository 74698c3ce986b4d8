// Statements of an always block kept as data. The loop counters' block is printed once as
// clocked logic (`<=`) and again, restricted to the counters and renamed `<counter>_next`,
// as the combinational block of their next values that a next-address register reads
// (verilog_units.cc, emit_next_counters): one list, two prints, so the two blocks cannot
// disagree and neither is parsed back out of Verilog text.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace hlsgym::rtl::verilog_detail {

struct Stmt {
  std::string target, value;           // `target <op> value;` when `cond` is empty
  std::string cond;                    // else `if (cond) begin then_ end else begin else_ end`
  std::vector<Stmt> then_, else_;
};
using Stmts = std::vector<Stmt>;

inline Stmt assign(std::string target, std::string value) { return Stmt{std::move(target), std::move(value), {}, {}, {}}; }
inline Stmt if_else(std::string cond, Stmts then_, Stmts else_) {
  return Stmt{{}, {}, std::move(cond), std::move(then_), std::move(else_)};
}
inline void append(Stmts& to, const Stmts& more) { to.insert(to.end(), more.begin(), more.end()); }

// How a list prints: `op` "<=" (clocked) or "=" (combinational). `rename` maps an
// assignment's target to the name printed, or to "" to leave the assignment out (an `if`
// keeps its shell, so the two prints have the same structure). Two spaces per level.
struct StmtPrint {
  const char* op = "<=";
  std::function<std::string(const std::string&)> rename;
};

std::string print(const Stmts& list, int depth, const StmtPrint& how = {});

}  // namespace hlsgym::rtl::verilog_detail
