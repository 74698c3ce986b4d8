#include "hwmodel/clock.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hwmodel/chaining.h"
#include "hwmodel/clock_address.h"
#include "hwmodel/lowering.h"
#include "hwmodel/timing.h"
#include "hwmodel/unit_model.h"

namespace hlsgym::hwmodel {
namespace {
using ir::Opcode;

// `what` names the path only when it is the slowest so far (formatting is the cost).
template <typename Describe>
void consider(ClockEstimate& c, double ns, const Describe& what) {
  if (ns > c.critical_ns) {
    c.critical_ns = ns;
    c.path = what();
  }
}

// The measured operation class an opcode's logic is (timing.ops), or empty: not measured.
std::string_view op_kind(const ir::Module& m, ir::InstrId i) {
  const ir::Instruction& in = m.instr(i);
  if (ir::is_floating(in.payload->shape.element_type()) || ir::is_complex(in.payload->shape.element_type())) return {};
  switch (in.opcode) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kNegate: return "add";
    case Opcode::kCompare:  // a signed compare fixes its carry's sign: a LUT level more
      return ir::is_unsigned_integral(m.instr(m.operand(i, 0)).payload->shape.element_type()) ? "compare_unsigned"
                                                                                              : "compare";
    case Opcode::kMaximum: case Opcode::kMinimum: return "max";
    case Opcode::kAbs: return "abs";
    case Opcode::kClamp: return "clamp";
    case Opcode::kShiftLeft: case Opcode::kShiftRightLogical: case Opcode::kShiftRightArithmetic:
      return splat_source(m, m.operand(i, 1)) ? std::string_view("logic") : std::string_view("shift");
    case Opcode::kDivide: case Opcode::kRemainder: case Opcode::kPower: return {};
    default: return "logic";  // bitwise ops, select, converts, products (a DSP), data movement
  }
}

class PathModel {
 public:
  PathModel(const ir::Module& m, const Target& t) : m_(m), t_(t), tm_(t.timing) {}

  // Delay of one registered instance of `i`'s operation at `bits` on `lanes` lanes, or < 0
  // with why_ set.
  double op(ir::InstrId i, int bits, int64_t lanes = 1) {
    const ir::Instruction& in = m_.instr(i);
    switch (in.opcode) {
      // rtl computes a fused body in one stage and carries the value through registers
      case Opcode::kFusion: case Opcode::kMap: return chain(in.payload->called[0], bits);
      case Opcode::kReduce: case Opcode::kReduceWindow: {
        // rtl: the accumulator leaf selects the init value (a read) or the slot's register
        const double c = chain(in.payload->called[0], bits);
        return c < 0 ? c : c + tm_.lut_ns;  // the accumulator's init select
      }
      case Opcode::kDot: case Opcode::kConvolution: return mac_accumulate(i, bits, lanes);
      default: break;
    }
    const std::string_view k = op_kind(m_, i);
    if (k.empty()) {
      why_ = fmt::format("no measured delay for {} on {}", ir::name(in.opcode),
                         ir::element_type_name(in.payload->shape.element_type()));
      return -1;
    }
    return tm_.op(k, bits);
  }
  const std::string& why() const { return why_; }

 private:
  // An integer mac's accumulator stage as rtl builds it (rtl/verilog_units.cc
  // emit_accumulate): the registered product plus the slot's register, which its
  // flip-flops' reset clears the cycle before an output's first term (clear_slots), so no
  // init select stands in front of the adder. What does: the select among g slot
  // registers (a LUT level per select bit) when a lane interleaves g outputs, and the
  // clear of a split lane's partial sum. A float mac is an IEEE-754 adder: not measured.
  double mac_accumulate(ir::InstrId i, int bits, int64_t lanes) {
    const ir::Instruction& in = m_.instr(i);
    const ir::ElementType type = m_.instr(m_.operand(i, 0)).payload->shape.element_type();
    if (ir::is_floating(type) || ir::is_complex(type)) {
      why_ = fmt::format("no measured delay for {} on {}", ir::name(in.opcode), ir::element_type_name(type));
      return -1;
    }
    const AccumulateShape sh = accumulate_shape(in.payload->shape.element_count(), contraction_terms(m_, i), lanes,
                                                t_.unit(mac_adder(UnitClass::kIntMac)).latency);
    return tm_.op("mac", bits) + tm_.lut_ns * (ceil_log2(sh.group) + (sh.split > 1 ? 1 : 0));
  }

  // No logic of its own in a fused body, as lowering_body.cc prices it.
  bool free_op(ir::InstrId i) const { return fused_index_op(m_.instr(i).opcode) || wiring_convert(m_, i); }

  // The slowest chain through a computation's ops computed in one cycle: the first op on
  // a path pays its own delay; each op after it adds one LUT level, as ripple-carry
  // adders in series overlap (bit k of the next waits for bit k of this one, not for the
  // whole carry chain).
  double chain(ir::CompId c, int bits) {
    const ir::Computation& comp = m_.computation(c);
    std::unordered_map<ir::InstrId, double> at;
    double longest = 0;
    const double overhead = tm_.op("logic", bits) - tm_.lut_ns;
    for (ir::InstrId i : comp.order) {
      const ir::Instruction& in = m_.instr(i);
      if (in.dead) continue;
      double before = 0;
      for (ir::InstrId o : m_.operands(i))
        if (auto it = at.find(o); it != at.end()) before = std::max(before, it->second);
      double here = before;
      if (!free_op(i)) {
        const double d = this->op(i, bits);
        if (d < 0) return d;
        here = before > 0 ? before + tm_.lut_ns : d - overhead;
      }
      at[i] = here;
      longest = std::max(longest, at[i]);
    }
    return overhead + std::max(longest, tm_.lut_ns);
  }

  const ir::Module& m_;
  const Target& t_;
  const TimingModel& tm_;
  std::string why_;
};

// Reads whose address is the item counter itself need no address arithmetic.
bool counter_addressed(Opcode op) {
  switch (op) {
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kDot: case Opcode::kConvolution:
    case Opcode::kSlice: case Opcode::kPad: case Opcode::kTranspose: case Opcode::kConcatenate:
    case Opcode::kGather: case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice:
    case Opcode::kReverse: case Opcode::kBroadcast: return false;
    default: return true;
  }
}

// A loop body's or branch's state lives in its caller (the caller's register track per
// leaf, rtl's lp_*_s_k): a value that is a parameter of a called computation, or a leaf of
// one through get-tuple-element and one-operand aliases. nullopt for the entry's values
// and values computed here.
std::optional<ir::InstrId> caller_leaf(const ir::Module& m, const TaskGraph& g, uint32_t d) {
  const ir::InstrId i = g.tasks[d].instr;
  if (i == ir::kNoId || m.computation_of(i) == m.entry()) return std::nullopt;
  for (uint32_t k = d;;) {
    const ir::InstrId at = g.tasks[k].instr;
    if (at != ir::kNoId && m.instr(at).opcode == Opcode::kParameter) return i;
    const auto deps = g.deps_of(k);
    if (!g.tasks[k].alias || deps.size() != 1) return std::nullopt;
    k = deps.front();
  }
}

// The words of the caller's register track that holds value `i` (its elements), or 0
// when the caller keeps it in block RAM (whose read register is the RAM's own).
int64_t caller_track_words(const ir::Module& m, const Target& t, ir::InstrId i) {
  const ir::Shape& s = m.instr(i).payload->shape;
  if (!s.is_array() || !t.in_registers(s.byte_size())) return 0;
  return s.element_count();
}

// Whether task `k`'s result is a leaf of its (called) computation's root: rtl writes it
// into the caller's state track in place, the body holding no buffer of its own.
bool writes_caller_leaf(const ir::Module& m, ir::InstrId i) {
  const ir::CompId c = m.computation_of(i);
  if (c == m.entry()) return false;
  const ir::InstrId root = m.computation(c).root;
  if (root == i) return true;
  if (m.instr(root).opcode != Opcode::kTuple) return false;
  const auto ops = m.operands(root);
  return std::find(ops.begin(), ops.end(), i) != ops.end();
}

// The bits of the compare that clamps a gather's (or dynamic-slice's) run-time start
// (rtl/verilog_units.cc clamp_start), for task `k` reading its operand; 0 when synthesis
// folds it: a literal start, or an unsigned start stored narrowed (value_bits.h) whose
// every value is a start in range (embedding's ids & 15 over 16 rows, gather_bytes' idx
// & 7 over 9 columns: the compare of the zero-extended word against the last start is
// constant).
int clamp_bits(const ir::Module& m, const TaskGraph& g, size_t k) {
  const ir::InstrId reader = g.tasks[k].instr;
  const Opcode opcode = m.instr(reader).opcode;
  const auto ops = m.operands(reader);
  if ((opcode != Opcode::kGather && opcode != Opcode::kDynamicSlice) || ops.size() < 2 || splat_source(m, ops[1]))
    return 0;
  const int full = datapath_bits(m.instr(ops[1]).payload->shape.element_type());
  if (opcode != Opcode::kGather) return full;
  for (uint32_t d : g.deps_of(k)) {
    if (g.tasks[d].instr != ops[1]) continue;
    uint32_t at = d;  // the start indices' buffer, through aliases (a reshape of them)
    while (g.tasks[at].alias && g.tasks[at].stored_bits == 0 && g.deps_of(at).size() == 1) at = g.deps_of(at).front();
    const Task& ix = g.tasks[at];
    if (ix.stored_bits == 0) return full;
    const ir::GatherDims* gd = m.instr(reader).payload->attrs.gather_dims ? &*m.instr(reader).payload->attrs.gather_dims : nullptr;
    const ir::Shape& s = m.instr(ops[0]).payload->shape;
    if (ix.stored_sign || !gd || gd->slice_sizes.size() != static_cast<size_t>(s.rank()) || ix.stored_bits >= 63)
      return ix.stored_bits;
    const int64_t largest = (int64_t{1} << ix.stored_bits) - 1;
    for (int64_t dim : gd->start_index_map)
      if (largest > s.dim(dim) - gd->slice_sizes[dim]) return ix.stored_bits;
    return 0;
  }
  return full;
}

// A read port's path: its address arithmetic, then the multiplexer of `words` words of
// `bits` bits into the read register. A run-time start reaches the operand's address
// through its clamp to the last start (`clamp` bits: read from the index's register, compared).
double read_port_path(const ir::Module& m, const Target& t, ir::InstrId reader, ir::InstrId operand, Opcode opcode,
                      int64_t words, int bits, int clamp) {
  const TimingModel& tm = t.timing;
  double ns = tm.read_port(words, bits);
  // the first adder pays its carry chain, each later one a LUT level (ripple adders in
  // series overlap, as in a fused body's chain)
  const int adders = address_adders(m, reader, operand).value_or(counter_addressed(opcode) ? 0 : 1);
  if (adders > 0) ns += tm.lut_ns + tm.carry_ns * ceil_log2(words) + (adders - 1) * tm.lut_ns;
  if (clamp > 0 && m.operands(reader).front() == operand) ns += tm.gather_start(clamp);
  return ns;
}

}  // namespace

void ClockEstimate::place(double logic_cells, const TimingModel& tm) {
  route_factor = tm.route_factor(logic_cells);
  critical_ns *= route_factor;
}

void ClockEstimate::merge(const ClockEstimate& other) {
  if (!other.modeled) {
    if (unmodeled.empty()) unmodeled = other.unmodeled;
    modeled = false;
  }
  if (other.critical_ns > critical_ns) {
    critical_ns = other.critical_ns;
    path = other.path;
  }
}

ClockEstimate estimate_clock(const ir::Module& m, const TaskGraph& g, const Binding& b, const Schedule& s,
                             const Target& t) {
  ClockEstimate c;
  const TimingModel& tm = t.timing;
  if (!t.is_fpga() || !tm.present()) {
    c.unmodeled = fmt::format("target {} has no timing model", t.name);
    return c;
  }
  c.modeled = true;
  // Writers of each track: the instances whose results it stores, and the host's input
  // port when it holds a parameter (rtl: the write port selects among them).
  std::vector<std::pair<uint32_t, uint32_t>> track_writer;  // distinct (track, writer)
  for (size_t k = 0; k < g.size(); ++k) {
    const uint32_t track = b.track_of_task[k];
    if (track == kNoInstance) continue;
    if (b.unit_of_task[k] != kNoInstance) track_writer.emplace_back(track, b.unit_of_task[k]);
    else if (g.tasks[k].instr != ir::kNoId && m.instr(g.tasks[k].instr).opcode == Opcode::kParameter)
      track_writer.emplace_back(track, kNoInstance);
  }
  std::sort(track_writer.begin(), track_writer.end());
  track_writer.erase(std::unique(track_writer.begin(), track_writer.end()), track_writer.end());
  std::vector<int64_t> writers(b.tracks.size(), 0);
  for (const auto& tw : track_writer) ++writers[tw.first];
  // A shared instance selects its result by a chain of ifs in its tasks' start order
  // (rtl/verilog_units.cc), the last nearest the register: a task's result passes its own
  // select and every later task's. The measured curve is a first task's (all n).
  std::vector<int64_t> selects(g.size(), 0);
  {
    std::vector<std::vector<uint32_t>> on(b.units.size());
    for (size_t k = 0; k < g.size(); ++k)
      if (b.unit_of_task[k] != kNoInstance) on[b.unit_of_task[k]].push_back(static_cast<uint32_t>(k));
    for (auto& ks : on) {
      std::sort(ks.begin(), ks.end(), [&](uint32_t x, uint32_t y) { return s.start[x] < s.start[y]; });
      for (size_t q = 0; q < ks.size(); ++q) selects[ks[q]] = ks.size() > 1 ? std::max<int64_t>(2, ks.size() - q) : 1;
    }
  }
  // An instance's result net (after its tasks' select) reaches the word registers of every
  // track any of its tasks stores into: a register file's words, or the caller's state
  // track a body's result is written to in place.
  std::vector<int64_t> fanout(b.units.size(), 0);
  {
    std::vector<std::pair<uint32_t, int64_t>> dest;  // (instance, track or ~task) once each
    for (size_t k = 0; k < g.size(); ++k) {
      const uint32_t u = b.unit_of_task[k], track = b.track_of_task[k];
      if (u == kNoInstance || g.tasks[k].instr == ir::kNoId) continue;
      if (track != kNoInstance) {
        if (b.tracks[track].registers) dest.emplace_back(u, track);
      } else if (writes_caller_leaf(m, g.tasks[k].instr)) {
        dest.emplace_back(u, ~static_cast<int64_t>(k));
      }
    }
    std::sort(dest.begin(), dest.end());
    dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
    for (const auto& [u, where] : dest)
      fanout[u] += where >= 0 ? b.tracks[where].words : caller_track_words(m, t, g.tasks[~where].instr);
  }
  PathModel ops(m, t);
  for (size_t k = 0; k < g.size(); ++k) {
    const Task& task = g.tasks[k];
    const uint32_t u = b.unit_of_task[k];
    if (u == kNoInstance || task.instr == ir::kNoId) continue;
    const Opcode opcode = m.instr(task.instr).opcode;
    const std::string& name = m.instr(task.instr).payload->name;
    const double d = ops.op(task.instr, task.width, task.lanes);
    if (d < 0) {  // no critical path without every path: the first unpriced op says why
      c.modeled = false;
      c.unmodeled = fmt::format("{} ({})", ops.why(), name);
      return c;
    }
    const UnitInstance& inst = b.units[u];
    const uint32_t track = b.track_of_task[k];
    const int write_select = track == kNoInstance ? 0 : ceil_log2(writers[track]);
    // A shared instance selects its task's result; the result's one net reaches every word
    // register of the tracks the instance stores into (fanout above).
    const double store = tm.write_port(fanout[u]);
    consider(c, d + tm.shared_unit(selects[k]) + write_select * tm.lut_ns + store, [&] {
      return fmt::format("{}.{} stage: {} {} ({} bits{})", unit_class_name(static_cast<UnitClass>(inst.unit)), inst.index,
                         ir::name(opcode), name, task.width,
                         inst.tasks > 1 ? fmt::format(", {} tasks share it", inst.tasks) : std::string());
    });
    const auto deps = g.deps_of(k);
    const auto reads = g.dep_reads_of(k);
    const int clamp = clamp_bits(m, g, k);
    for (size_t q = 0; q < deps.size(); ++q) {
      if (reads[q] == 0) continue;
      const uint32_t d = deps[q];
      const std::optional<ir::InstrId> leaf = caller_leaf(m, g, d);
      if (leaf) {  // the caller's register track: its word multiplexer, by the reader's address
        const int64_t words = caller_track_words(m, t, *leaf);
        if (words == 0) continue;
        const int bits = datapath_bits(m.instr(*leaf).payload->shape.element_type());
        const double ns = read_port_path(m, t, task.instr, g.tasks[d].instr, opcode, words, bits, clamp);
        consider(c, ns, [&] {
          return fmt::format("read port of the caller's {} ({} words) by {} {}", m.instr(*leaf).payload->name, words,
                             ir::name(opcode), name);
        });
        continue;
      }
      const std::span<const uint32_t> direct(&b.track_of_task[d], b.track_of_task[d] == kNoInstance ? 0 : 1);
      for (uint32_t src : g.tasks[d].alias ? std::span<const uint32_t>(b.alias_tracks[d]) : direct) {
        const BufferTrack& tr = b.tracks[src];
        if (!tr.registers) continue;  // block RAM: its read is the RAM's own register
        // the multiplexer spans the words the reader's address reaches (binding.cc)
        const int64_t words = g.tasks[d].alias ? tr.words : std::min(tr.words, elements_of(g.tasks[d]));
        // the multiplexer carries the bits of the value read (synthesis drops a wider
        // buffer's unread bits: embedding's s16 rows in a track of s32 words)
        const int bits = std::min<int>(tr.bits, g.tasks[d].value_bits > 0 ? g.tasks[d].value_bits : tr.bits);
        const double ns = read_port_path(m, t, task.instr, g.tasks[d].instr, opcode, words, bits, clamp);
        consider(c, ns, [&] {
          return fmt::format("read port of track {} ({} words) by {} {}", src, words, ir::name(opcode), name);
        });
      }
    }
  }
  return c;
}

}  // namespace hlsgym::hwmodel
