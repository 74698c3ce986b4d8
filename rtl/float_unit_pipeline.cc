#include "rtl/float_unit_pipeline.h"

#include <stdexcept>

namespace hlsgym::rtl::float_detail {

std::string vector_range(int width) { return width == 1 ? "" : fmt::format("[{}:0] ", width - 1); }

std::string constant(int width, uint64_t value) {
  if (width < 64) value &= (uint64_t{1} << width) - 1;
  return width > 8 ? fmt::format("{}'h{:x}", width, value) : fmt::format("{}'d{}", width, value);
}

std::string replicate(int n, const std::string& b) { return n == 1 ? b : fmt::format("{{{}{{{}}}}}", n, b); }

Sig Pipeline::declare(const std::string& name, int width) {
  if (width < 1) throw std::logic_error("float unit: signal " + name + " of no bits");
  if (!declared_.emplace(name, width).second) throw std::logic_error("float unit: signal " + name + " declared twice");
  return {name, width, stage_};
}

Sig Pipeline::input(const std::string& name, int width) {
  ports_.push_back(fmt::format("  input wire {}{}", vector_range(width), name));
  return declare(name, width);
}

Sig Pipeline::wire(const std::string& name, int width, const std::string& expr) {
  Sig s = declare(name, width);
  decls_.push_back(fmt::format("  wire {}{} = {};", vector_range(width), name, expr));
  return s;
}

std::string Pipeline::at(const Sig& s) {
  if (s.stage > stage_) throw std::logic_error("float unit: " + s.name + " read before its stage");
  std::string prev = s.name;
  for (int k = s.stage + 1; k <= stage_; ++k) {
    const std::string name = fmt::format("{}_p{}", s.name, k);
    if (!declared_.count(name)) {
      declared_.emplace(name, s.width);
      decls_.push_back(fmt::format("  reg {}{};", vector_range(s.width), name));
      regs_.push_back(fmt::format("    {} <= {};", name, prev));
    }
    prev = name;
  }
  return prev;
}

std::string Pipeline::bits(const Sig& s, int hi, int lo) {
  if (hi == s.width - 1 && lo == 0) return at(s);
  return hi == lo ? bit(s, hi) : fmt::format("{}[{}:{}]", at(s), hi, lo);
}

void Pipeline::output(const std::string& name, const Sig& s) {
  ports_.push_back(fmt::format("  output wire {}{}", vector_range(s.width), name));
  decls_.push_back(fmt::format("  assign {} = {};", name, at(s)));
}

std::string Pipeline::module_text() const {
  std::string t = fmt::format("module {} (\n  input wire clk", module_);
  for (const std::string& p : ports_) t += ",\n" + p;
  t += "\n);\n";
  for (const std::string& d : decls_) t += d + "\n";
  t += "  always @(posedge clk) begin\n";
  for (const std::string& r : regs_) t += r + "\n";
  t += "  end\n";
  if (!unused_.empty()) {
    t += "  wire unused_bits = &{1'b0";
    for (const std::string& u : unused_) t += ", " + u;
    t += "};\n";
  }
  return t + "endmodule\n";
}

}  // namespace hlsgym::rtl::float_detail
