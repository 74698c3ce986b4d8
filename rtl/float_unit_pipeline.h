// Private to float_unit*.cc: a pipelined datapath written stage by stage. Logic is
// combinational wires of the current stage; next_stage() is a register boundary; reading
// a signal of an earlier stage (at) brings it forward through delay registers, made once
// per signal and stage, so only what a later stage reads is carried. The module text is
// Verilog-2005 and lint-clean under verilator -Wall (bits dropped on purpose are listed
// in one `unused_bits` wire, which Verilator's default unused pattern ignores).
#pragma once
#include <fmt/core.h>

#include <map>
#include <string>
#include <vector>

namespace hlsgym::rtl::float_detail {

struct Sig {
  std::string name;
  int width = 1;
  int stage = 0;
};

class Pipeline {
 public:
  explicit Pipeline(std::string module) : module_(std::move(module)) {}

  Sig input(const std::string& name, int width);
  // `wire [width-1:0] name = expr;` in the current stage. Names are unique in the module.
  Sig wire(const std::string& name, int width, const std::string& expr);
  // `s` as the current stage sees it: s itself, or its copy delayed to this stage.
  std::string at(const Sig& s);
  // Bit `bit` (or bits [hi:lo]) of `s` as the current stage sees it.
  std::string bit(const Sig& s, int bit) { return fmt::format("{}[{}]", at(s), bit); }
  std::string bits(const Sig& s, int hi, int lo);
  void next_stage() { ++stage_; }
  // While alive, logic goes to an earlier stage `stage` (wires of that stage only: what
  // depends on them only, like an operand's fields); the current stage comes back after.
  class Rewind {
   public:
    Rewind(Pipeline& p, int stage) : p_(p), saved_(p.stage_) { p.stage_ = stage; }
    ~Rewind() { p_.stage_ = saved_; }
    Rewind(const Rewind&) = delete;
    Rewind& operator=(const Rewind&) = delete;

   private:
    Pipeline& p_;
    int saved_;
  };
  int stage() const { return stage_; }
  // Bits of `s` (or a select of it) that no logic reads, on purpose.
  void unused(const std::string& select) { unused_.push_back(select); }
  // The output port `name` driven by `s` (read at the current stage: the latency).
  void output(const std::string& name, const Sig& s);
  std::string module_text() const;

 private:
  Sig declare(const std::string& name, int width);
  std::string module_;
  int stage_ = 0;
  std::vector<std::string> ports_, decls_, logic_, regs_, unused_;
  std::map<std::string, int> declared_;  // name -> width
};

// "[W-1:0] " or "" for one bit.
std::string vector_range(int width);
// A sized constant: 8'd5, 16'hfe00 (hex when wider than 8 bits).
std::string constant(int width, uint64_t value);
// `n` copies of bit expression `b`: {n{b}}; `b` itself when n is 1.
std::string replicate(int n, const std::string& b);

}  // namespace hlsgym::rtl::float_detail
