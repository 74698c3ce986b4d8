#include "hwmodel/binding.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <cmath>
#include <numeric>

#include "hwmodel/timing.h"

namespace hlsgym::hwmodel {
namespace {

struct Free {
  int64_t time;
  uint32_t id;
};
struct LaterFree {
  bool operator()(const Free& a, const Free& b) const { return a.time != b.time ? a.time > b.time : a.id > b.id; }
};

// Pops the earliest-free entry if it is free by `at`, else returns kNoInstance.
uint32_t take_free(std::vector<Free>& heap, int64_t at) {
  if (heap.empty() || heap.front().time > at) return kNoInstance;
  std::pop_heap(heap.begin(), heap.end(), LaterFree{});
  const uint32_t id = heap.back().id;
  heap.pop_back();
  return id;
}
void give_back(std::vector<Free>& heap, int64_t time, uint32_t id) {
  heap.push_back({time, id});
  std::push_heap(heap.begin(), heap.end(), LaterFree{});
}

// The select of the active task's result among tasks of these widths on one lane: bit b
// is a multiplexer of the c tasks wider than b, ceil((c - 1) / 3) LUTs (a LUT6 selects 4
// ways; a lone task's bits need none).
double result_select_luts(std::vector<uint16_t> widths) {
  std::sort(widths.begin(), widths.end(), std::greater<>());
  double luts = 0;
  for (size_t j = 1; j < widths.size(); ++j) {  // bits [w_{j+1}, w_j) have j + 1 tasks
    const int below = j + 1 < widths.size() ? widths[j + 1] : 0;
    luts += static_cast<double>(widths[j] - below) * std::ceil(static_cast<double>(j) / 3.0);
  }
  return luts;
}

// `order`: every task by (start, index).
void bind_units(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s, const Target& tgt,
                const std::vector<uint32_t>& order, const ModuloBinding* modulo, Binding& b) {
  std::vector<std::vector<Free>> heaps(p.limits.size());
  std::vector<int> count(p.limits.size(), 0);
  // Per instance: the IEEE-754 units its one-op float tasks are (Task::float_unit), each
  // priced once at its widest task; the rest of its tasks share one datapath, priced at
  // the most expensive (rtl: tasks on one instance share its units, distinct ones add).
  std::vector<std::vector<std::pair<int16_t, Area>>> float_units;
  std::vector<std::vector<uint16_t>> alu_widths;  // per int_alu instance: its tasks' widths
  // Per instance: its Task::own_logic tasks, their logic summed and at its largest, their
  // widths, and whether they all are one lone product (a common Task::lone_product).
  struct OwnLogic {
    Area sum, largest;
    std::vector<uint16_t> widths;
    uint32_t product = 0;
    bool one_product = true;
  };
  std::vector<OwnLogic> own;
  std::map<std::pair<uint16_t, int>, uint32_t> given;  // modulo: (resource, instance) -> unit
  for (uint32_t t : order) {
    const Task& k = g.tasks[t];
    if (k.unit == kNoUnit || p.busy[t] <= 0 || p.resource[t] == kUnlimited) continue;
    const uint16_t r = p.resource[t];
    uint32_t inst = kNoInstance;
    if (!modulo) inst = take_free(heaps[r], s.start[t]);
    else if (const int x = modulo->instance[t]; x >= 0)
      if (const auto it = given.find({r, x}); it != given.end()) inst = it->second;
    if (inst == kNoInstance) {
      if (modulo && modulo->instance[t] >= 0) given[{r, modulo->instance[t]}] = static_cast<uint32_t>(b.units.size());
      inst = static_cast<uint32_t>(b.units.size());
      UnitInstance u;
      u.resource = r;
      u.unit = k.unit;
      u.index = count[r]++;
      b.units.push_back(u);
    }
    UnitInstance& u = b.units[inst];
    if (float_units.size() < b.units.size()) float_units.resize(b.units.size());
    ++u.tasks;
    u.busy_cycles += p.busy[t];
    u.lanes = std::max(u.lanes, k.lanes);
    u.width = std::max(u.width, k.width);
    u.ports = std::max(u.ports, k.ports);
    Area* a = &u.area;
    const bool alu = tgt.is_fpga() && k.unit == static_cast<uint8_t>(UnitClass::kIntAlu) && k.float_unit < 0;
    if (alu) {
      // rtl builds each int_alu task's logic (a LUT datapath is no cheaper shared) and
      // selects the active task's result: the logic adds up, the select is priced below
      if (alu_widths.size() < b.units.size()) alu_widths.resize(b.units.size());
      alu_widths[inst].push_back(k.width);
      u.area.lut += k.area.lut;
    } else if (k.own_logic) {
      if (own.size() < b.units.size()) own.resize(b.units.size());
      OwnLogic& o = own[inst];
      o.sum.lut += k.area.lut;
      o.sum.dsp += k.area.dsp;
      o.largest.lut = std::max(o.largest.lut, k.area.lut);
      o.largest.dsp = std::max(o.largest.dsp, k.area.dsp);
      o.widths.push_back(k.width);
      if (o.widths.size() == 1) o.product = k.lone_product;
      o.one_product = o.one_product && k.lone_product != 0 && k.lone_product == o.product;
    } else if (k.float_unit >= 0) {
      auto& units = float_units[inst];
      auto it = std::find_if(units.begin(), units.end(), [&](const auto& x) { return x.first == k.float_unit; });
      if (it == units.end()) it = units.insert(units.end(), {k.float_unit, Area{}});
      a = &it->second;
    }
    if (!k.own_logic || alu) a->dsp = std::max(a->dsp, k.area.dsp);
    if (!alu && !k.own_logic) a->lut = std::max(a->lut, k.area.lut);
    a->ff = std::max(a->ff, k.area.ff);
    b.unit_of_task[t] = inst;
    give_back(heaps[r], s.start[t] + p.busy[t], inst);
  }
  for (size_t k = 0; k < float_units.size(); ++k)
    for (const auto& [id, area] : float_units[k]) b.units[k].area += area;
  for (UnitInstance& u : b.units) {
    const size_t i = static_cast<size_t>(&u - b.units.data());
    const OwnLogic* o = i < own.size() && !own[i].widths.empty() ? &own[i] : nullptr;
    // One lone product shared: priced once, its operands multiplexed (below). Else every
    // task's logic is built: it adds, and the active task's result is selected.
    const bool shared_product = o && o->one_product && o->widths.size() > 1;
    if (o) {
      const Area& logic = shared_product ? o->largest : o->sum;
      u.area.lut += logic.lut;
      u.area.dsp += logic.dsp;
    }
    if (tgt.is_fpga() && i < alu_widths.size() && !alu_widths[i].empty())
      u.mux_lut = static_cast<double>(u.lanes) * result_select_luts(alu_widths[i]);
    else if (o && !shared_product && u.tasks > 1)
      u.mux_lut = static_cast<double>(u.lanes) * result_select_luts(o->widths);
    else if (tgt.is_fpga() && u.tasks > 1)
      u.mux_lut = static_cast<double>(u.lanes) * u.ports * u.width * std::ceil((u.tasks - 1) / 3.0);
    b.unit_area += u.area;
    b.mux_area.lut += u.mux_lut;
    b.dataflow_ii = std::max(b.dataflow_ii, u.busy_cycles);
  }
}

// When each buffer is freed: its last reader's end, carried back through aliases.
std::vector<int64_t> buffer_ends(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s) {
  const size_t n = g.size();
  std::vector<int64_t> end(n);
  for (size_t t = 0; t < n; ++t) end[t] = g.tasks[t].output ? s.length : s.start[t] + p.latency[t];
  for (size_t t = 0; t < n; ++t)
    for (uint32_t d : g.deps_of(t)) end[d] = std::max(end[d], s.start[t] + p.latency[t]);
  for (size_t t = n; t-- > 0;)
    if (g.tasks[t].alias)
      for (uint32_t d : g.deps_of(t)) end[d] = std::max(end[d], end[t]);
  return end;
}

int64_t buffer_start(const Task& k, const Schedule& s, size_t t) { return k.input ? 0 : s.start[t]; }

// Buffer owners in order of their buffer's start: inputs (cycle 0) first, then the
// others in `order`.
std::vector<uint32_t> buffer_order(const TaskGraph& g, const std::vector<uint32_t>& order) {
  std::vector<uint32_t> owners;
  owners.reserve(g.size());
  for (size_t t = 0; t < g.size(); ++t)
    if (g.tasks[t].footprint > 0 && g.tasks[t].input) owners.push_back(static_cast<uint32_t>(t));
  for (uint32_t t : order)
    if (g.tasks[t].footprint > 0 && !g.tasks[t].input) owners.push_back(t);
  return owners;
}

void bind_buffers(const TaskGraph& g, const Schedule& s, const Target& tgt, const std::vector<uint32_t>& owners,
                  bool share, Binding& b) {
  std::vector<Free> reg_heap, bram_heap;
  for (uint32_t t : owners) {
    const Task& k = g.tasks[t];
    if (k.dram || !tgt.is_fpga()) {
      if (k.dram) b.dram_bytes += k.footprint;
      continue;
    }
    if (k.literal || k.rom) continue;  // no track: a literal, or a ROM (rom_area)
    const bool regs = tgt.in_registers(k.footprint);
    auto& heap = regs ? reg_heap : bram_heap;
    const int64_t start = buffer_start(k, s, t);
    uint32_t track = share ? take_free(heap, start) : kNoInstance;
    if (track == kNoInstance) {
      track = static_cast<uint32_t>(b.tracks.size());
      b.tracks.push_back({regs, 0, 0, 0, 0, 0, 0, {}});
    }
    BufferTrack& tr = b.tracks[track];
    ++tr.buffers;
    tr.bytes = std::max(tr.bytes, k.footprint);
    // a word's bits: its element's, or fewer when its value range needs fewer (value_bits.h)
    const int bits = k.stored_bits > 0 ? k.stored_bits : std::max(k.elem_bits, 1);
    tr.bits = std::max(tr.bits, bits);
    tr.words = std::max(tr.words, elements_of(k));
    if (!regs) tr.bram18k = std::max(tr.bram18k, bram_blocks(tgt, k.footprint, k.elem_bits, k.lanes));
    b.track_of_task[t] = track;
    give_back(heap, std::max(b.buffer_end[t], start + 1), track);
  }
}

// The flip-flops of each register-file track: word i is as wide as the widest buffer
// that reaches it (rtl stores a narrower one zero-extended, and synthesis drops the
// constant bits), so the words x widest-bits box overcounts mixed tracks. `widest`: per
// track, the widest value stored (the bits of its read registers: a pred is 1 bit, not
// its storage byte).
std::vector<int64_t> register_storage_bits(const TaskGraph& g, const Binding& b, std::vector<int>& widest_of) {
  std::vector<std::vector<std::pair<int64_t, int>>> held(b.tracks.size());  // (words, bits)
  for (size_t t = 0; t < g.size(); ++t) {
    const uint32_t track = b.track_of_task[t];
    if (track != kNoInstance && b.tracks[track].registers)
      held[track].emplace_back(elements_of(g.tasks[t]), std::max(1, g.tasks[t].value_bits));
  }
  std::vector<int64_t> bits(b.tracks.size(), 0);
  widest_of.assign(b.tracks.size(), 0);
  for (size_t k = 0; k < held.size(); ++k) {
    auto& h = held[k];
    std::sort(h.begin(), h.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    int widest = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      widest = std::max(widest, h[i].second);
      const int64_t below = i + 1 < h.size() ? h[i + 1].first : 0;
      bits[k] += (h[i].first - below) * widest;
    }
    widest_of[k] = widest;
  }
  return bits;
}

// Per register track, its buffers' (words, word bits) as the track's `bits` counts them
// (Task::stored_bits, else the element's bits), widest first.
std::vector<std::vector<std::pair<int64_t, int>>> word_bands(const TaskGraph& g, const Binding& b) {
  std::vector<std::vector<std::pair<int64_t, int>>> held(b.tracks.size());
  for (size_t t = 0; t < g.size(); ++t) {
    const uint32_t track = b.track_of_task[t];
    if (track == kNoInstance || !b.tracks[track].registers) continue;
    const Task& k = g.tasks[t];
    held[track].emplace_back(elements_of(k), k.stored_bits > 0 ? k.stored_bits : std::max(k.elem_bits, 1));
  }
  for (auto& h : held) std::sort(h.begin(), h.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  return held;
}

// The word multiplexer of a read port reaching `depth` words, per band of bits: bits that
// only narrower buffers' words hold are constant in every other word (rtl zero-extends a
// narrower value), which synthesis drops, so bits above a buffer's width are multiplexed
// over the words of the buffers as wide as them. `further`: priced as one of the file's
// further read ports (RegisterFileCost::further_port_luts), else as its first.
double banded_port_luts(const Target& tgt, const std::vector<std::pair<int64_t, int>>& widest_first, int64_t depth,
                        int bits, bool further) {
  const RegisterFileCost& rf = tgt.register_file;
  const auto port_luts = [&](int64_t d, int b) { return further ? rf.further_port_luts(d, b) : rf.port_luts(d, b); };
  if (widest_first.empty()) return port_luts(depth, bits);
  double luts = 0;
  int64_t words = 0;
  for (size_t i = 0; i < widest_first.size(); ++i) {
    words = std::max(words, widest_first[i].first);
    const int top = i == 0 ? std::max(bits, std::min(bits, widest_first[0].second)) : std::min(bits, widest_first[i].second);
    const int below = i + 1 < widest_first.size() ? widest_first[i + 1].second : 0;
    if (top > below) luts += port_luts(std::min(depth, words), top - below);
  }
  return luts;
}

// Read ports per track and the tracks' area: block RAM, the most readers in one cycle (a
// port serves readers one after another); a register file, one port per reader (a shared
// port's address multiplexer makes synthesis build a larger read tree than a second port,
// rtl/verilog_module.cc). A reader is
// a task reading a buffer on the track during its issue window, through aliases; an
// output is read after the schedule. One window per (task, track): a track's buffers never
// overlap in time, so a task reads at most one of them at once.
void size_tracks(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s, const Target& tgt, bool pipelined,
                 Binding& b) {
  b.alias_tracks = tracks_through_aliases(g, b);
  const std::vector<std::vector<uint32_t>>& via = b.alias_tracks;
  std::vector<std::vector<std::pair<int64_t, int>>> events(b.tracks.size());
  // register files, per port: the words its reader reaches and the bits it reads (a narrowed
  // buffer's words, value_bits.h; 0: the track's). Bits above them are unused at the port's
  // register, which synthesis drops with the multiplexer feeding them.
  std::vector<std::vector<std::pair<int64_t, int>>> port_depths(b.tracks.size());
  std::vector<uint32_t> stamp(b.tracks.size(), kNoInstance);
  // `reach`: the words the reader's address reaches (0: the whole track).
  // `reads`: the reader's read ports on the track (one per lane and address it reads).
  auto add = [&](uint32_t reader, uint32_t d, int64_t from, int64_t to, int reads, int64_t reach = 0) {
    if (reads == 0) return;
    // an alias of one buffer (a reshape or bitcast of it) reads that buffer's words
    if (g.tasks[d].alias) {
      while (g.tasks[d].alias && g.deps_of(d).size() == 1) d = g.deps_of(d)[0];
      if (!g.tasks[d].alias && reach == 0) reach = elements_of(g.tasks[d]);
    }
    int bits = 0;
    auto one = [&](uint32_t track) {
      if (track == kNoInstance || stamp[track] == reader) return;
      stamp[track] = reader;
      events[track].emplace_back(from, reads);
      events[track].emplace_back(to, -reads);
      const int64_t words = b.tracks[track].words;
      port_depths[track].insert(port_depths[track].end(), static_cast<size_t>(reads),
                                {reach > 0 ? std::min(reach, words) : words, bits});
    };
    const Task& dk = g.tasks[d];
    if (!dk.alias && dk.stored_bits > 0) bits = dk.stored_bits;
    if (reader < g.size() && g.tasks[reader].operand_bits > 0)  // the reader keeps only these bits
      bits = bits > 0 ? std::min<int>(bits, g.tasks[reader].operand_bits) : g.tasks[reader].operand_bits;
    if (!dk.alias) one(b.track_of_task[d]);
    else
      for (uint32_t track : via[d]) one(track);
  };
  // rtl reads a scalar output as a wire; an array output (each array leaf of a tuple)
  // through a port whose address has the output's own width
  std::function<void(uint32_t, uint32_t)> output = [&](uint32_t root, uint32_t d) {
    const Task& k = g.tasks[d];
    if (k.scalar) return;
    if (!k.alias) add(root, d, s.length, s.length + 1, 1, int64_t{1} << std::max(1, ceil_log2(elements_of(k))));
    else
      for (uint32_t e : g.deps_of(d)) output(root, e);
  };
  for (uint32_t t = 0; t < g.size(); ++t) {
    const Task& k = g.tasks[t];
    if (k.output) output(t, t);
    if (k.copies_in) {  // a loop's copy-in (one read of each state leaf's source: a copy task each), a
                        // conditional's branches (their reads of each operand leaf: a port each)
      const auto deps = g.deps_of(t);
      const auto reads = g.dep_reads_of(t);
      for (size_t q = 0; q < deps.size(); ++q) add(t, deps[q], s.start[t], s.start[t] + k.latency, reads[q]);
    }
    if (k.alias || p.busy[t] <= 0) continue;
    // rtl: every lane reads its own addresses (TaskGraph::dep_reads)
    const auto deps = g.deps_of(t);
    const auto reads = g.dep_reads_of(t);
    for (size_t q = 0; q < deps.size(); ++q)
      add(t, deps[q], s.start[t], s.start[t] + p.busy[t], k.lanes * reads[q],
          g.tasks[deps[q]].alias ? 0 : elements_of(g.tasks[deps[q]]));
  }
  std::vector<int> widest;  // the widest value a track stores (a pred: 1 bit)
  const std::vector<int64_t> storage_bits = register_storage_bits(g, b, widest);
  const auto bands = word_bands(g, b);
  for (size_t k = 0; k < b.tracks.size(); ++k) {
    auto& ev = events[k];
    std::sort(ev.begin(), ev.end());  // ends (-1) before starts at the same cycle
    int live = 0, peak = 0, readers = 0;
    for (const auto& e : ev) peak = std::max(peak, live += e.second), readers += std::max(e.second, 0);
    BufferTrack& tr = b.tracks[k];
    // a one-word register file's readers share one port (rtl: every port would register
    // the same word)
    const bool one_word = tr.registers && tr.words == 1;
    tr.read_ports = std::max(one_word ? 1 : tr.registers || pipelined ? readers : peak, 1);
    if (tr.registers) {
      // a port per reader, each multiplexing the words its address reaches
      tr.area.ff = static_cast<double>(storage_bits[k]);
      // a port's read register is as wide as what its reader keeps, at most the widest value stored
      const auto read_register_bits = [&](int bits) { return widest[k] > 0 ? std::min(bits, widest[k]) : bits; };
      tr.area.lut = tgt.register_file.decode(tr.words);
      if (!one_word && !port_depths[k].empty()) {
        // every port is priced as a further one, and one of them as the file's first: the
        // one whose first-port price exceeds its further-port price most
        double first_extra = std::numeric_limits<double>::lowest();
        for (const auto& [depth, read_bits] : port_depths[k]) {
          // the word multiplexer is as wide as the read register (rtl's track: a pred is 1 bit)
          const int bits = read_register_bits(read_bits > 0 ? std::min(read_bits, tr.bits) : tr.bits);
          const double further = banded_port_luts(tgt, bands[k], depth, bits, true);
          tr.area.lut += further;
          first_extra = std::max(first_extra, banded_port_luts(tgt, bands[k], depth, bits, false) - further);
          tr.area.ff += bits;
        }
        tr.area.lut += first_extra;
      } else {
        tr.area.ff += static_cast<double>(tr.read_ports) * read_register_bits(tr.bits);
        tr.area.lut += banded_port_luts(tgt, bands[k], tr.words, read_register_bits(tr.bits), false);
      }
      b.register_area += tr.area;
    } else {
      tr.area.bram18k = tr.bram18k * tr.read_ports;
      b.memory_area += tr.area;
    }
  }
}

// Small constant arrays are ROMs in logic (rtl prints an initialized read-only array
// read through a register of its own per reading lane): per reader and lane, the read
// register (bits FFs) and the word multiplexer as LUT6 ROMs (bits x ceil(words / 64)).
void rom_area(const TaskGraph& g, const ScheduleProblem& p, Binding& b) {
  std::vector<uint32_t> roms;
  std::function<void(uint32_t)> reach = [&](uint32_t d) {
    if (g.tasks[d].rom) roms.push_back(d);
    else if (g.tasks[d].alias)
      for (uint32_t e : g.deps_of(d)) reach(e);
  };
  for (uint32_t t = 0; t < g.size(); ++t) {
    const Task& k = g.tasks[t];
    if (k.alias || p.busy[t] <= 0) continue;
    roms.clear();
    for (uint32_t d : g.deps_of(t)) reach(d);
    std::sort(roms.begin(), roms.end());
    roms.erase(std::unique(roms.begin(), roms.end()), roms.end());
    for (uint32_t r : roms) {
      const double bits = std::max(1, g.tasks[r].value_bits), lanes = std::max(1, k.lanes);
      b.register_area.ff += lanes * bits;
      b.register_area.lut += lanes * bits * static_cast<double>(ceil_div(elements_of(g.tasks[r]), 64));
    }
  }
}

// A sweep in start order with a heap of the live buffers' ends: O(n log live), no sort.
int64_t peak_live(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s, const Binding& b,
                  const std::vector<uint32_t>& order) {
  std::vector<Free> live_ends;  // (free time, index into sizes)
  std::vector<int64_t> sizes;
  int64_t live = 0, peak = 0;
  auto acquire = [&](int64_t at, int64_t until, int64_t bytes) {
    if (until <= at || bytes <= 0) return;
    while (!live_ends.empty() && live_ends.front().time <= at) live -= sizes[take_free(live_ends, at)];
    peak = std::max(peak, live += bytes);
    sizes.push_back(bytes);
    give_back(live_ends, until, static_cast<uint32_t>(sizes.size() - 1));
  };
  for (size_t t = 0; t < g.size(); ++t)
    if (g.tasks[t].input) acquire(0, b.buffer_end[t], g.tasks[t].footprint);
  for (uint32_t t : order) {
    const Task& k = g.tasks[t];
    if (!k.input) acquire(s.start[t], b.buffer_end[t], k.footprint);
    acquire(s.start[t], s.start[t] + p.latency[t], k.scratch);
  }
  return peak;
}

}  // namespace

// Words of a task's buffer: one element per word.
int64_t elements_of(const Task& k) { return std::max<int64_t>(1, k.footprint * 8 / std::max(8, (k.elem_bits + 7) / 8 * 8)); }


// The tracks an alias reads through, memoized in task order (deps come first); an alias
// of more than kWide tracks (a loop's state tuple) is not followed: its elements are
// read by the loop's own datapath, costed with the loop.
std::vector<std::vector<uint32_t>> tracks_through_aliases(const TaskGraph& g, const Binding& b) {
  constexpr size_t kWide = 16;
  std::vector<std::vector<uint32_t>> via(g.size());
  for (size_t t = 0; t < g.size(); ++t) {
    if (!g.tasks[t].alias) continue;
    std::vector<uint32_t>& v = via[t];
    for (uint32_t d : g.deps_of(t)) {
      if (g.tasks[d].alias) v.insert(v.end(), via[d].begin(), via[d].end());
      else if (b.track_of_task[d] != kNoInstance) v.push_back(b.track_of_task[d]);
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.size() > kWide) v.clear();
  }
  return via;
}


// A bank of D words of W bits takes the fewest blocks any one of the block RAM's aspect
// ratios (Target::bram_aspect_ratios) needs: ceil(D / depth) x ceil(W / width).
double bram_blocks(const Target& t, int64_t bytes, int elem_bits, int banks) {
  const int w = std::max(elem_bits, 1);
  const int64_t bits = bytes * 8;
  const int64_t words = std::max<int64_t>(1, bits / w);
  const int64_t nb = std::clamp<int64_t>(banks, 1, words);
  const int64_t per_bank = (words + nb - 1) / nb;
  int64_t best = INT64_MAX;
  for (const BramAspect& a : t.bram_aspect_ratios())
    best = std::min(best, ((per_bank + a.depth - 1) / a.depth) * ((w + a.width - 1) / a.width));
  return static_cast<double>(nb * best);
}

Binding bind(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s, const Target& t,
             const ModuloBinding* modulo) {
  Binding b;
  b.unit_of_task.assign(g.size(), kNoInstance);
  b.track_of_task.assign(g.size(), kNoInstance);
  b.buffer_end = buffer_ends(g, p, s);
  std::vector<uint32_t> order = s.order;
  if (order.size() != g.size()) {
    order.resize(g.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
      return s.start[x] != s.start[y] ? s.start[x] < s.start[y] : x < y;
    });
  }
  bind_units(g, p, s, t, order, modulo, b);
  const std::vector<uint32_t> owners = buffer_order(g, order);
  bind_buffers(g, s, t, owners, modulo == nullptr, b);
  size_tracks(g, p, s, t, modulo != nullptr, b);
  if (t.is_fpga()) rom_area(g, p, b);
  b.peak_live_bytes = peak_live(g, p, s, b, order);
  return b;
}

}  // namespace hlsgym::hwmodel
