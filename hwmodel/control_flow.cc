#include "hwmodel/control_flow.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "hwmodel/binding.h"
#include "hwmodel/chaining.h"
#include "hwmodel/timing.h"
#include "hwmodel/unit_model.h"
#include "ir/error.h"

namespace hlsgym::hwmodel {
using ir::InstrId;
using ir::Opcode;

namespace {

void collect_leaves(const ir::Shape& s, std::vector<int64_t>& path, std::vector<StateLeaf>& out, const ir::Module& m,
                    InstrId w) {
  if (s.is_tuple()) {
    for (size_t k = 0; k < s.tuple_elements().size(); ++k) {
      path.push_back(static_cast<int64_t>(k));
      collect_leaves(s.tuple_element(static_cast<int64_t>(k)), path, out, m, w);
      path.pop_back();
    }
    return;
  }
  if (!s.is_array())
    throw Error(fmt::format("{}: its value holds a {} value; control-flow values must be arrays or tuples of arrays", m.name(w), s.to_string()),
                {m.source_file(), m.payload(w).line});
  StateLeaf l;
  l.type = s.element_type();
  l.elements = std::max<int64_t>(1, s.element_count());
  l.path = path;
  out.push_back(std::move(l));
}

// The entry computation's root: the design's outputs.
bool is_output(const ir::Module& m, InstrId i) {
  return m.computation_of(i) == m.entry() && m.is_root(i);
}

// Tasks reading the leaf at `path` of `value`: followed through get-tuple-element and the
// ops that alias their operand; any other user reads it (or the whole tuple) once. A leaf
// that is one of the design's outputs (the entry's root, or an operand of its root tuple)
// is read once more: rtl reads an output array through a port of its own after the
// schedule (dus_loop: the loop's 24-word state is the output, its second read port 409 LUT
// in Yosys).
int readers(const ir::Module& m, InstrId value, std::span<const int64_t> path) {
  int n = is_output(m, value) ? 1 : 0;
  for (InstrId u : m.users(value)) {
    switch (m.opcode(u)) {
      case Opcode::kGetTupleElement:
        if (!path.empty() && m.attrs(u).tuple_index == path.front()) n += readers(m, u, path.subspan(1));
        break;
      case Opcode::kTuple:  // re-packed (a body's result): read by the copy-back, not from this memory
        if (is_output(m, u)) ++n;  // an output leaf: its read port
        break;
      case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kOptimizationBarrier:
        n += readers(m, u, path);
        break;
      case Opcode::kConditional:  // each branch's readers of its operand (rtl: a port each)
        for (size_t k = 1; k < m.operands(u).size(); ++k)
          if (m.operand(u, k) == value) n += branch_operand_readers(m, u, k - 1, {path.begin(), path.end()});
        break;
      default:
        ++n;
        break;
    }
  }
  return n;
}

}  // namespace

std::pair<InstrId, std::vector<int64_t>> leaf_source(const ir::Module& m, InstrId v, std::vector<int64_t> path) {
  for (;;) {
    if (m.opcode(v) == Opcode::kTuple && !path.empty()) {
      v = m.operand(v, static_cast<size_t>(path.front()));
      path.erase(path.begin());
    } else if (m.opcode(v) == Opcode::kGetTupleElement) {
      path.insert(path.begin(), m.attrs(v).tuple_index);
      v = m.operand(v, 0);
    } else {
      return {v, std::move(path)};
    }
  }
}

int branch_operand_readers(const ir::Module& m, InstrId c, size_t branch, const std::vector<int64_t>& path) {
  const ir::Computation& b = m.computation(m.called(c)[branch]);
  if (b.params.empty() || b.params[0] == ir::kNoId) return 0;
  const InstrId p = b.params[0];
  const bool copied_out = leaf_source(m, b.root, path) == std::pair<InstrId, std::vector<int64_t>>{p, path};
  return readers(m, p, path) + (copied_out ? 1 : 0);
}

int64_t WhileLoop::latency() const {
  // saturates like the lowering's other loop products (absurd trip counts)
  constexpr int64_t kCap = int64_t{1} << 50;
  const auto mul = [&](int64_t a, int64_t b) { return b > 0 && a > kCap / b ? kCap : a * b; };
  if (ii > 0) return std::min(kCap, copy_in + (trips > 0 ? mul(trips - 1, ii) + body : 0));
  return std::min(kCap, copy_in + mul(trips + 1, condition + kDecide) + mul(trips, body + copy_back));
}

int state_copy_depth(const Target& t) { return std::max(1, t.memory.front().latency) + static_cast<int>(kMemoryReadLatency); }

int64_t state_copy_cycles(const Target& t, int64_t elements) {
  return stream_timing(elements, 1, state_copy_depth(t)).latency;
}

std::vector<StateLeaf> state_leaves(const ir::Module& m, InstrId w) {
  std::vector<StateLeaf> leaves;
  std::vector<int64_t> path;
  collect_leaves(m.shape(w), path, leaves, m, w);
  const ir::Computation& body = m.computation(m.called(w)[1]);
  const InstrId body_param = body.params.empty() ? ir::kNoId : body.params[0];
  for (StateLeaf& s : leaves) {
    const auto [from, rest] = leaf_source(m, body.root, s.path);
    s.copy_back = !(from == body_param && rest == s.path);
  }
  return leaves;
}

WhileLoop while_loop(const ir::Module& m, InstrId w, const Target& t, int64_t trips, int64_t condition_cycles,
                     int64_t body_cycles, int64_t pipeline_ii) {
  WhileLoop l;
  l.leaves = state_leaves(m, w);
  l.trips = trips;
  l.condition = pipeline_ii > 0 ? 0 : condition_cycles;
  l.body = body_cycles;
  l.ii = pipeline_ii;
  const auto& called = m.called(w);  // condition, body
  const ir::Computation& cond = m.computation(called[0]);
  const ir::Computation& body = m.computation(called[1]);
  const InstrId body_param = body.params.empty() ? ir::kNoId : body.params[0];
  for (StateLeaf& s : l.leaves) {
    const auto [init, rest] = leaf_source(m, m.operand(w, 0), s.path);
    s.literal_init = rest.empty() && splat_source(m, init).has_value();
    s.readers = readers(m, w, s.path);
    if (body_param != ir::kNoId) s.readers += readers(m, body_param, s.path);
    l.copy_in = std::max(l.copy_in, state_copy_cycles(t, s.elements));
    if (pipeline_ii > 0) {
      // no condition; the body's readers of the new value read it here too
      if (s.copy_back) s.readers += readers(m, leaf_source(m, body.root, s.path).first, {});
      continue;
    }
    if (!cond.params.empty()) s.readers += readers(m, cond.params[0], s.path);
    if (s.copy_back) l.copy_back = std::max(l.copy_back, state_copy_cycles(t, s.elements));
  }
  // A leaf whose next value is another leaf's current one (the body returns that leaf
  // unchanged in its place: a swap) is copied back out of that leaf's memory, through a
  // read port of its own (rtl: swap_loop's b has 3 read ports, each a 16-bit 4:1 read
  // multiplexer in Yosys; `readers` skips the body's root tuple, which re-packs the value).
  if (pipeline_ii == 0 && body_param != ir::kNoId)
    for (const StateLeaf& s : l.leaves) {
      if (!s.copy_back) continue;
      const auto [from, rest] = leaf_source(m, body.root, s.path);
      if (from != body_param) continue;
      for (StateLeaf& other : l.leaves)
        if (other.path == rest) ++other.readers;
    }
  return l;
}

namespace {
// A memory of its own for a state or result leaf: registers or block RAM as the binding
// decides for any buffer, a read port per reader (one word: one shared port, binding.cc).
Area leaf_memory(const Target& t, const StateLeaf& s) {
  Area a;
  const int bits = datapath_bits(s.type);
  const int64_t bytes = s.elements * ir::byte_width(s.type);
  const int ports = s.elements == 1 ? 1 : std::max(1, s.readers);
  if (t.in_registers(bytes)) {
    a.ff += static_cast<double>(s.elements) * bits + static_cast<double>(ports) * bits;
    a.lut += t.register_file.luts(s.elements, bits, ports);
  } else {
    a.bram18k += bram_blocks(t, bytes, ir::byte_width(s.type) * 8, 1) * ports;
  }
  return a;
}

// One copy lane's datapath as rtl builds it (a `mem` stream of depth D = read stage +
// memory latency): the value rides D - 2 pipeline registers after the port's read
// register. Its valid bits, element index tags and element counter are the lane's control
// logic, counted with every other lane's from the plan (microarch_control.h), not here. A
// copy of a literal (`from_literal`) carries a constant: synthesis keeps none of its
// value registers (Yosys on mixed_state, cordic, zero_trip: 32 of 32 removed per s32 leaf).
Area copy_lane(const Target& t, const StateLeaf& s, bool from_literal) {
  const int d = state_copy_depth(t);
  Area a;
  if (!from_literal) a.ff = static_cast<double>(datapath_bits(s.type)) * (d - 2);
  return a;
}

// The write port of a memory with `writers` copy lanes (never active at once): a
// `writers`:1 multiplexer on its data, as the binding prices a shared unit's inputs. A
// one-word memory whose other writer writes a literal (a loop's constant copy-in) has
// none: synthesis makes that write the word's synchronous set/reset, one LUT for its
// condition (scripts/calibrate_write_port.sh: 1 x 32 with a literal writer 1 LUT, two
// writers of values 32; from 6 words the literal saves nothing).
double write_mux_luts(const StateLeaf& s, int writers, bool literal_writer) {
  if (writers == 2 && literal_writer && s.elements == 1) return 1;
  return writers > 1 ? datapath_bits(s.type) * std::ceil((writers - 1) / 3.0) : 0;
}

double copy_pj(const Target& t, double bytes) {
  return bytes / 8.0 * t.memory.front().pj_per_64bit * t.hard_block_energy_factor;
}
}  // namespace

Area state_area(const Target& t, const WhileLoop& loop) {
  Area a;
  for (const StateLeaf& s : loop.leaves) {
    a += leaf_memory(t, s);
    a += copy_lane(t, s, s.literal_init);                             // copy-in
    if (s.copy_back && loop.ii == 0) a += copy_lane(t, s, false);  // copy-back (pipelined: the body's writer)
    a.lut += write_mux_luts(s, s.copy_back ? 2 : 1, s.literal_init);
  }
  return a;
}

double state_copy_pj(const Target& t, const WhileLoop& loop) {
  double bytes = 0;
  for (const StateLeaf& s : loop.leaves) {
    const double b = static_cast<double>(s.elements * ir::byte_width(s.type));
    bytes += 2 * b;                                                   // copy-in: read + write
    if (s.copy_back && loop.ii == 0) bytes += 2 * b * static_cast<double>(loop.trips);  // every iteration
  }
  return copy_pj(t, bytes);
}

int64_t Conditional::latency() const {
  int64_t slowest = 0;
  for (int64_t b : branches) slowest = std::max(slowest, b);
  return kDecide + slowest + copy_out;
}

Conditional conditional(const ir::Module& m, InstrId c, const Target& t, std::vector<int64_t> branch_cycles) {
  Conditional x;
  std::vector<int64_t> path;
  collect_leaves(m.shape(c), path, x.leaves, m, c);
  x.branches = std::move(branch_cycles);
  for (StateLeaf& s : x.leaves) {
    s.readers = readers(m, c, s.path);
    x.copy_out = std::max(x.copy_out, state_copy_cycles(t, s.elements));
  }
  return x;
}

Area result_area(const Target& t, const Conditional& c) {
  Area a;
  for (const StateLeaf& s : c.leaves) {
    a += leaf_memory(t, s);
    const Area lane = copy_lane(t, s, false);
    for (size_t k = 0; k < c.branches.size(); ++k) a += lane;  // each branch's copy-out
    a.lut += write_mux_luts(s, static_cast<int>(c.branches.size()), false);
  }
  return a;
}

double result_copy_pj(const Target& t, const Conditional& c) {
  double bytes = 0;
  for (const StateLeaf& s : c.leaves) bytes += 2.0 * static_cast<double>(s.elements * ir::byte_width(s.type));
  return copy_pj(t, bytes);
}

}  // namespace hlsgym::hwmodel
