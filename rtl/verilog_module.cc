// The module around the units: ports, the FSM (a cycle counter that runs the schedule),
// the storage tracks as memories with one clocked block each (scalar inputs loaded on
// start, array inputs through their write ports while idle, results from the units),
// constants as ROMs, the output read ports, and the `emit` entry point.
#include <algorithm>
#include <cctype>

#include "ir/error.h"
#include "rtl/verilog_internal.h"

namespace hlsgym::rtl {
namespace verilog_detail {

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

std::string Emitter::widen(const Buffer& b, const std::string& name, int word, int to, bool sink) {
  const int stored = std::min(word, b.origin == Buffer::kConstant ? datapath_width(b.type) : b.word_bits());
  if (to <= stored) return sink ? narrow(name, word, false, to) : resize(name, word, false, to);
  if (sink && stored < word) unused.insert(stored + 1 == word ? fmt::format("{}[{}]", name, word - 1) : fmt::format("{}[{}:{}]", name, word - 1, stored));
  const std::string low = stored == word ? name : stored == 1 ? name + "[0]" : fmt::format("{}[{}:0]", name, stored - 1);
  const std::string fill = b.stored_sign ? fmt::format("{}[{}]", name, stored - 1) : "1'b0";
  return fmt::format("{{{{{}{{{}}}}}, {}}}", to - stored, fill, low);
}

Emitter::Emitter(const Plan& p)
    : plan(p), track_width(p.tracks.size(), 1), track_depth(p.tracks.size(), 1), track_read(p.tracks.size(), false),
      write_ports(p.tracks.size()), read_ports(p.tracks.size()) {
  for (const Buffer& b : p.buffers) {
    if (b.track < 0) continue;
    track_width[b.track] = std::max(track_width[b.track], b.word_bits());
    track_depth[b.track] = std::max(track_depth[b.track], b.elements);
  }
}

std::string Emitter::array_of(int buffer) const {
  const Buffer& b = plan.buffers[buffer];
  return b.origin == Buffer::kConstant ? "rom_" + b.name : fmt::format("trk{}", b.track);
}

int Emitter::addr_bits(int buffer) const {
  const Buffer& b = plan.buffers[buffer];
  return bits_for((b.origin == Buffer::kConstant ? b.elements : track_depth[b.track]) - 1);
}

std::string Emitter::read(int buffer, ir::ElementType type, const std::string& addr) {
  const Buffer& b = plan.buffers[buffer];
  const int word = b.origin == Buffer::kConstant ? datapath_width(b.type) : track_width[b.track];
  if (b.origin != Buffer::kConstant) track_read[b.track] = true;
  else roms_read.insert(buffer);
  const int w = datapath_width(type);
  const std::string at = fmt::format("{}[{}]", array_of(buffer), addr);
  if (w < word && w <= b.word_bits()) return w == 1 ? at + "[0]" : fmt::format("{}[{}:0]", at, w - 1);
  return widen(b, at, word, w, false);
}

std::string Emitter::address(int buffer, const std::string& index_signal) {
  const int aw = addr_bits(buffer);
  if (aw >= kIndexBits) return index_signal;
  unused.insert(aw + 1 == kIndexBits ? fmt::format("{}[{}]", index_signal, kIndexBits - 1)
                                     : fmt::format("{}[{}:{}]", index_signal, kIndexBits - 1, aw));
  return aw == 1 ? fmt::format("{}[0]", index_signal) : fmt::format("{}[{}:0]", index_signal, aw - 1);
}

void Emitter::write(int buffer, int port, const std::string& cond, const std::string& addr, const std::string& value,
                    const std::string& comment) {
  const Buffer& b = plan.buffers[buffer];
  auto& ports = write_ports[b.track];
  if (ports.size() <= static_cast<size_t>(port)) ports.resize(static_cast<size_t>(port) + 1);
  const int from = datapath_width(b.type), stored = b.word_bits();
  std::string v = value;
  if (stored < from) {  // a narrowed value (hwmodel/value_bits.h): its low bits through a wire
    const std::string wire = fmt::format("trk{}_narrow{}", b.track, narrow_writes_++);
    text.decl(fmt::format("  wire {}{};", range(from), wire));
    text.line(fmt::format("  assign {} = {};", wire, value));
    v = narrow(wire, from, false, stored);
  }
  ports[port].push_back({cond, addr, resize(v, std::min(from, stored), false, track_width[b.track]), comment, 0, 0});
}

std::string Emitter::read_port(int buffer, ir::ElementType type, const std::string& cond, const std::string& addr,
                               int64_t from, int64_t to, int64_t reader) {
  const Buffer& b = plan.buffers[buffer];
  const int w = datapath_width(type);
  if (b.origin == Buffer::kConstant) {  // a ROM: a read register of its own
    // one value (a scalar, a splat): the constant itself, which no register would change
    if (std::all_of(b.init.begin(), b.init.end(), [&](uint64_t v) { return v == b.init.front(); })) {
      if (addr.find('\'') == std::string::npos) unused.insert(addr);  // no word to select
      return sized(w, b.init.front());
    }
    const std::string rd = fmt::format("rom_{}_rd{}", b.name, rom_reads_++);
    const int word = datapath_width(b.type);
    text.decl(fmt::format("  reg {}{};", range(word), rd));
    inv.read_bits += word;
    text.line(fmt::format("  always @(posedge clk) {} <= {};", rd, read(buffer, b.type, addr)));
    return narrow(rd, word, false, w);
  }
  track_read[b.track] = true;
  auto& ports = read_ports[b.track];
  size_t p = 0;
  // Sharing a register file's port between readers puts an address multiplexer in front
  // of its read multiplexer, which synthesis flattens into one much larger tree (Yosys,
  // 32 x 32 bits: 1,190 LUTs for two readers on one port, 938 on two ports).
  const bool shared_ok = plan.tracks[b.track].bram && !recurring(from);
  // A one-word register file: every port would register the same word each cycle (and
  // synthesis merges such copies), so all its readers share one port.
  const bool one_word = !shared_ok && track_depth[b.track] == 1;
  for (; p < ports.size() && !one_word; ++p) {
    bool free = true;
    for (const PortUse& u : ports[p])  // a loop phase runs beside its caller: other timelines never share
      free = free && same_timeline(u.from, from) && (u.to <= from || to <= u.from) && (shared_ok || u.reader == reader);
    if (free) break;
  }
  if (p == ports.size()) ports.emplace_back();
  if (one_word) {  // its one word, whatever index a reader whose guard fails presents
    if (addr.find('\'') == std::string::npos) unused.insert(addr);
    ports[p].push_back({cond, sized(addr_bits(buffer), 0), "", "", from, to, reader});
  } else {
    ports[p].push_back({cond, addr, "", "", from, to, reader});
  }
  return widen(b, fmt::format("trk{}_rd{}", b.track, p), track_width[b.track], w, true);
}

std::string start_of(const Plan& p, int parent, int64_t start) {
  if (start == 0) return p.timelines[parent].go();
  return at_cycle(p, parent, start - 1);
}

namespace {
// `each(copy)` joined by || over the timeline's copies, in parentheses when several.
template <typename F>
std::string any_copy(const Timeline& x, F each) {
  if (x.copies == 1) return each(0);
  std::string s;
  for (int c = 0; c < x.copies; ++c) s += (c ? " || " : "") + each(c);
  return "(" + s + ")";
}
}  // namespace

std::string at_cycle(const Plan& p, int tl, int64_t c) {
  const Timeline& x = p.timelines[tl];
  return any_copy(x, [&](int k) {
    return fmt::format("({} && {} == {})", x.run(k), x.cyc(k), sized(bits_for(x.cycles), static_cast<uint64_t>(c)));
  });
}

std::string in_window(const Plan& p, int tl, int64_t from, int64_t to) {
  const Timeline& x = p.timelines[tl];
  const int cw = bits_for(x.cycles);
  return any_copy(x, [&](int k) {
    std::string w = x.run(k);
    if (from > 0) w += fmt::format(" && {} >= {}", x.cyc(k), sized(cw, static_cast<uint64_t>(from)));
    w += fmt::format(" && {} < {}", x.cyc(k), sized(cw, static_cast<uint64_t>(to)));
    return x.copies == 1 ? w : "(" + w + ")";
  });
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
    ports.push_back(fmt::format("output wire {}{}_dout", range(w), out.name));
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

// Control flow (hwmodel/control_flow.h): every phase of a loop or conditional is a
// timeline, a counter restarted by its go pulse; a phase's last cycle starts the next.

// The condition that timeline `tl` is in its last cycle (a zero-length one: its go).
std::string timeline_end(const Plan& p, int tl) {
  const Timeline& x = p.timelines[tl];
  if (x.cycles == 0) return x.go();
  if (x.cycles == 1) return x.run();  // no counter
  return start_of(p, tl, x.cycles);    // cycle cycles - 1: the one before cycle `cycles`
}

// Timeline `tl`'s go wire, running flag and counter (copy `c` of a pipelined body's).
void emit_counter(Emitter& e, const Timeline& x, int c, const std::string& go) {
  e.text.decl(fmt::format("  wire {} = {};", x.go(c), go));
  if (x.cycles == 0) return;
  e.text.decl(fmt::format("  reg {};", x.run(c)));
  e.inv.control_bits += 1;
  if (x.cycles == 1) {
    e.text.line(fmt::format("  always @(posedge clk) {} <= !rst && {};", x.run(c), x.go(c)));
    return;
  }
  const int cw = bits_for(x.cycles);
  e.text.decl(fmt::format("  reg {}{};  // 0 .. {}", range(cw), x.cyc(c), x.cycles - 1));
  e.text.line(fmt::format(
      "  always @(posedge clk) begin\n"
      "    if (rst) {0} <= 1'b0;\n"
      "    else if ({2}) begin\n      {0} <= 1'b1;\n      {1} <= {3};\n    end else if ({0}) begin\n"
      "      if ({1} == {4}) {0} <= 1'b0;\n      {1} <= {1} + {5};\n    end\n  end",
      x.run(c), x.cyc(c), x.go(c), sized(cw, 0), sized(cw, static_cast<uint64_t>(x.cycles - 1)), sized(cw, 1)));
  e.inv.control_bits += cw;
  e.inv.control_adders += 1;
}

void emit_timeline(Emitter& e, int tl, const std::string& go) { emit_counter(e, e.plan.timelines[tl], 0, go); }

// A pipelined loop (hwmodel/loop_pipelining.h): copy-in, then a trip counter starts
// iteration n at kernel cycle n * II on body copy n mod copies; each copy's counter runs
// the body's modulo schedule once. The caller's schedule has reserved exactly its cycles.
void emit_pipelined_loop(Emitter& e, const LoopPlan& lp) {
  const Plan& p = e.plan;
  const Timeline& body = p.timelines[lp.body];
  const int S = body.copies;
  e.text.line(fmt::format("\n  // ---- while loop {} ({} trips), pipelined: copy-in {} cycles, then an iteration every {} "
                          "cycles, each {} cycles on one of {} counters",
                          lp.name, lp.trips, p.timelines[lp.copy_in].cycles, lp.ii, body.cycles, S));
  emit_timeline(e, lp.copy_in, start_of(p, lp.parent, lp.start));
  const std::string k = lp.name + "_k", n = lp.name + "_n", r = lp.name + "_r", issuing = lp.name + "_issuing",
                    kick = lp.name + "_kernel_go";
  const int kb = bits_for(lp.ii - 1), nb = bits_for(lp.trips), rb = bits_for(S - 1);
  e.text.decl(fmt::format("  wire {} = {};", kick, timeline_end(p, lp.copy_in)));
  e.text.decl(fmt::format("  reg {};\n  reg {}{};  // kernel cycle mod II\n  reg {}{};  // iterations started\n  reg {}{};  // "
                          "the next iteration's counter",
                          issuing, range(kb), k, range(nb), n, range(rb), r));
  const std::string next = fmt::format("{} && {} == {}", issuing, k, sized(kb, static_cast<uint64_t>(lp.ii - 1)));
  e.text.line(fmt::format(
      "  always @(posedge clk) begin  // {0}: its trip counter\n"
      "    if (rst) {1} <= 1'b0;\n"
      "    else if ({2}) begin\n      {1} <= {3};\n      {4} <= {5};\n      {6} <= {7};\n      {8} <= {9};\n    end\n"
      "    else if ({10}) begin\n      {1} <= {6} + {11} < {12};\n      {4} <= {5};\n      {6} <= {6} + {11};\n"
      "      {8} <= {13};\n    end else if ({1}) {4} <= {4} + {14};\n  end",
      lp.name, issuing, kick, lp.trips > 1 ? "1'b1" : "1'b0", k, sized(kb, 0), n, sized(nb, 1), r, sized(rb, S > 1 ? 1 : 0),
      next, sized(nb, 1), sized(nb, static_cast<uint64_t>(lp.trips)),
      S > 1 ? fmt::format("{} == {} ? {} : {} + {}", r, sized(rb, static_cast<uint64_t>(S - 1)), sized(rb, 0), r, sized(rb, 1))
            : sized(rb, 0),
      sized(kb, 1)));
  e.inv.control_bits += 1 + kb + nb + rb;
  e.inv.control_adders += 2 + (S > 1 ? 1 : 0);
  if (S == 1) e.unused.insert(r);
  std::string any;
  for (int c = 0; c < S; ++c) {
    const std::string own = S == 1 ? next : fmt::format("{} && {} == {}", next, r, sized(rb, static_cast<uint64_t>(c)));
    emit_counter(e, body, c, c == 0 ? fmt::format("{} || ({})", kick, own) : own);
    any += (c ? " || " : "") + body.go(c);
  }
  if (S > 1) {  // read by the units whose tasks start at cycle 0, if any
    e.text.decl(fmt::format("  wire {} = {};", body.go(), any));
    e.unused.insert(body.go());
  }
}

// A while loop: copy-in -> condition -> decide -> (pred) body -> copy-back -> condition
// ...; a false pred ends the loop (its caller's schedule has reserved exactly its cycles).
void emit_loop(Emitter& e, const LoopPlan& lp) {
  if (lp.ii > 0) return emit_pipelined_loop(e, lp);
  const Plan& p = e.plan;
  const std::string pred = e.read(lp.pred_buffer, ir::ElementType::kPred, sized(e.addr_bits(lp.pred_buffer), 0));
  e.text.line(fmt::format("\n  // ---- while loop {} ({} trips): copy-in {}, condition {}, decide 1, body {}, copy-back {} cycles",
                          lp.name, lp.trips, p.timelines[lp.copy_in].cycles, p.timelines[lp.condition].cycles,
                          p.timelines[lp.body].cycles, p.timelines[lp.copy_back].cycles));
  emit_timeline(e, lp.copy_in, start_of(p, lp.parent, lp.start));
  emit_timeline(e, lp.condition, timeline_end(p, lp.copy_in) + " || " + timeline_end(p, lp.copy_back));
  emit_timeline(e, lp.decide, timeline_end(p, lp.condition));
  emit_timeline(e, lp.body, fmt::format("{} && {}", p.timelines[lp.decide].run(), pred));
  emit_timeline(e, lp.copy_back, timeline_end(p, lp.body));
}

// A conditional: decide -> the selected branch -> its copy-out. A pred selects branch 0
// when true; an index selects its branch, and any index outside [0, N - 1) the last one.
void emit_conditional(Emitter& e, const CondPlan& cp) {
  const Plan& p = e.plan;
  const Buffer& sb = p.buffers[cp.selector];
  const int w = datapath_width(sb.type);
  const std::string sel = e.read(cp.selector, sb.type, sized(e.addr_bits(cp.selector), 0));
  const size_t n = cp.branches.size();
  std::string desc;
  for (size_t k = 0; k < n; ++k) desc += fmt::format("{}{}", k ? ", " : "", p.timelines[cp.branches[k]].cycles);
  e.text.line(fmt::format("\n  // ---- conditional {}: decide 1, branches {} cycles, copy-out {} cycles", cp.name, desc,
                          p.timelines[cp.copies.front()].cycles));
  emit_timeline(e, cp.decide, start_of(p, cp.parent, cp.start));
  const std::string dec = p.timelines[cp.decide].run();
  std::string others;
  for (size_t k = 0; k < n; ++k) {
    std::string chosen;
    if (cp.pred) {
      chosen = k == 0 ? sel : "!" + sel;
    } else if (k + 1 < n) {
      chosen = fmt::format("{} == {}", sel, sized(w, k));
      others += fmt::format("{}({})", others.empty() ? "" : " || ", chosen);
    } else {
      chosen = others.empty() ? "1'b1" : "!(" + others + ")";
    }
    emit_timeline(e, cp.branches[k], fmt::format("{} && ({})", dec, chosen));
    emit_timeline(e, cp.copies[k], timeline_end(p, cp.branches[k]));
  }
}

void emit_control_flow(Emitter& e) {
  for (const LoopPlan& lp : e.plan.loops) emit_loop(e, lp);
  for (const CondPlan& cp : e.plan.conditionals) emit_conditional(e, cp);
}

// Constants are ROMs (initialized memories, read-only). Scalar inputs are written on
// start (their tracks may have held other buffers during the previous run); array
// inputs through their ports while idle.
void emit_inputs(Emitter& e) {
  const Plan& p = e.plan;
  const std::string idle = p.cycles == 0 ? "" : "!running && ";
  for (const Port& in : p.inputs) {
    const Buffer& buf = p.buffers[in.buffer];
    if (in.scalar) {
      e.write(in.buffer, 0, "start_fire", sized(e.addr_bits(in.buffer), 0), in.name, "input " + buf.name);
      continue;
    }
    const int aw = bits_for(in.elements - 1);
    e.write(in.buffer, 0, fmt::format("{}{}_we", idle, in.name), resize(in.name + "_addr", aw, false, e.addr_bits(in.buffer)),
            in.name + "_din", "input " + buf.name);
  }
}

void emit_roms(Emitter& e) {
  const Plan& p = e.plan;
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Buffer& buf = p.buffers[b];
    if (buf.origin != Buffer::kConstant || !e.roms_read.count(static_cast<int>(b))) continue;
    const int w = datapath_width(buf.type);
    e.text.decl(fmt::format("  reg {}rom_{} [0:{}];  // constant, {} x {} bits", range(w), buf.name, buf.elements - 1,
                            buf.elements, w));
    std::string s = "  initial begin\n";
    for (int64_t k = 0; k < buf.elements; ++k) s += fmt::format("    rom_{}[{}] = {};\n", buf.name, k, sized(w, buf.init[k]));
    e.text.line(s + "  end");
    e.inv.rom_bits += static_cast<int64_t>(w) * buf.elements;
  }
}

void emit_outputs(Emitter& e) {
  for (const Port& out : e.plan.outputs) {
    if (out.scalar) {
      e.text.line(fmt::format("  assign {} = {};", out.name, e.read(out.buffer, out.type, sized(e.addr_bits(out.buffer), 0))));
      continue;
    }
    const int aw = bits_for(out.elements - 1);
    const std::string data = e.read_port(out.buffer, out.type, e.plan.cycles == 0 ? "1'b1" : "!running",
                                         resize(out.name + "_addr", aw, false, e.addr_bits(out.buffer)), e.plan.cycles,
                                         e.plan.cycles + 1, -1 - static_cast<int64_t>(&out - e.plan.outputs.data()));
    e.text.line(fmt::format("  assign {}_dout = {};  // through a synchronous read port", out.name, data));
  }
}

// A port's users, one at a time: a priority chain of their conditions. The address and
// data are don't-cares while no user is active, so they default to the last user's
// (only the write enable is gated): a read address forced to 0 when idle doubles the
// LUTs synthesis spends on a register file's read multiplexer (Yosys synth_xilinx, 16 x
// 32 bits: 354 LUTs gated, 176 not).
std::string port_mux(const std::vector<Emitter::PortUse>& users, const std::string& en, const std::string& addr,
                     const std::string& data) {
  std::string s;
  if (!en.empty()) s += fmt::format("    {} = 1'b0;\n", en);
  if (users.empty()) return s;
  const auto& last = users.back();
  s += fmt::format("    {} = {};\n", addr, last.addr);
  if (!data.empty()) s += fmt::format("    {} = {};\n", data, last.value);
  for (size_t k = 0; k < users.size(); ++k) {
    const auto& u = users[k];
    const bool is_last = k + 1 == users.size();
    if (is_last && en.empty()) break;  // a read port: the default is this user's address
    s += fmt::format("    {}if ({}) begin{}\n", k ? "else " : "", u.cond, u.comment.empty() ? "" : "  // " + u.comment);
    if (!en.empty()) s += fmt::format("      {} = 1'b1;\n", en);
    if (!is_last) {
      s += fmt::format("      {} = {};\n", addr, u.addr);
      if (!data.empty()) s += fmt::format("      {} = {};\n", data, u.value);
    }
    s += "    end\n";
  }
  return s;
}

void emit_tracks(Emitter& e) {
  const Plan& p = e.plan;
  for (size_t k = 0; k < p.tracks.size(); ++k) {
    const Track& t = p.tracks[k];
    const auto& wp = e.write_ports[k];
    const auto& rp = e.read_ports[k];
    if (!e.track_read[k] && wp.empty()) continue;  // constants only: they live in ROMs
    std::string holds;
    for (int b : t.buffers)
      if (p.buffers[b].origin != Buffer::kConstant) holds += (holds.empty() ? "" : ", ") + p.buffers[b].name;
    const int w = e.track_width[k], aw = bits_for(e.track_depth[k] - 1);
    const int64_t bits = w * e.track_depth[k];
    // The binding's choice, kept by synthesis: block RAM, or flip-flops for small tracks.
    e.text.decl(fmt::format("  (* ram_style = \"{}\" *)", t.bram ? "block" : "logic"));
    e.text.decl(fmt::format("  reg {}trk{} [0:{}];  // {} x {} bits, {} write / {} read port(s) ({}): {}", range(w), k,
                            e.track_depth[k] - 1, e.track_depth[k], w, wp.size(), rp.size(),
                            t.bram ? "BRAM in the binding" : "registers in the binding", holds));
    (t.bram ? e.inv.bram_bits : e.inv.register_bits) += bits;
    std::string clocked;
    for (size_t q = 0; q < wp.size(); ++q) {
      if (wp[q].empty()) continue;
      const std::string we = fmt::format("trk{}_we{}", k, q), wa = fmt::format("trk{}_wa{}", k, q),
                        wd = fmt::format("trk{}_wd{}", k, q);
      e.text.decl(fmt::format("  reg {};\n  reg {}{};\n  reg {}{};", we, range(aw), wa, range(w), wd));
      e.text.line(fmt::format("  always @* begin\n{}  end", port_mux(wp[q], we, wa, wd)));
      clocked += fmt::format("    if ({}) trk{}[{}] <= {};\n", we, k, wa, wd);
    }
    for (size_t q = 0; q < rp.size(); ++q) {
      const std::string ra = fmt::format("trk{}_ra{}", k, q), rd = fmt::format("trk{}_rd{}", k, q);
      e.text.decl(fmt::format("  reg {}{};\n  reg {}{};", range(aw), ra, range(w), rd));
      e.inv.read_bits += w;
      e.text.line(fmt::format("  always @* begin\n{}  end", port_mux(rp[q], "", ra, "")));
      clocked += fmt::format("    {} <= trk{}[{}];\n", rd, k, ra);
    }
    if (!e.track_read[k]) e.unused.insert(fmt::format("trk{}[0]", k));  // a dead value's buffer
    if (!clocked.empty()) e.text.line("  always @(posedge clk) begin\n" + clocked + "  end");
  }
}

// Bits no logic reads (the unread tail of a track, the upper bits of a stored pred)
// are collected in one sink so that lint sees every bit used on purpose.
void emit_unused(Emitter& e) {
  std::vector<std::string> parts(e.unused.begin(), e.unused.end());
  if (parts.empty()) return;
  std::string s = "  wire unused_bits = &{1'b0";
  for (const auto& x : parts) s += ", " + x;
  e.text.line(s + "};  // computed but never read, or dropped by a narrowing");
}

std::string assemble(Emitter& e) {
  const Plan& p = e.plan;
  std::string v = fmt::format(
      "// {}: generated by hlsgym rtl from the hardware model's schedule ({} cycles) and binding.\n"
      "// Protocol: load array inputs through <in>_we/_addr/_din while idle; pulse start; done rises\n"
      "// exactly {} clock edges later and stays high until the next start; read array outputs\n"
      "// through <out>_addr/_dout (data one clock edge after the address). Scalar inputs are\n"
      "// sampled on start.\n"
      "`default_nettype none\n\nmodule {} (\n{});\n",
      p.module_name, p.cycles, p.cycles, p.module_name, port_list(p));
  for (const auto& [name, f] : e.functions) v += f;
  v += e.text.decls + "\n" + e.text.logic + "endmodule\n\n`default_nettype wire\n";
  // the IEEE-754 units the datapath instantiates, in the same file (lint: not its name)
  if (!e.float_modules.empty()) v += "\n/* verilator lint_off DECLFILENAME */\n";
  for (const auto& [name, text] : e.float_modules) v += "\n" + text;
  e.inv.lines = std::count(v.begin(), v.end(), '\n');
  return v;
}

}  // namespace

std::string emit_verilog(const Plan& p, Inventory& inv) {
  Emitter e(p);
  emit_control(e);
  emit_control_flow(e);
  emit_units(e);
  emit_inputs(e);
  emit_outputs(e);
  emit_roms(e);
  emit_tracks(e);
  emit_unused(e);
  std::string v = assemble(e);
  e.inv.units = static_cast<int>(p.units.size());
  e.inv.tasks = static_cast<int>(p.tasks.size());
  e.inv.tracks = static_cast<int>(p.tracks.size());
  for (const auto& rp : e.read_ports) e.inv.track_read_ports.push_back(static_cast<int>(rp.size()));
  for (const Unit& u : p.units) e.inv.lanes += u.lanes;
  inv = e.inv;
  return v;
}

}  // namespace verilog_detail
}  // namespace hlsgym::rtl
