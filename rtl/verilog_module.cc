// The module around the units: ports, the FSM (a cycle counter that runs the schedule),
// the storage tracks with their one clocked block each (constants and scalar inputs
// loaded on start, array inputs through their write ports while idle, results from the
// units), the output read ports, and the `emit` entry point.
#include <algorithm>
#include <cctype>

#include "ir/error.h"
#include "rtl/verilog_internal.h"

namespace hlsgym::rtl {
namespace verilog_detail {

int bits_for(int64_t max) {
  int b = 1;
  while (b < 63 && (int64_t{1} << b) <= max) ++b;
  return b;
}

std::string sized(int width, uint64_t bits) {
  if (width < 64) bits &= (uint64_t{1} << width) - 1;
  if (width <= 32) return fmt::format("{}'d{}", width, bits);
  return fmt::format("{}'h{:x}", width, bits);
}

std::string range(int width) { return width == 1 ? "" : fmt::format("[{}:0] ", width - 1); }

std::string resize(const std::string& name, int from, bool is_signed, int to) {
  if (to == from) return name;
  if (to < from) return to == 1 ? fmt::format("{}[0]", name) : fmt::format("{}[{}:0]", name, to - 1);
  const std::string fill = is_signed ? fmt::format("{}[{}]", name, from - 1) : "1'b0";
  return fmt::format("{{{{{}{{{}}}}}, {}}}", to - from, fill, name);
}

std::string Emitter::narrow(const std::string& name, int from, bool is_signed, int to) {
  if (to < from) unused.insert(to + 1 == from ? fmt::format("{}[{}]", name, from - 1) : fmt::format("{}[{}:{}]", name, from - 1, to));
  return resize(name, from, is_signed, to);
}

std::string Emitter::element(int buffer, ir::ElementType type, int64_t index) {
  const Buffer& b = plan.buffers[buffer];
  const int sw = storage_width(type), dw = datapath_width(type);
  const int64_t lo = index * sw;
  std::vector<bool>& r = read[b.track];
  if (lo + dw > static_cast<int64_t>(r.size())) throw std::logic_error("rtl: read past the end of a track");
  for (int64_t k = lo; k < lo + dw; ++k) r[k] = true;
  if (dw == 1) return fmt::format("trk{}[{}]", b.track, lo);
  return fmt::format("trk{}[{}:{}]", b.track, lo + dw - 1, lo);
}

std::string Emitter::source(const Source& s, ir::ElementType type) {
  if (s.kind == Source::kRead) return element(s.buffer, type, s.index);
  return sized(datapath_width(type), s.bits);  // kConst (kNone: a skipped term, any value)
}

std::string Emitter::element_lhs(int buffer, int64_t index) const {
  const Buffer& b = plan.buffers[buffer];
  const int sw = storage_width(b.type);
  return fmt::format("trk{}[{}:{}]", b.track, (index + 1) * sw - 1, index * sw);
}

std::string Emitter::to_storage(const std::string& value, ir::ElementType type) {
  return resize(value, datapath_width(type), false, storage_width(type));
}

namespace {

std::string port_list(const Plan& p) {
  std::vector<std::string> ports{"input wire clk", "input wire rst", "input wire start", "output reg done"};
  for (const Port& in : p.inputs) {
    const int w = datapath_width(in.type);
    if (in.scalar) {
      ports.push_back(fmt::format("input wire {}{}", range(w), in.name));
      continue;
    }
    ports.push_back(fmt::format("input wire {}_we", in.name));
    ports.push_back(fmt::format("input wire {}{}_addr", range(bits_for(in.elements - 1)), in.name));
    ports.push_back(fmt::format("input wire {}{}_din", range(w), in.name));
  }
  for (const Port& out : p.outputs) {
    const int w = datapath_width(out.type);
    if (out.scalar) {
      ports.push_back(fmt::format("output wire {}{}", range(w), out.name));
      continue;
    }
    ports.push_back(fmt::format("input wire {}{}_addr", range(bits_for(out.elements - 1)), out.name));
    ports.push_back(fmt::format("output reg {}{}_dout", range(w), out.name));
  }
  std::string s;
  for (size_t k = 0; k < ports.size(); ++k) s += "  " + ports[k] + (k + 1 < ports.size() ? ",\n" : "\n");
  return s;
}

// The FSM: idle -> running for exactly `cycles` cycles -> done. Cycle c of the schedule
// is the c-th clock period after the edge that saw `start`.
void emit_control(Emitter& e) {
  const int64_t T = e.plan.cycles;
  if (T == 0) {  // nothing to compute: done on the edge that sees start
    e.text.decl("  wire start_fire = start;");
    e.unused.insert("start_fire");  // used only when there are constants or scalar inputs
    e.text.line("  always @(posedge clk) begin\n    if (rst) done <= 1'b0;\n    else if (start) done <= 1'b1;\n  end");
    e.inv.control_bits += 1;
    return;
  }
  const int cw = bits_for(T);
  e.text.decl("  reg running;");
  e.text.decl(fmt::format("  reg {}cyc;  // the schedule's cycle, 0 .. {}", range(cw), T - 1));
  e.text.decl("  wire start_fire = start && !running;");
  e.text.line(fmt::format(
      "  always @(posedge clk) begin\n"
      "    if (rst) begin\n      running <= 1'b0;\n      done <= 1'b0;\n      cyc <= {0};\n    end else if (start_fire) begin\n"
      "      running <= 1'b1;\n      done <= 1'b0;\n      cyc <= {0};\n    end else if (running) begin\n"
      "      if (cyc == {1}) begin\n        running <= 1'b0;\n        done <= 1'b1;\n      end\n"
      "      cyc <= cyc + {2};\n    end\n  end",
      sized(cw, 0), sized(cw, static_cast<uint64_t>(T - 1)), sized(cw, 1)));
  e.inv.control_bits += 2 + cw;
  e.inv.control_adders += 1;
}

// Constants and scalar inputs are written on start (their tracks may have held other
// buffers during the previous run); array inputs through their ports while idle.
void emit_inputs(Emitter& e) {
  const Plan& p = e.plan;
  const std::string idle = p.cycles == 0 ? "" : "!running && ";
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Buffer& buf = p.buffers[b];
    if (buf.origin != Buffer::kConstant) continue;
    std::string s = fmt::format("    if (start_fire) begin  // constant {}\n", buf.name);
    const int sw = storage_width(buf.type);
    for (int64_t k = 0; k < buf.elements; ++k)
      s += fmt::format("      {} <= {};\n", e.element_lhs(static_cast<int>(b), k), sized(sw, buf.init[k]));
    e.writes[buf.track] += s + "    end\n";
  }
  for (const Port& in : p.inputs) {
    const Buffer& buf = p.buffers[in.buffer];
    std::string& w = e.writes[buf.track];
    if (in.scalar) {
      w += fmt::format("    if (start_fire) {} <= {};\n", e.element_lhs(in.buffer, 0), Emitter::to_storage(in.name, in.type));
      continue;
    }
    const int aw = bits_for(in.elements - 1);
    w += fmt::format("    if ({}{}_we) begin\n      case ({}_addr)\n", idle, in.name, in.name);
    for (int64_t k = 0; k < in.elements; ++k)
      w += fmt::format("        {}: {} <= {};\n", sized(aw, static_cast<uint64_t>(k)), e.element_lhs(in.buffer, k),
                       Emitter::to_storage(in.name + "_din", in.type));
    w += "        default: ;\n      endcase\n    end\n";
  }
}

void emit_outputs(Emitter& e) {
  for (const Port& out : e.plan.outputs) {
    if (out.scalar) {
      e.text.line(fmt::format("  assign {} = {};", out.name, e.element(out.buffer, out.type, 0)));
      continue;
    }
    const int w = datapath_width(out.type), aw = bits_for(out.elements - 1);
    std::string s = fmt::format("  always @* begin\n    {}_dout = {};\n    case ({}_addr)\n", out.name, sized(w, 0), out.name);
    for (int64_t k = 0; k < out.elements; ++k)
      s += fmt::format("      {}: {}_dout = {};\n", sized(aw, static_cast<uint64_t>(k)), out.name,
                       e.element(out.buffer, out.type, k));
    e.text.line(s + "      default: ;\n    endcase\n  end");
  }
}

void emit_tracks(Emitter& e) {
  const Plan& p = e.plan;
  for (size_t k = 0; k < p.tracks.size(); ++k) {
    const Track& t = p.tracks[k];
    std::string holds;
    for (int b : t.buffers) holds += (holds.empty() ? "" : ", ") + p.buffers[b].name;
    e.text.decl(fmt::format("  reg [{}:0] trk{};  // {} bytes ({}): {}", t.bytes * 8 - 1, k, t.bytes,
                            t.bram ? "BRAM in the binding, registers here" : "registers", holds));
    (t.bram ? e.inv.bram_bits : e.inv.register_bits) += t.bytes * 8;
    if (!e.writes[k].empty()) e.text.line("  always @(posedge clk) begin\n" + e.writes[k] + "  end");
  }
}

// Bits no logic reads (the unread tail of a track, the upper bits of a stored pred)
// are collected in one sink so that lint sees every bit used on purpose.
void emit_unused(Emitter& e) {
  std::vector<std::string> parts;
  for (size_t k = 0; k < e.read.size(); ++k) {
    const auto& r = e.read[k];
    for (size_t lo = 0; lo < r.size();) {
      if (r[lo]) {
        ++lo;
        continue;
      }
      size_t hi = lo;
      while (hi + 1 < r.size() && !r[hi + 1]) ++hi;
      parts.push_back(lo == hi ? fmt::format("trk{}[{}]", k, lo) : fmt::format("trk{}[{}:{}]", k, hi, lo));
      lo = hi + 1;
    }
  }
  parts.insert(parts.end(), e.unused.begin(), e.unused.end());
  if (parts.empty()) return;
  std::string s = "  wire unused_bits = &{1'b0";
  for (const auto& x : parts) s += ", " + x;
  e.text.line(s + "};  // stored but never read, or dropped by a narrowing");
}

std::string assemble(Emitter& e) {
  const Plan& p = e.plan;
  std::string v = fmt::format(
      "// {}: generated by hlsgym rtl from the hardware model's schedule ({} cycles) and binding.\n"
      "// Protocol: load array inputs through <in>_we/_addr/_din while idle; pulse start; done rises\n"
      "// exactly {} clock edges later and stays high until the next start; read array outputs\n"
      "// through <out>_addr/_dout. Scalar inputs are sampled on start.\n"
      "`default_nettype none\n\nmodule {} (\n{});\n",
      p.module_name, p.cycles, p.cycles, p.module_name, port_list(p));
  for (const auto& [name, f] : e.functions) v += f;
  v += e.text.decls + "\n" + e.text.logic + "endmodule\n\n`default_nettype wire\n";
  e.inv.lines = std::count(v.begin(), v.end(), '\n');
  return v;
}

}  // namespace

std::string emit_verilog(const Plan& p, Inventory& inv) {
  Emitter e(p);
  emit_control(e);
  emit_units(e);
  emit_inputs(e);
  emit_outputs(e);
  emit_tracks(e);
  emit_unused(e);
  std::string v = assemble(e);
  e.inv.units = static_cast<int>(p.units.size());
  e.inv.tasks = static_cast<int>(p.tasks.size());
  e.inv.tracks = static_cast<int>(p.tracks.size());
  for (const Unit& u : p.units) e.inv.lanes += u.lanes;
  inv = e.inv;
  return v;
}

}  // namespace verilog_detail
}  // namespace hlsgym::rtl
