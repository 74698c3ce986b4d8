#include "hwmodel/report_tables.h"

#include <fmt/core.h>

#include <algorithm>

#include "hwmodel/control_flow.h"
#include "hwmodel/loop_pipelining.h"
#include "hwmodel/lowering.h"
#include "hwmodel/report.h"
#include "hwmodel/timing.h"
#include "hwmodel/unit_model.h"

namespace hlsgym::hwmodel::report_detail {
namespace {

std::string join(const std::vector<std::string>& v, size_t max) {
  std::string s;
  for (size_t k = 0; k < v.size() && k < max; ++k) s += (k ? ", " : "") + v[k];
  if (v.size() > max) s += fmt::format(", ... ({} more)", v.size() - max);
  return s;
}

}  // namespace

std::vector<LoopRow> loop_rows(const ir::Module& m, const Target& tgt, const EstimateDetails& d) {
  std::vector<LoopRow> rows;
  std::vector<LoopRow> loops;
  for (uint32_t t = 0; t < d.graph.size(); ++t) {
    const ir::InstrId i = d.graph.tasks[t].instr;
    if (m.opcode(i) != ir::Opcode::kWhile) continue;
    const auto trips = while_trip_count(m, i);
    const auto cond = d.subs.find(m.called(i)[0]), body = d.subs.find(m.called(i)[1]);
    if (!trips || cond == d.subs.end() || body == d.subs.end()) continue;  // lenient: no honest row
    const LoopPipeline* pipe = body->second->pipeline.get();
    const bool built = pipe && pipe->built;
    const WhileLoop w = while_loop(m, i, tgt, *trips, cond->second->schedule.length, body->second->schedule.length,
                                   built ? pipe->schedule.ii : 0);
    LoopRow r;
    r.name = m.name(i);
    r.op = "while";
    r.unit = "own datapath";
    r.trips = w.trips;
    r.issue_cycles = d.problem.latency[t];
    r.iteration_latency = built ? w.body : w.condition + WhileLoop::kDecide + w.body + w.copy_back;
    r.ii = static_cast<double>(built ? w.ii : r.iteration_latency);
    r.start = d.schedule.start[t];
    r.pipelined = built;
    if (pipe) {
      r.target_ii = pipe->schedule.target_ii;
      if (pipe->schedule.found) {
        r.pipeline_ii = pipe->schedule.ii;
        r.pipeline_reason = pipe->schedule.reason.empty() ? std::string(ii_limit_name(pipe->schedule.limit))
                                                          : pipe->schedule.reason;
      }
      r.not_pipelined_because = pipe->why_not;
    }
    loops.push_back(std::move(r));
  }
  for (uint32_t t = 0; t < d.graph.size(); ++t) {
    const Task& k = d.graph.tasks[t];
    if (k.unit == kNoUnit || d.problem.busy[t] <= 0) continue;
    LoopRow r;
    r.name = m.name(k.instr);
    r.op = std::string(ir::name(m.opcode(k.instr)));
    const uint32_t u = d.binding.unit_of_task[t];
    r.unit = u == kNoInstance ? "own datapath" : unit_id(d, u);
    // a fused body's loop runs once per output element, whatever its ops per element
    const ir::Opcode op = m.opcode(k.instr);
    const bool fused = (op == ir::Opcode::kFusion || op == ir::Opcode::kMap) && m.shape(k.instr).is_array();
    r.trips = fused ? m.shape(k.instr).element_count() : k.element_ops;
    r.lanes = std::max<int64_t>(1, k.lanes);
    r.issue_cycles = d.problem.busy[t];
    r.iteration_latency = d.problem.latency[t] - d.problem.busy[t] + 1;
    r.start = d.schedule.start[t];
    const int64_t per_lane = ceil_div(std::max<int64_t>(r.trips, 1), r.lanes);
    r.ii = static_cast<double>(r.issue_cycles) / static_cast<double>(per_lane);
    rows.push_back(std::move(r));
  }
  rows.insert(rows.end(), loops.begin(), loops.end());
  return rows;
}

std::vector<MemoryRow> memory_rows(const ir::Module& m, const EstimateDetails& d) {
  std::vector<MemoryRow> rows(d.binding.tracks.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    const BufferTrack& tr = d.binding.tracks[k];
    rows[k] = {static_cast<int>(k), !tr.registers, tr.words, tr.bits, tr.read_ports, tr.area, {}};
  }
  for (uint32_t t = 0; t < d.graph.size(); ++t)
    if (const uint32_t track = d.binding.track_of_task[t]; track != kNoInstance)
      rows[track].holds.push_back(m.name(d.graph.tasks[t].instr));
  return rows;
}

std::vector<PortRow> port_rows(const ir::Module& m) {
  std::vector<PortRow> rows;
  const ir::Computation& entry = m.computation(m.entry());
  auto add = [&](const std::string& name, const ir::Shape& s, const char* dir) {
    if (s.is_tuple()) return;
    rows.push_back({name, dir, s.element_count(), datapath_bits(s.element_type()), s.rank() == 0});
  };
  for (ir::InstrId p : entry.params)
    if (p != ir::kNoId) add(m.name(p), m.shape(p), "in");
  const ir::InstrId root = entry.root;
  if (m.opcode(root) == ir::Opcode::kTuple) {
    for (ir::InstrId o : m.operands(root)) add(m.name(o), m.shape(o), "out");
  } else {
    add(m.name(root), m.shape(root), "out");
  }
  return rows;
}

int64_t transfer_cycles(const std::vector<PortRow>& ports, const std::string& direction) {
  int64_t n = 0;
  for (const PortRow& p : ports)
    if (p.direction == direction && !p.scalar) n += p.elements + (direction == "out" ? 1 : 0);
  return n;
}

std::string tables_text(const ir::Module& m, const Target& t, const Estimate& e) {
  if (!e.details) return "";
  const EstimateDetails& d = *e.details;
  std::string out = "+ Loops (one loop nest per task; II: issue cycles per iteration on a lane):\n";
  out += fmt::format("    {:<18}{:<14}{:<14}{:>9}{:>6}{:>10}{:>9}{:>7}{:>10}\n", "name", "op", "unit", "trips", "lanes",
                     "latency", "II", "start", "pipelined");
  const std::vector<LoopRow> loops = loop_rows(m, t, d);
  for (const LoopRow& r : loops)
    out += fmt::format("    {:<18}{:<14}{:<14}{:>9}{:>6}{:>10}{:>9.2f}{:>7}{:>10}\n", r.name.substr(0, 17),
                       r.op.substr(0, 13), r.unit.substr(0, 13), r.trips, r.lanes, r.iteration_latency, r.ii, r.start,
                       r.pipelined ? "yes" : "no");
  for (const LoopRow& r : loops) {
    if (r.op != "while") continue;
    const std::string target = r.target_ii > 0 ? fmt::format("target II {}, ", r.target_ii) : "";
    if (r.pipelined)
      out += fmt::format("    {}: pipelined at II {} ({}{} trips, iteration latency {}; {})\n", r.name, r.pipeline_ii,
                         target, r.trips, r.iteration_latency,
                         r.pipeline_ii > 1 ? "II above 1: " + r.pipeline_reason : "II 1");
    else if (!r.not_pipelined_because.empty())
      out += fmt::format("    {}: not pipelined: {}{}\n", r.name, r.not_pipelined_because,
                         r.pipeline_ii > 0 ? fmt::format(" (its modulo schedule: II {}; {})", r.pipeline_ii, r.pipeline_reason)
                                           : std::string());
  }
  out += "\n+ Memories (binding tracks; one element per word):\n";
  out += fmt::format("    {:<6}{:<10}{:>14}{:>7}{:>9}{:>8}{:>8}  {}\n", "track", "kind", "words x bits", "ports", "BRAM18K",
                     "FF", "LUT", "holds");
  for (const MemoryRow& r : memory_rows(m, d))
    out += fmt::format("    {:<6}{:<10}{:>14}{:>7}{:>9.0f}{:>8.0f}{:>8.0f}  {}\n", r.track, r.bram ? "BRAM" : "registers",
                       fmt::format("{} x {}", r.words, r.bits), r.read_ports, r.area.bram18k, r.area.ff, r.area.lut,
                       join(r.holds, 4));
  const auto ports = port_rows(m);
  out += "\n+ Interface (start/done handshake; arrays through address/data memory ports, one\n"
         "  element per cycle while idle; outputs read one cycle after their address):\n";
  for (const PortRow& p : ports)
    out += fmt::format("    {:<4}{:<18}{}\n", p.direction, p.name.substr(0, 17),
                       p.scalar ? fmt::format("scalar, {} bits", p.bits)
                                : fmt::format("memory port, {} x {} bits", p.elements, p.bits));
  out += fmt::format("    transfer: {} cycles in, {} cycles out\n", transfer_cycles(ports, "in"),
                     transfer_cycles(ports, "out"));
  return out;
}

namespace {
// A while loop's pipelining fields: the II reached (null when no modulo schedule was
// found or tried), the target (null: the smallest), what holds the II above 1, and why
// it is not pipelined (null when it is).
std::string while_json(const LoopRow& r) {
  return fmt::format(", \"pipeline_ii\": {}, \"target_ii\": {}, \"pipeline_limit\": {}, \"not_pipelined_because\": {}",
                     r.pipeline_ii > 0 ? std::to_string(r.pipeline_ii) : "null",
                     r.target_ii > 0 ? std::to_string(r.target_ii) : "null",
                     r.pipeline_ii > 0 ? quote(r.pipeline_reason) : "null",
                     r.pipelined ? "null" : quote(r.not_pipelined_because));
}
}  // namespace

std::string tables_json(const ir::Module& m, const Target& t, const Estimate& e) {
  if (!e.details) return "";
  const EstimateDetails& d = *e.details;
  std::string out = ",\n  \"loops\": [";
  bool first = true;
  for (const LoopRow& r : loop_rows(m, t, d)) {
    out += fmt::format("{}\n    {{\"name\": {}, \"op\": {}, \"unit\": {}, \"trips\": {}, \"lanes\": {}, \"issue_cycles\": {}, "
                       "\"iteration_latency\": {}, \"ii\": {}, \"start\": {}, \"pipelined\": {}{}}}",
                       first ? "" : ",", quote(r.name), quote(r.op), quote(r.unit), r.trips, r.lanes, r.issue_cycles,
                       r.iteration_latency, num(r.ii), r.start, r.pipelined ? "true" : "false",
                       r.op == "while" ? while_json(r) : std::string());
    first = false;
  }
  out += "\n  ],\n  \"memories\": [";
  first = true;
  for (const MemoryRow& r : memory_rows(m, d)) {
    std::string holds;
    for (size_t k = 0; k < r.holds.size(); ++k) holds += (k ? ", " : "") + quote(r.holds[k]);
    out += fmt::format("{}\n    {{\"track\": {}, \"kind\": {}, \"words\": {}, \"bits\": {}, \"read_ports\": {}, "
                       "\"bram18k\": {}, \"ff\": {}, \"lut\": {}, \"holds\": [{}]}}",
                       first ? "" : ",", r.track, r.bram ? "\"bram\"" : "\"registers\"", r.words, r.bits, r.read_ports,
                       num(r.area.bram18k), num(r.area.ff), num(r.area.lut), holds);
    first = false;
  }
  const auto ports = port_rows(m);
  out += "\n  ],\n  \"interface\": {\"protocol\": \"start/done\", \"ports\": [";
  first = true;
  for (const PortRow& p : ports) {
    out += fmt::format("{}\n    {{\"name\": {}, \"direction\": \"{}\", \"elements\": {}, \"bits\": {}, \"kind\": \"{}\"}}",
                       first ? "" : ",", quote(p.name), p.direction, p.elements, p.bits, p.scalar ? "scalar" : "memory");
    first = false;
  }
  out += fmt::format("\n  ], \"transfer_in_cycles\": {}, \"transfer_out_cycles\": {}}}", transfer_cycles(ports, "in"),
                     transfer_cycles(ports, "out"));
  return out;
}

}  // namespace hlsgym::hwmodel::report_detail
