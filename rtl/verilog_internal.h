// Private to verilog*.cc: the text being built and the helpers every part uses.
// Everything emitted is Verilog-2005 (Yosys reads it without -sv) and is written to be
// clean under `verilator --lint-only -Wall`: every constant is sized, every select is
// static, every combinational variable gets a default before it is read.
#pragma once
#include <fmt/core.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rtl/plan.h"
#include "rtl/rtl.h"

namespace hlsgym::rtl::verilog_detail {

// Bits to hold the values 0..max (at least 1).
int bits_for(int64_t max);
// A sized constant: 8'd5, 64'h...; `bits` is masked to `width`.
std::string sized(int width, uint64_t bits);
// "[W-1:0] " or "" for one bit.
std::string range(int width);
// `name` (of `from_width` bits, signed or not) sign/zero-extended or truncated to `to`.
std::string resize(const std::string& name, int from_width, bool is_signed, int to);

struct Text {
  std::string decls;   // declarations (module scope)
  std::string logic;   // always blocks and assigns
  void decl(const std::string& s) { decls += s + "\n"; }
  void line(const std::string& s) { logic += s + "\n"; }
};

class Emitter {
 public:
  Emitter(const Plan& p) : plan(p), read(p.tracks.size()), writes(p.tracks.size()) {
    for (size_t k = 0; k < p.tracks.size(); ++k) read[k].assign(static_cast<size_t>(p.tracks[k].bytes * 8), false);
  }
  const Plan& plan;
  Text text;
  Inventory inv;
  std::vector<std::vector<bool>> read;       // per track: bits some logic reads
  std::vector<std::string> writes;           // per track: statements of its clocked block
  std::map<std::string, std::string> functions;  // popcount/clz helpers by name
  std::set<std::string> unused;              // selects of bits dropped on purpose (truncations)

  // `name` resized like resize(); bits a truncation drops are recorded in `unused`.
  std::string narrow(const std::string& name, int from_width, bool is_signed, int to);

  // A static select of element `index` of buffer `buffer` read at element type `type`
  // (its datapath bits); marks the bits as read.
  std::string element(int buffer, ir::ElementType type, int64_t index);
  // Verilog for one source at the leaf type's datapath width.
  std::string source(const Source& s, ir::ElementType type);
  // The target bits of element `index` of `buffer` at its own type (storage width).
  std::string element_lhs(int buffer, int64_t index) const;
  // `value` (datapath width of `type`) widened to the storage width of `type`.
  static std::string to_storage(const std::string& value, ir::ElementType type);
};

// Statements computing expression node `n` into `dst`; `args` are the signal names of
// its arguments. Extra declarations it needs go to `e.text`.
std::string op_statement(Emitter& e, const Expr& x, int n, const std::string& dst, const std::vector<std::string>& args);

void emit_units(Emitter& e);

// The whole module; fills `inv`.
std::string emit_verilog(const Plan& p, Inventory& inv);

}  // namespace hlsgym::rtl::verilog_detail
