#include "hwmodel/microarch_control.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "hwmodel/timing.h"

namespace hlsgym::hwmodel {
namespace {

bool power_of_two(int64_t k) { return k > 0 && (k & (k - 1)) == 0; }

// A timeline's cycle counter per copy (its go/run flags beside it); a while loop's trip,
// issue and copy counters (rtl/verilog_module.cc). A timeline's counter never wraps (it
// restarts on go): its restart is the flip-flops' reset and its increment the carry chain,
// no LUT on Xilinx (CARRY4 adds) but an SB_LUT4 per sum bit on an iCE40 (the control
// block's timer_luts, scripts/calibrate_control.sh "timer"), plus the compare that ends the run.
void count_timelines(const Plan& p, ControlInventory& inv) {
  for (const Timeline& x : p.timelines)
    for (int c = 0; c < x.copies; ++c) {
      inv.timers.push_back(bits_for(x.cycles));
      inv.register_bits += 2;
    }
  for (const LoopPlan& lp : p.loops) {
    inv.counters.push_back(bits_for(lp.trips));
    if (lp.ii > 0) {
      inv.counters.push_back(bits_for(lp.ii - 1));
      if (p.timelines[static_cast<size_t>(lp.body)].copies > 1)
        inv.counters.push_back(bits_for(p.timelines[static_cast<size_t>(lp.body)].copies - 1));
    }
  }
}

// Every unit lane's pipeline tags (rtl/verilog_units.cc emit_pipeline): from the read
// stage to the write, each stage registers a valid bit (with its reset), the output index,
// an accumulating task's first-term flag and, on an instance shared by several tasks, the
// task tag (one task: a constant synthesis drops). Past the first stage a tag bit without
// reset delayed 3 or more stages is one SRL16E (Yosys shregmap, -minlen 3): a LUT, no FF.
void count_pipeline_tags(const Plan& p, ControlInventory& inv) {
  for (const Unit& u : p.units) {
    int64_t outs = 1;
    bool accumulates = false;
    for (int t : u.tasks) {
      outs = std::max(outs, p.tasks[static_cast<size_t>(t)].outputs);
      accumulates |= p.tasks[static_cast<size_t>(t)].engine != Engine::kStream;
    }
    const int tag = bits_for(outs - 1) + (accumulates ? 1 : 0) +
                    (u.tasks.size() > 1 ? bits_for(static_cast<int64_t>(u.tasks.size()) - 1) : 0);
    for (int q = 0; q < u.lanes; ++q) {
      int depth = 0;  // the lane is as deep as its deepest task
      for (int t : u.tasks)
        if (p.tasks[static_cast<size_t>(t)].lane_count(q) > 0) depth = std::max(depth, p.tasks[static_cast<size_t>(t)].depth);
      if (depth <= 1) continue;
      const int stages = depth - 1;
      inv.register_bits += stages;  // the valid bit
      if (stages - 1 >= 3) {
        inv.register_bits += tag;
        inv.shift_registers += tag;
      } else {
        inv.register_bits += static_cast<int64_t>(stages) * tag;
      }
    }
  }
}

// One lane's loop nest (rtl/verilog_units.cc emit_loops).
void count_loops(const TaskPlan& tp, int q, ControlInventory& inv) {
  const LoopNest& L = tp.loops;
  const int R = static_cast<int>(L.out_dims.size());
  const bool grouped = tp.engine != Engine::kStream && tp.split == 1;
  for (int v = 0; v < L.vars(); ++v)
    if (tp.loops.extent(v) > 1) {
      const int b = bits_for(tp.loops.extent(v) - 1);
      inv.counters.push_back(b);
      if (grouped && v < R && L.group > 1) inv.register_bits += b;  // one group: the base is the counter
    }
  const int64_t count = tp.lane_count(q);
  if (tp.engine == Engine::kStream) {
    if (count < tp.busy) inv.compares.push_back(bits_for(tp.busy));
    return;
  }
  if (L.period > 1) inv.counters.push_back(bits_for(L.period - 1));
  if (tp.split > 1) {
    inv.counters.push_back(bits_for(tp.chunk));
    inv.compares.push_back(bits_for(tp.chunk));
    return;
  }
  const int64_t groups = ceil_div(count, L.group), last = count - (groups - 1) * L.group;
  if (groups > 1 && last != L.group) {
    inv.counters.push_back(bits_for(groups - 1));
    inv.compares.push_back(bits_for(groups - 1));
  }
  if (last < L.period) inv.compares.push_back(bits_for(L.period - 1));
}

// The index operands of a linear form as synthesis sees them: each a value of `bits` bits
// shifted left by `shift` (a coefficient 2^shift; the constant by its trailing zeros).
// Operands whose bits do not overlap are a concatenation, wiring: only an operand that
// lands on bits already taken needs an adder.
int adders_needed(const IxPool& ix, const IxNode& x) {
  struct Operand { int shift, top; };
  std::vector<Operand> ops;
  int adders = 0;
  auto add = [&](int64_t k, int64_t lo, int64_t hi) {
    if (k <= 0 || lo < 0 || !power_of_two(k)) { ops.push_back({0, 64}); return; }
    const int s = std::countr_zero(static_cast<uint64_t>(k));
    ops.push_back({s, s + bits_for(hi)});
  };
  if (x.c > 0) ops.push_back({std::countr_zero(static_cast<uint64_t>(x.c)), bits_for(x.c)});
  else if (x.c < 0) ops.push_back({0, 64});
  for (const auto& [node, k] : x.terms)
    if (!ix.is_const(node)) add(k, ix[node].lo, ix[node].hi);
  std::sort(ops.begin(), ops.end(), [](const Operand& a, const Operand& b) { return a.shift < b.shift; });
  int top = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const bool overlaps = i > 0 && ops[i].shift < top;  // a carry from the bits below
    if (overlaps) ++adders;
    top = std::max(top, ops[i].top) + (overlaps ? 1 : 0);
  }
  return adders;
}

// The index nodes whose logic synthesis builds on its own: the addresses of block-RAM
// reads, iota values, guards and the term index. The address of a register file's or a
// ROM's read is the select of its read multiplexer, and synthesis folds the arithmetic of
// the counters into that multiplexer (priced by the register_file rows: Yosys on conv2d
// puts no LUT on its index sums outside the read trees), so it is not counted again.
std::vector<bool> priced_index_nodes(const Plan& p, const TaskPlan& tp) {
  std::vector<int> roots;
  for (const Leaf& l : tp.leaves)
    for (const Alt& a : l.alts) {
      const bool folded = a.kind == Alt::kRead && a.buffer >= 0 &&
                          (p.buffers[static_cast<size_t>(a.buffer)].track < 0 ||
                           !p.tracks[static_cast<size_t>(p.buffers[static_cast<size_t>(a.buffer)].track)].bram);
      if (!folded) roots.push_back(a.index);
      for (const Cond& c : a.guard.conds) roots.push_back(c.ix);
    }
  if (tp.split == 1) roots.push_back(tp.loops.term_flat);
  return reachable_index_nodes(tp.ix, roots);
}

// One lane's index arithmetic: the wires priced_index_nodes marks, and its guards.
void count_index(const Plan& p, const TaskPlan& tp, ControlInventory& inv) {
  const std::vector<bool> built = priced_index_nodes(p, tp);
  for (size_t n = 0; n < tp.ix.size(); ++n) {
    if (!built[n]) continue;
    const IxNode& x = tp.ix[static_cast<int>(n)];
    const int width = bits_for(std::max(std::abs(x.lo), std::abs(x.hi)));
    switch (x.kind) {
      case IxNode::kLin: {
        for (const auto& [node, k] : x.terms)
          if (!tp.ix.is_const(node) && !power_of_two(std::abs(k))) inv.scales.push_back(width);
        for (int a = adders_needed(tp.ix, x); a > 0; --a) inv.adders.push_back(width);
        break;
      }
      case IxNode::kDiv: case IxNode::kMod:
        if (!power_of_two(x.c)) ++inv.dividers;
        break;
      default: break;
    }
  }
  for (const Leaf& l : tp.leaves)
    for (const Alt& a : l.alts)
      for (const Cond& c : a.guard.conds) {
        const IxNode& x = tp.ix[c.ix];
        const int width = bits_for(std::max(std::abs(x.lo), std::abs(x.hi)));
        if (c.lo > x.lo) inv.compares.push_back(width);
        if (c.hi < x.hi) inv.compares.push_back(width);
        if (c.multiple > 1 && !power_of_two(c.multiple)) ++inv.dividers;
      }
}

// A lane's register-file reads through an address register of their own (next_address_bits).
void count_next_addresses(const Plan& p, const TaskPlan& tp, ControlInventory& inv) {
  for (const Leaf& l : tp.leaves)
    for (const Alt& a : l.alts) {
      inv.address_registers += next_address_bits(p, tp, a);
      if (a.guard.always()) break;  // later alternatives are never built (rtl emit_reads)
    }
}

}  // namespace

int next_address_bits(const Plan& p, const TaskPlan& tp, const Alt& a) {
  if (a.kind != Alt::kRead || a.buffer < 0) return 0;
  const Buffer& b = p.buffers[static_cast<size_t>(a.buffer)];
  if (b.origin == Buffer::kConstant || b.track < 0 || p.tracks[static_cast<size_t>(b.track)].bram) return 0;
  const int n = a.index;
  if (tp.lead > 0 || n < 0 || tp.ix[n].kind != IxNode::kLin || tp.ix[n].c != 0) return 0;
  struct Field { int var, shift, bits; };
  std::vector<Field> fields;
  for (const auto& [node, k] : tp.ix[n].terms) {
    const IxNode& x = tp.ix[node];
    if (x.kind != IxNode::kVar || !power_of_two(k)) return 0;
    const int64_t extent = tp.loops.extent(x.var);
    if (extent <= 1 || !power_of_two(extent)) return 0;
    fields.push_back({x.var, std::countr_zero(static_cast<uint64_t>(k)), std::countr_zero(static_cast<uint64_t>(extent))});
  }
  std::sort(fields.begin(), fields.end(), [](const Field& a, const Field& b) { return a.shift < b.shift; });
  int top = 0;
  bool in_order = true;  // lower bits from inner counters (a higher var is nested deeper)
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].shift < top) return 0;  // overlapping fields: an adder, not a concatenation
    top = fields[i].shift + fields[i].bits;
    if (i > 0 && fields[i].var > fields[i - 1].var) in_order = false;
  }
  return fields.size() < 2 || in_order ? 0 : top;
}

std::vector<bool> reachable_index_nodes(const IxPool& ix, const std::vector<int>& roots) {
  std::vector<bool> used(ix.size(), false);
  std::vector<int> stack;
  for (int r : roots)
    if (r >= 0) stack.push_back(r);
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (used[static_cast<size_t>(n)]) continue;
    used[static_cast<size_t>(n)] = true;
    const IxNode& x = ix[n];
    if (x.arg >= 0) stack.push_back(x.arg);
    for (const auto& [a, k] : x.terms) stack.push_back(a);
  }
  for (size_t n = 0; n < used.size(); ++n)
    if (ix.is_const(static_cast<int>(n))) used[n] = false;
  return used;
}

std::vector<bool> built_index_nodes(const TaskPlan& tp) {
  std::vector<int> roots{tp.loops.out_flat};
  for (const Leaf& l : tp.leaves)
    for (const Alt& a : l.alts) {
      roots.push_back(a.index);
      for (const Cond& c : a.guard.conds) roots.push_back(c.ix);
    }
  if (tp.split == 1) roots.push_back(tp.loops.term_flat);
  return reachable_index_nodes(tp.ix, roots);
}

ControlInventory control_inventory(const Plan& p) {
  ControlInventory inv;
  count_timelines(p, inv);
  count_pipeline_tags(p, inv);
  for (const TaskPlan& tp : p.tasks)
    for (int q = 0; q < tp.lanes; ++q) {
      count_loops(tp, q, inv);
      count_index(p, tp, inv);
      if (tp.lane_count(q) > 0) count_next_addresses(p, tp, inv);
    }
  inv.register_bits += inv.address_registers;
  return inv;
}

Area control_area(const ControlInventory& inv, const ControlCost& cost) {
  Area a;
  for (int b : inv.counters) a.lut += cost.at(cost.counter_luts, b), a.ff += cost.at(cost.counter_ffs, b);
  for (int b : inv.timers) a.lut += cost.at(cost.compare_luts, b) + cost.at(cost.timer_luts, b), a.ff += b;
  for (int b : inv.compares) a.lut += cost.at(cost.compare_luts, b);
  for (int b : inv.adders) a.lut += cost.at(cost.adder_luts, b);
  for (int b : inv.scales) a.lut += cost.at(cost.scale_luts, b);
  a.lut += static_cast<double>(inv.shift_registers);
  a.ff += static_cast<double>(inv.register_bits);
  return a;
}

}  // namespace hlsgym::hwmodel
