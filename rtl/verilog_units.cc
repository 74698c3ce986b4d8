// One block per bound functional-unit instance (the binding's interval partitioning):
//
//   stage 0, per task and lane: loop counters (the task's LoopNest) -> index arithmetic
//     (index_expr.h) -> read addresses for the memories' ports, guard bits, the output
//     index and slot tags;
//   stage 1: the leaves from the registered reads -> the active task's expression
//     (stream, reduce) or operand pair -> the lane's one multiplier (mac);
//   then pipeline registers carry {valid, task, output index, slot, value}; each task
//   writes its output memory at its own depth (depth - 1).
//
// A mac lane has one multiplier and one accumulator adder shared by all its tasks: the
// product travels to stage `mul_depth` (read + multiplier), then adds to the partial sum
// of its slot (an accumulator register: an integer one cleared the cycle before an output's first
// term arrives, a float one replaced by zero for it), and the sum travels the
// adder's depth to the write. A reduce's accumulator leaf reads the same registers.
//
// A reduction split over more lanes than outputs (TaskPlan::split) accumulates in one
// partial register per lane (pacc) instead; once the last partial lands, a tree joins
// them, one level every `add_depth` cycles, the last level writing the output exactly at
// the task's latency.
#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <tuple>

#include "hwmodel/microarch_control.h"
#include "hwmodel/timing.h"
#include "hwmodel/unit_model.h"
#include "ir/error.h"
#include "rtl/verilog_internal.h"
#include "rtl/verilog_stmt.h"

namespace hlsgym::rtl::verilog_detail {
namespace {

// The emitter registers every read once (the read stage is stage 0 -> 1).
static_assert(hwmodel::kMemoryReadLatency == 1, "the RTL emitter builds a one-cycle synchronous read");

std::string signed_const(int64_t v) {
  return v < 0 ? fmt::format("(-{}'sd{})", kIndexBits, -v) : fmt::format("{}'sd{}", kIndexBits, v);
}

bool power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

class UnitEmitter {
 public:
  UnitEmitter(Emitter& e, int id) : e_(e), u_(e.plan.units[id]), id_(id) {
    int64_t outs = 1, busy = 1;
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      outs = std::max(outs, tp.outputs);
      busy = std::max(busy, tp.busy);
    }
    accumulates_ = u_.mac;  // only a mac reads the first-term flag (a reduce's acc leaf knows)
    for (int t : u_.tasks) {
      if (u_.mac && ir::is_floating(task(t).out_type)) float_mac_ = true;
      else if (!u_.mac && has_float_unit(task(t).expr)) staged_.insert(t);
    }
    for (int q = 0; q < u_.lanes; ++q) {  // a lane is as wide as the widest task it runs
      int w = 1, d = 1, vd = 0;
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) {
          w = std::max(w, datapath_width(task(t).out_type)), d = std::max(d, task(t).depth);
          if (!staged_.count(t)) vd = std::max(vd, task(t).depth);
        }
      lane_width_.push_back(w);
      lane_depth_.push_back(d);  // and as deep as its deepest task
      value_depth_.push_back(vd);  // the value pipeline: as deep as its deepest task not staged
      int ops = 1;  // a mac's multiplier operands: as wide as the widest stored operand
      if (u_.mac)
        for (int t : u_.tasks)
          if (on_lane(task(t), q))
            for (const Leaf& l : task(t).leaves)
              ops = std::max(ops, hwmodel::mac_operand_bits(l.type, datapath_width(task(t).out_type)));
      operand_width_.push_back(hwmodel::mac_multiplier_bits(ops, w));
    }
    tb_ = bits_for(static_cast<int64_t>(u_.tasks.size()) - 1);
    ob_ = bits_for(outs - 1);
    jb_ = bits_for(busy - 1);
  }

  void run() {
    emit_counter();
    for (int t : u_.tasks)
      emit_dyn_starts(task(t));
    pacc_writes_.assign(static_cast<size_t>(u_.lanes), "");
    for (int q = 0; q < u_.lanes; ++q) {
      if (!lane_used(q)) continue;  // e.g. 3 lanes for 4 outputs: 2 each, the third idles
      skips_ = seeds_ = false;  // the flags this lane's tasks need
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) {
          skips_ |= task(t).has_skips;
          seeds_ |= task(t).split > 1 && task(t).engine == Engine::kReduce;
        }
      slots_ = slot_depth_ = 0;
      reduce_slots_ = false;
      for (int t : u_.tasks)
        if (on_lane(task(t), q) && task(t).split == 1 &&
            (task(t).engine == Engine::kMac || (task(t).engine == Engine::kReduce && reads_slot(task(t))))) {
          slots_ = std::max<int>(slots_, static_cast<int>(task(t).loops.group));
          slot_depth_ = std::max(slot_depth_, task(t).depth);  // slot tags travel to its write stage
          reduce_slots_ |= task(t).engine == Engine::kReduce;
        }
      slb_ = bits_for(std::max(slots_, 1) - 1);
      if (lane_used(q, true)) reg(lw(q), sig(q, "pacc"), true);
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) emit_loops(task(t), q), emit_reads(task(t), q);
      emit_issue(q);
      emit_pipeline(q);
      emit_operands(q);
      finals_.clear();
      for (int t : u_.tasks)
        if (on_lane(task(t), q) && staged_.count(t)) finals_[t] = emit_staged(task(t), q);
      emit_pooled_units();
      if (u_.mac) emit_accumulate(q);
      emit_slot_registers(q);
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) emit_writes(t, q);
      // partial sums go to pacc by task, so a split-only lane never reads its last index tag
      if (lane_used(q, true)) e_.unused.insert(sig(q, "o", lane_depth_[q] - 1));
    }
    for (int t : u_.tasks)
      if (task(t).split > 1) emit_tree(task(t));
    for (int q = 0; q < u_.lanes; ++q)
      if (!pacc_writes_[q].empty()) e_.text.line("  always @(posedge clk) begin\n" + pacc_writes_[q] + "  end");
  }

 private:
  const TaskPlan& task(int t) const { return e_.plan.tasks[t]; }
  // Whether task tp issues anything on lane q (3 lanes for 4 outputs: the third idles).
  static bool on_lane(const TaskPlan& tp, int q) { return tp.lane_count(q) > 0; }
  // Whether some task (some split task) has items on lane q.
  bool lane_used(int q, bool split_only = false) const {
    for (int t : u_.tasks)
      if (on_lane(task(t), q) && (!split_only || task(t).split > 1)) return true;
    return false;
  }
  std::string sig(int q, const char* what, int stage = -1) const {
    return stage < 0 ? fmt::format("u{}_q{}_{}", id_, q, what) : fmt::format("u{}_q{}_{}{}", id_, q, what, stage);
  }
  int lw(int q) const { return lane_width_[q]; }
  std::string act(int slot) const { return fmt::format("u{}_act{}", id_, slot); }
  std::string j() const { return fmt::format("u{}_j", id_); }
  void reg(int width, const std::string& name, bool pipeline = false) {
    e_.text.decl(fmt::format("  reg {}{};", range(width), name));
    if (pipeline) e_.inv.pipeline_bits += width;
  }
  const Timeline& timeline() const { return e_.plan.timelines[u_.timeline]; }
  // The condition, one cycle before, that task tp's first cycle comes next.
  std::string restart(const TaskPlan& tp) const { return start_of(e_.plan, u_.timeline, tp.start); }

  // The issue counter restarts at every task's first cycle; act_s marks task s's window.
  void emit_counter() {
    const Timeline& tl = timeline();
    // A pipelined body's go starts an iteration while the previous ones still issue: only
    // its tasks' own starts restart the counter there.
    bool at_zero = false;
    for (int t : u_.tasks) at_zero |= task(t).start == 0;
    std::string desc, restarts = at_zero || tl.period == 0 ? tl.go() : "";
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      desc += fmt::format(" {} [{}, {})", tp.name, tp.start, tp.start + tp.busy);
      if (tp.start > 0) restarts += (restarts.empty() ? "" : " || ") + restart(tp);
      e_.text.decl(fmt::format("  wire {} = {};", act(tp.slot), in_window(e_.plan, u_.timeline, tp.start, tp.start + tp.busy)));
    }
    e_.text.line(fmt::format("\n  // ---- unit {} #{}: {} lane(s), depth {}; tasks [issue window{}):{}", u_.cls, u_.index,
                             u_.lanes, u_.depth, tl.name.empty() ? "" : " on " + tl.name, desc));
    // Only a stream whose lane runs short of the window reads the issue counter.
    bool needed = false;
    for (int t : u_.tasks)
      for (int q = 0; q < u_.lanes; ++q)
        needed |= task(t).engine == Engine::kStream && on_lane(task(t), q) && task(t).lane_count(q) < task(t).busy;
    if (!needed) return;
    reg(jb_, j());
    e_.text.line(fmt::format("  always @(posedge clk) begin\n    if ({}) {} <= {};\n    else {} <= {} + {};\n  end",
                             restarts, j(), sized(jb_, 0), j(), j(), sized(jb_, 1)));
    e_.inv.control_bits += jb_;
    e_.inv.control_adders += 1;
  }

  // ---- loop counters and index arithmetic of one task on one lane ----

  std::string var_name(const TaskPlan& tp, int q, int v) const { return fmt::format("{}_q{}_c{}", tp.name, q, v); }
  std::string slot_name(const TaskPlan& tp, int q) const { return fmt::format("{}_q{}_slot", tp.name, q); }
  std::string round_name(const TaskPlan& tp, int q) const { return fmt::format("{}_q{}_round", tp.name, q); }
  // Index wires over the counters of the current item; while pre_ is set, over the counters
  // of the item whose start indices are being read (a gather's lead stage); while next_ is
  // set, over the counters' values at the next clock edge (next_index).
  std::string ix_name(const TaskPlan& tp, int q, int n) const {
    if (next_) return fmt::format("{}_q{}_x{}_next", tp.name, q, n);
    return fmt::format("{}_q{}_{}{}", tp.name, q, pre_ ? "p" : "x", n);
  }
  // The counters advance at the lead stage; the issue stage sees them one cycle later.
  std::string issue_var(const TaskPlan& tp, int q, int v) const {
    if (next_) return var_name(tp, q, v) + "_next";
    return tp.lead > 0 && !pre_ ? var_name(tp, q, v) + "_d" : var_name(tp, q, v);
  }
  std::string ok_name(const TaskPlan& tp, int q) const { return fmt::format("{}_q{}_ok", tp.name, q); }
  // The item issues (stage 0): ok, or one cycle after it for a task with a lead stage.
  std::string issue_ok(const TaskPlan& tp, int q) const { return tp.lead > 0 ? ok_name(tp, q) + "_d" : ok_name(tp, q); }
  std::string dyn_name(const TaskPlan& tp, int q, int d) const {
    return tp.dyn[d].index < 0 ? fmt::format("{}_start{}", tp.name, d) : fmt::format("{}_q{}_start{}", tp.name, q, d);
  }

  // The next value of the counters of variables [first, last) advanced as one row-major
  // odometer (`<var>_nx`); returns the condition that all of them are at their last value.
  std::string emit_next(const TaskPlan& tp, int q, int first, int last) {
    std::string body, all;
    std::string carry = "1'b1";
    for (int v = last - 1; v >= first; --v) {
      if (tp.loops.extent(v) <= 1) continue;
      const int b = bits_for(tp.loops.extent(v) - 1);
      const std::string c = var_name(tp, q, v);
      const std::string at_max = fmt::format("({} == {})", c, sized(b, static_cast<uint64_t>(tp.loops.extent(v) - 1)));
      reg(b, c + "_nx");
      ++e_.inv.control_adders;
      body += fmt::format("    {}_nx = {};\n    if ({}) {}_nx = {} ? {} : {} + {};\n", c, c, carry, c, at_max, sized(b, 0), c,
                          sized(b, 1));
      all += (all.empty() ? "" : " && ") + at_max;
      carry = carry == "1'b1" ? at_max : fmt::format("{} && {}", carry, at_max);
    }
    if (!body.empty()) e_.text.line("  always @* begin\n" + body + "  end");
    return all.empty() ? "1'b1" : all;
  }

  // `<var><target_suffix> <= <var><suffix>` for the counters of [first, last).
  Stmts assign_vars(const TaskPlan& tp, int q, int first, int last, const std::string& suffix,
                    const std::string& target_suffix = "") const {
    Stmts s;
    for (int v = first; v < last; ++v)
      if (tp.loops.extent(v) > 1) s.push_back(assign(var_name(tp, q, v) + target_suffix, var_name(tp, q, v) + suffix));
    return s;
  }

  // `<var><suffix> <= values[v - first]` for the counters of [first, last).
  Stmts load_vars(const TaskPlan& tp, int q, int first, int last, const std::vector<int64_t>& values,
                  const std::string& suffix = "") const {
    Stmts s;
    for (int v = first; v < last; ++v)
      if (tp.loops.extent(v) > 1)
        s.push_back(assign(var_name(tp, q, v) + suffix, sized(bits_for(tp.loops.extent(v) - 1), static_cast<uint64_t>(values[v - first]))));
    return s;
  }

  // Counters of the loop nest (hwmodel/microarch.h, LoopNest) and the index wires the leaves use.
  void emit_loops(const TaskPlan& tp, int q) {
    const LoopNest& L = tp.loops;
    const int R = static_cast<int>(L.out_dims.size()), V = L.vars();
    const bool grouped = tp.engine != Engine::kStream && tp.split == 1;
    for (int v = 0; v < V; ++v)
      if (tp.loops.extent(v) > 1) {
        const int b = bits_for(tp.loops.extent(v) - 1);
        reg(b, var_name(tp, q, v));
        e_.inv.control_bits += b;
        if (grouped && v < R) reg(b, var_name(tp, q, v) + "_base"), e_.inv.control_bits += b;
      }
    const std::vector<int64_t> out0 = unravel(tp.lane_first(q), L.out_dims);
    const std::vector<int64_t> term0 =
        tp.split > 1 ? unravel((q % tp.split) * tp.chunk, L.term_dims) : std::vector<int64_t>(L.term_dims.size(), 0);
    Stmts init = load_vars(tp, q, 0, R, out0);
    append(init, load_vars(tp, q, R, V, term0));
    if (grouped) append(init, load_vars(tp, q, 0, R, out0, "_base"));
    Stmts advance;
    const int sb = bits_for(L.period - 1);
    const int64_t count = tp.lane_count(q);
    std::string ok = act(tp.slot);
    if (tp.engine == Engine::kStream) {
      emit_next(tp, q, 0, R);
      advance = assign_vars(tp, q, 0, R, "_nx");
      if (count < tp.busy) ok += fmt::format(" && {} < {}", j(), sized(jb_, static_cast<uint64_t>(count)));
    } else {
      const bool split = tp.split > 1;
      if (L.period > 1) {
        reg(sb, slot_name(tp, q));
        e_.inv.control_bits += sb;
        ++e_.inv.control_adders;
        init.push_back(assign(slot_name(tp, q), sized(sb, 0)));
      }
      const int rb = bits_for(tp.chunk);
      if (split) {
        reg(rb, round_name(tp, q));
        e_.inv.control_bits += rb;
        ++e_.inv.control_adders;
        init.push_back(assign(round_name(tp, q), sized(rb, 0)));
      }
      // Non-split: groups of `group` outputs, the lane's last one smaller when `group` does
      // not divide its count; a group counter then tells the last group's slots apart.
      const int64_t g = L.group, groups = split ? 1 : hwmodel::ceil_div(count, g), last = count - (groups - 1) * g;
      const bool counted_groups = !split && groups > 1 && last != g;
      const std::string grp = fmt::format("{}_q{}_group", tp.name, q);
      const int gb = bits_for(groups - 1);
      Stmts group_step;
      if (counted_groups) {
        reg(gb, grp);
        e_.inv.control_bits += gb;
        ++e_.inv.control_adders;
        init.push_back(assign(grp, sized(gb, 0)));
        group_step.push_back(assign(grp, fmt::format("{} + {}", grp, sized(gb, 1))));
      }
      const std::string term_wrap = emit_next(tp, q, R, V);
      Stmts round_end = assign_vars(tp, q, R, V, "_nx");
      if (split) {
        round_end.push_back(assign(round_name(tp, q), fmt::format("{} + {}", round_name(tp, q), sized(rb, 1))));
      } else {
        // A group's last round ends: the next group starts past its outputs; else the
        // group's outputs come round again.
        emit_next(tp, q, 0, R);
        Stmts next_group = assign_vars(tp, q, 0, R, "_nx");
        append(next_group, assign_vars(tp, q, 0, R, "_nx", "_base"));
        append(next_group, group_step);
        if (!next_group.empty()) round_end.push_back(if_else(term_wrap, next_group, assign_vars(tp, q, 0, R, "_base")));
      }
      if (L.period > 1) {
        Stmts last_slot{assign(slot_name(tp, q), sized(sb, 0))}, in_round{assign(slot_name(tp, q), fmt::format("{} + {}", slot_name(tp, q), sized(sb, 1)))};
        append(last_slot, round_end);
        if (!split) append(in_round, assign_vars(tp, q, 0, R, "_nx"));
        advance.push_back(if_else(fmt::format("{} == {}", slot_name(tp, q), sized(sb, static_cast<uint64_t>(L.period - 1))), last_slot, in_round));
      } else {
        advance = round_end;
      }
      if (split) {
        if (L.period > 1) ok += fmt::format(" && {} == {}", slot_name(tp, q), sized(sb, 0));
        ok += fmt::format(" && {} < {}", round_name(tp, q), sized(rb, static_cast<uint64_t>(count)));
      } else {
        // Slots past the group idle: every group has `group` outputs but the lane's last.
        const std::string slot = slot_name(tp, q);
        auto below = [&](int64_t n) { return n >= L.period ? std::string("1'b1") : fmt::format("{} < {}", slot, sized(sb, static_cast<uint64_t>(n))); };
        if (counted_groups) {
          ok += fmt::format(" && (({} == {}) ? {} : {})", grp, sized(gb, static_cast<uint64_t>(groups - 1)), below(last), below(g));
        } else if (last < L.period) {
          ok += " && " + below(last);
        }
      }
    }
    if (!init.empty() || !advance.empty())
      e_.text.line(fmt::format("  always @(posedge clk) begin  // {} lane {}: loop counters\n    if ({}) begin\n{}    end else if ({}) begin\n{}    end\n  end",
                               tp.name, q, restart(tp), print(init, 3), act(tp.slot), print(advance, 3)));
    counter_blocks_[{tp.task, q}] = {restart(tp), act(tp.slot), init, advance};
    e_.text.decl(fmt::format("  wire {} = {};", ok_name(tp, q), ok));
    if (tp.lead > 0) emit_lead(tp, q);
    emit_index_wires(tp, q);
  }

  // The values lane q's counters of task tp take at the next clock edge, as `<counter>_next`:
  // the loop-counter block's own statements on them (emit_loops), made blocking assignments
  // of a combinational block (its statements on other registers dropped), so the two can
  // not disagree. Emitted once per task and lane, for a next-address register.
  void emit_next_counters(const TaskPlan& tp, int q) {
    if (!next_counters_.insert({tp.task, q}).second) return;
    const CounterBlock& cb = counter_blocks_.at({tp.task, q});
    std::set<std::string> counters;
    std::string body;
    for (int v = 0; v < tp.loops.vars(); ++v)
      if (tp.loops.extent(v) > 1) {
        const std::string c = var_name(tp, q, v);
        counters.insert(c);
        reg(bits_for(tp.loops.extent(v) - 1), c + "_next");
        e_.unused.insert(c + "_next");  // a counter no next address reads (synthesis drops it)
        body += fmt::format("    {}_next = {};\n", c, c);
      }
    const StmtPrint blocking{"=", [&](const std::string& target) { return counters.count(target) ? target + "_next" : std::string(); }};
    e_.text.line(fmt::format("  always @* begin  // {} lane {}: the loop counters' next values\n{}    if ({}) begin\n{}    end else if ({}) begin\n{}    end\n  end",
                             tp.name, q, body, cb.restart, print(cb.init, 3, blocking), cb.act, print(cb.advance, 3, blocking)));
  }

  // The index node `n` of lane q of task tp over the counters' next values (a wire per node).
  std::string next_index(const TaskPlan& tp, int q, int n) {
    emit_next_counters(tp, q);
    next_ = true;
    const std::vector<bool> used = hwmodel::reachable_index_nodes(tp.ix, {n});
    for (size_t k = 0; k < tp.ix.size(); ++k) {
      if (!used[k] || !next_wires_.insert(ix_name(tp, q, static_cast<int>(k))).second) continue;
      e_.text.decl(fmt::format("  wire signed [{}:0] {} = {};", kIndexBits - 1, ix_name(tp, q, static_cast<int>(k)),
                               ix_expr(tp, q, static_cast<int>(k))));
    }
    const std::string name = ix_ref(tp, q, n);
    next_ = false;
    return name;
  }

  // The address of read alternative `alt` (at its index node): the index wire, or, where
  // hwmodel::next_address_bits says so, a register of its own loaded with the next cycle's
  // address, which holds the current address at every edge. Its bits equal counter bits, so
  // synthesis would merge it into the counters (Yosys opt_merge: maxpool 819 LUT, as without
  // it); `keep` holds it apart, the read multiplexer's select alone (maxpool 637 LUT).
  std::string read_address(const TaskPlan& tp, int q, const std::string& ra, const Alt& alt) {
    const int n = alt.index;
    const int bits = hwmodel::next_address_bits(e_.plan, tp, alt);
    if (bits == 0) return ix_ref_wire(tp, q, n);
    const std::string next = next_index(tp, q, n);
    e_.unused.insert(ix_ref_wire(tp, q, n));  // the wired address, built with the lane's index wires
    reg(bits, ra);
    e_.inv.control_bits += bits;
    e_.text.line(fmt::format("  (* keep *) always @(posedge clk) {} <= {}[{}:0];  // {} lane {}: the next read address",
                             ra, next, bits - 1, tp.name, q));
    e_.unused.insert(bits + 1 == kIndexBits ? fmt::format("{}[{}]", next, kIndexBits - 1)
                                            : fmt::format("{}[{}:{}]", next, kIndexBits - 1, bits));
    const std::string wide = ra + "_ix";
    e_.text.decl(fmt::format("  wire signed [{}:0] {} = $signed({{{}'d0, {}}});", kIndexBits - 1, wide, kIndexBits - bits, ra));
    return wide;
  }

  // A gather's lead stage (hwmodel/microarch.h, DynStart::index): the counters address the start
  // indices of item j; a cycle later their registered data, clamped, set the operand
  // address of item j at its issue, while the counters and ok, delayed a cycle, tag it.
  void emit_lead(const TaskPlan& tp, int q) {
    static_assert(hwmodel::kMemoryReadLatency == 1, "the lead stage is one synchronous read");
    std::string delay = fmt::format("    if (rst) {}_d <= 1'b0;\n    else {}_d <= {};\n", ok_name(tp, q), ok_name(tp, q), ok_name(tp, q));
    reg(1, ok_name(tp, q) + "_d", true);
    for (int v = 0; v < tp.loops.vars(); ++v)
      if (tp.loops.extent(v) > 1) {
        reg(bits_for(tp.loops.extent(v) - 1), var_name(tp, q, v) + "_d", true);
        delay += fmt::format("    {}_d <= {};\n", var_name(tp, q, v), var_name(tp, q, v));
      }
    e_.text.line(fmt::format("  always @(posedge clk) begin  // {} lane {}: issue one cycle after the index reads\n{}  end", tp.name, q, delay));
    pre_ = true;
    std::vector<int> roots;
    for (const DynStart& ds : tp.dyn)
      if (ds.index >= 0 && ds.max > 0) roots.push_back(ds.index);
    emit_wires(tp, q, hwmodel::reachable_index_nodes(tp.ix, roots));
    std::string s = "  always @* begin\n";
    for (size_t d = 0; d < tp.dyn.size(); ++d) {
      const DynStart& ds = tp.dyn[d];
      if (ds.index < 0 || ds.max == 0) continue;  // a slice spanning the dimension starts at 0
      const std::string data = e_.read_port(ds.buffer, ds.type, ok_name(tp, q), e_.address(ds.buffer, ix_ref_wire(tp, q, ds.index)),
                                            e_.window(tp.timeline, tp.start), e_.window(tp.timeline, tp.start + tp.busy), tp.task);
      s += clamp_start(tp, q, static_cast<int>(d), data);
    }
    pre_ = false;
    e_.text.line(s + "  end");
  }

  // The index nodes the task's leaves, guards and output index use, as signed wires.
  void emit_index_wires(const TaskPlan& tp, int q) { emit_wires(tp, q, hwmodel::built_index_nodes(tp)); }

  // The index nodes marked `used` (hwmodel/microarch_control.h), as signed wires.
  void emit_wires(const TaskPlan& tp, int q, const std::vector<bool>& used) {
    for (size_t n = 0; n < tp.ix.size(); ++n) {
      if (!used[n]) continue;
      const std::string name = ix_name(tp, q, static_cast<int>(n));
      e_.text.decl(fmt::format("  wire signed [{}:0] {} = {};", kIndexBits - 1, name, ix_expr(tp, q, static_cast<int>(n))));
    }
  }

  std::string ix_ref(const TaskPlan& tp, int q, int n) const {
    const IxNode& x = tp.ix[n];
    return x.kind == IxNode::kConst ? signed_const(x.c) : ix_name(tp, q, n);
  }

  std::string ix_expr(const TaskPlan& tp, int q, int n) {
    const IxNode& x = tp.ix[n];
    switch (x.kind) {
      case IxNode::kConst: return signed_const(x.c);
      case IxNode::kVar: {
        const int b = bits_for(tp.loops.extent(x.var) - 1);
        return fmt::format("$signed({{{}'d0, {}}})", kIndexBits - b, issue_var(tp, q, x.var));
      }
      case IxNode::kDyn: {
        const int b = bits_for(tp.dyn[x.var].max);
        return fmt::format("$signed({{{}'d0, {}}})", kIndexBits - b, dyn_name(tp, q, x.var));
      }
      case IxNode::kLin: {
        std::string s;
        for (const auto& [a, k] : x.terms) {
          std::string term = ix_ref(tp, q, a);
          const int64_t mag = k < 0 ? -k : k;
          if (mag != 1) {
            if (power_of_two(mag)) {
              term = fmt::format("({} <<< {})", term, hwmodel::ceil_log2(mag));
            } else {
              term = fmt::format("({} * {})", term, signed_const(mag));
              ++e_.inv.address_multipliers;
            }
          }
          if (s.empty()) s = k < 0 ? "-" + term : term;
          else s += (k < 0 ? " - " : " + ") + term, ++e_.inv.control_adders;
        }
        if (x.c != 0) s += (x.c < 0 ? " - " : " + ") + signed_const(x.c < 0 ? -x.c : x.c), ++e_.inv.control_adders;
        if (s[0] == '-') ++e_.inv.control_adders;
        return s;
      }
      case IxNode::kDiv:
        if (power_of_two(x.c)) return fmt::format("{} >>> {}", ix_ref(tp, q, x.arg), hwmodel::ceil_log2(x.c));
        ++e_.inv.dividers;
        return fmt::format("{} / {}", ix_ref(tp, q, x.arg), signed_const(x.c));
      case IxNode::kMod:
        if (power_of_two(x.c)) return fmt::format("{} & {}", ix_ref(tp, q, x.arg), signed_const(x.c - 1));
        ++e_.inv.dividers;
        return fmt::format("{} % {}", ix_ref(tp, q, x.arg), signed_const(x.c));
    }
    return "";
  }

  std::string guard_expr(const TaskPlan& tp, int q, const Guard& g) const {
    if (g.never) return "1'b0";
    std::string s;
    auto add = [&](const std::string& c) { s += (s.empty() ? "" : " && ") + c; };
    for (const Cond& c : g.conds) {
      const IxNode& x = tp.ix[c.ix];
      const std::string v = ix_ref(tp, q, c.ix);
      if (c.lo == c.hi) {
        add(fmt::format("{} == {}", v, signed_const(c.lo)));
      } else {
        if (c.lo > x.lo) add(fmt::format("{} >= {}", v, signed_const(c.lo)));
        if (c.hi < x.hi) add(fmt::format("{} <= {}", v, signed_const(c.hi)));
      }
      if (c.multiple > 1)
        add(power_of_two(c.multiple) ? fmt::format("({} & {}) == {}", v, signed_const(c.multiple - 1), signed_const(0))
                                     : fmt::format("({} % {}) == {}", v, signed_const(c.multiple), signed_const(0)));
    }
    return s.empty() ? "1'b1" : s;
  }

  // ---- issue (stage 0): tags, read addresses, guards; operands (stage 1) ----

  std::string leaf_name(const TaskPlan& tp, int q, int leaf) const { return fmt::format("{}_q{}_l{}", tp.name, q, leaf); }
  std::string alt_name(const TaskPlan& tp, int q, size_t leaf, size_t alt, const char* what) const {
    return fmt::format("{}_q{}_l{}a{}_{}", tp.name, q, leaf, alt, what);
  }
  std::string node_name(const TaskPlan& tp, int q, int n) const {
    const Node& node = tp.expr.nodes[n];
    return node.kind == Node::kLeaf ? leaf_name(tp, q, node.leaf) : fmt::format("{}_q{}_n{}", tp.name, q, n);
  }

  // A constant index as a wire too (addresses and narrowings need a name to select from).
  std::string ix_ref_wire(const TaskPlan& tp, int q, int n) {
    const IxNode& x = tp.ix[n];
    if (x.kind != IxNode::kConst) return ix_name(tp, q, n);
    const std::string name = fmt::format("{}_q{}_x{}", tp.name, q, n);
    if (const_wires_.insert(name).second)
      e_.text.decl(fmt::format("  wire signed [{}:0] {} = {};", kIndexBits - 1, name, signed_const(x.c)));
    return name;
  }

  // Stage 0 -> 1 of every alternative: the memory read (synchronous: its data register is
  // the read port), the guard bit and the index value, registered.
  void emit_reads(const TaskPlan& tp, int q) {
    std::string clocked;
    for (size_t l = 0; l < tp.leaves.size(); ++l) {
      const Leaf& leaf = tp.leaves[l];
      const int w = datapath_width(leaf.type);
      for (size_t a = 0; a < leaf.alts.size(); ++a) {
        const Alt& alt = leaf.alts[a];
        if (!alt.guard.always()) {
          reg(1, alt_name(tp, q, l, a, "g"), true);
          clocked += fmt::format("    {} <= {};\n", alt_name(tp, q, l, a, "g"), guard_expr(tp, q, alt.guard));
        }
        if (alt.kind == Alt::kRead) {
          const std::string index = read_address(tp, q, alt_name(tp, q, l, a, "ra"), alt);
          const std::string data = e_.read_port(alt.buffer, leaf.type, issue_ok(tp, q), e_.address(alt.buffer, index),
                                                e_.window(tp.timeline, tp.start), e_.window(tp.timeline, tp.start + tp.busy),
                                                tp.task);
          e_.text.decl(fmt::format("  wire {}{} = {};", range(w), alt_name(tp, q, l, a, "rd"), data));
        } else if (alt.kind == Alt::kIndex) {
          reg(w, alt_name(tp, q, l, a, "ix"), true);
          clocked += fmt::format("    {} <= {};\n", alt_name(tp, q, l, a, "ix"), e_.narrow(ix_ref_wire(tp, q, alt.index), kIndexBits, true, w));
        }
        if (alt.guard.always()) break;  // later alternatives are never taken (load_leaves stops here too)
      }
    }
    if (!clocked.empty()) e_.text.line(fmt::format("  always @(posedge clk) begin  // {} lane {}: reads\n{}  end", tp.name, q, clocked));
  }

  std::string alt_value(const TaskPlan& tp, int q, size_t l, size_t a) {
    const Alt& alt = tp.leaves[l].alts[a];
    const ir::ElementType lt = tp.leaves[l].type;
    const int w = datapath_width(lt);
    switch (alt.kind) {
      case Alt::kRead: return alt_name(tp, q, l, a, "rd");
      case Alt::kIndex: return alt_name(tp, q, l, a, "ix");
      case Alt::kConst: return sized(w, alt.bits);
      case Alt::kAcc: return e_.narrow(sig(q, "pacc"), lw(q), false, w);
      case Alt::kSlot: return e_.narrow(sig(q, "accsel", 1), lw(q), false, w);
      case Alt::kNone: return sized(w, 0);
    }
    return "";
  }

  // Stage 1: the statements that load the leaves of task tp from the registered reads.
  std::string load_leaves(const TaskPlan& tp, int q) {
    std::string s;
    for (size_t l = 0; l < tp.leaves.size(); ++l) {
      const Leaf& leaf = tp.leaves[l];
      const bool skip_leaf = static_cast<int>(l) == tp.skip_leaf() && tp.has_skips;
      std::string chain;
      bool closed = false;
      for (size_t a = 0; a < leaf.alts.size(); ++a) {
        const std::string set = fmt::format("{} = {};", leaf_name(tp, q, static_cast<int>(l)), alt_value(tp, q, l, a));
        if (leaf.alts[a].guard.always()) {
          chain += chain.empty() ? "      " + set + "\n" : "      else " + set + "\n";
          closed = true;
          break;
        }
        chain += fmt::format("      {}if ({}) {}\n", chain.empty() ? "" : "else ", alt_name(tp, q, l, a, "g"), set);
      }
      if (!closed && skip_leaf) chain += fmt::format("      {}{} = 1'b1;\n", chain.empty() ? "" : "else ", sig(q, "k", 1));
      s += chain;
    }
    return s;
  }

  std::string expression(const TaskPlan& tp, int q) {
    std::string s;
    for (size_t n = 0; n < tp.expr.nodes.size(); ++n) {
      const Node& node = tp.expr.nodes[n];
      if (node.kind == Node::kLeaf) continue;
      const std::string dst = node_name(tp, q, static_cast<int>(n));
      reg(datapath_width(node.type), dst);
      if (node.kind == Node::kConst) {
        s += fmt::format("    {} = {};\n", dst, sized(datapath_width(node.type), node.bits));
        continue;
      }
      std::vector<std::string> args;
      for (int a : node.args) args.push_back(node_name(tp, q, a));
      s += op_statement(e_, tp.expr, static_cast<int>(n), dst, args);
    }
    return s;
  }

  // The value a stream/reduce task hands to the pipeline at stage 1, widened to the lane.
  std::string first_value(const TaskPlan& tp, int q) const {
    const int w = datapath_width(tp.out_type);
    const std::string root = resize(node_name(tp, q, tp.expr.root), w, false, lw(q));
    if (tp.split > 1)  // a chunk's first term starts the partial sum as it is
      return fmt::format("{} ? {} : {}", sig(q, "s", 1), resize(leaf_name(tp, q, 1), w, false, lw(q)), root);
    if (!tp.has_skips) return root;  // reduce-window padding keeps the accumulator
    return fmt::format("{} ? {} : {}", sig(q, "k", 1), resize(leaf_name(tp, q, 0), w, false, lw(q)), root);
  }

  // Narrow operands: a signed multiplier of operand_width_ bits (hwmodel/unit_model.h);
  // the operands are extended to the lane width, which Yosys' wreduce takes back.
  bool narrow_multiplier(int q) const { return operand_width_[q] < lw(q); }

  std::string mac_operand(const TaskPlan& tp, int q, int leaf) {
    const ir::ElementType lt = tp.leaves[leaf].type;
    const int wt = datapath_width(tp.out_type);
    if (narrow_multiplier(q)) {
      const int wl = datapath_width(lt), keep = std::min(wl, wt);
      const bool sg = ir::is_signed_integral(lt);
      return resize(e_.narrow(leaf_name(tp, q, leaf), wl, sg, keep), keep, sg, lw(q));
    }
    const std::string at_out = e_.narrow(leaf_name(tp, q, leaf), datapath_width(lt), ir::is_signed_integral(lt), wt);
    return resize(at_out, wt, false, lw(q));
  }

  // The output index tag of the current item.
  std::string out_tag(const TaskPlan& tp, int q) {
    const std::string o = ix_ref_wire(tp, q, tp.loops.out_flat);
    return e_.narrow(o, kIndexBits, false, ob_);
  }

  // "is_task(t) || ..." over this unit's tasks on lane q that `which` selects, at `stage`
  // ("" when there are none).
  template <class Which>
  std::string any_task_on_lane(int q, int stage, Which which) const {
    std::string any;
    for (int t : u_.tasks)
      if (on_lane(task(t), q) && which(task(t))) any += fmt::format("{}{}", any.empty() ? "" : " || ", is_task(task(t), q, stage));
    return any;
  }
  std::string is_task(const TaskPlan& tp, int q, int stage) const {
    return fmt::format("{} == {}", sig(q, "t", stage), sized(tb_, static_cast<uint64_t>(tp.slot)));
  }

  void emit_issue(int q) {
    reg(1, sig(q, "ok", 0));
    reg(tb_, sig(q, "t", 0));
    reg(ob_, sig(q, "o", 0));
    std::string s = fmt::format("  always @* begin\n    {} = 1'b0;\n    {} = {};\n    {} = {};\n", sig(q, "ok", 0),
                                sig(q, "t", 0), sized(tb_, 0), sig(q, "o", 0), sized(ob_, 0));
    if (accumulates_) reg(1, sig(q, "f", 0)), s += fmt::format("    {} = 1'b0;\n", sig(q, "f", 0));
    if (seeds_) reg(1, sig(q, "s", 0)), s += fmt::format("    {} = 1'b0;\n", sig(q, "s", 0));
    if (slots_ > 1) reg(slb_, sig(q, "sl", 0)), s += fmt::format("    {} = {};\n", sig(q, "sl", 0), sized(slb_, 0));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      s += fmt::format("    if ({}) begin\n      {} = 1'b1;\n      {} = {};\n      {} = {};\n", issue_ok(tp, q), sig(q, "ok", 0),
                       sig(q, "t", 0), sized(tb_, static_cast<uint64_t>(tp.slot)), sig(q, "o", 0), out_tag(tp, q));
      if (accumulates_) s += fmt::format("      {} = {};\n", sig(q, "f", 0), first_flag(tp, q));
      if (seeds_ && tp.split > 1 && tp.engine == Engine::kReduce && q % tp.split != 0)
        s += fmt::format("      {} = {} == {};\n", sig(q, "s", 0), round_name(tp, q), sized(bits_for(tp.chunk), 0));
      if (slots_ > 1 && tp.split == 1 && tp.engine != Engine::kStream && tp.loops.period > 1)
        s += fmt::format("      {} = {};\n", sig(q, "sl", 0),
                         e_.narrow(slot_name(tp, q), bits_for(tp.loops.period - 1), false, slb_));
      s += "    end\n";
    }
    e_.text.line(s + "  end");
  }

  // Stage 1: leaves from the registered reads, then the value (stream, reduce) or the
  // product (mac).
  void emit_operands(int q) {
    std::string s = "  always @* begin\n";
    if (skips_) reg(1, sig(q, "k", 1)), s += fmt::format("    {} = 1'b0;\n", sig(q, "k", 1));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      for (size_t l = 0; l < tp.leaves.size(); ++l) {
        const int w = datapath_width(tp.leaves[l].type);
        reg(w, leaf_name(tp, q, static_cast<int>(l)));
        s += fmt::format("    {} = {};\n", leaf_name(tp, q, static_cast<int>(l)), sized(w, 0));
      }
    }
    if (reduce_slots_) {
      reg(lw(q), sig(q, "accsel", 1));
      s += fmt::format("    {} = {};\n", sig(q, "accsel", 1), slot_value(q, 1));
    }
    // Each task's expression has logic of its own and the value below takes the active
    // task's, so its leaves load without its tag (gating them cost a LUT per operand bit
    // in front of every carry chain: two 32-bit adds on one lane 160 LUT, ungated 96);
    // only a task that sets the lane's skip flag loads under its tag.
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      if (tp.has_skips) s += fmt::format("    if ({}) begin\n{}    end\n", is_task(tp, q, 1), load_leaves(tp, q));
      else s += "    begin\n" + load_leaves(tp, q) + "    end\n";
    }
    s += u_.mac ? mac_products(q) : first_values(q);
    e_.text.line(s + "  end");
  }

  // The accumulator register of the slot tagged at `stage`.
  std::string slot_value(int q, int stage) const {
    if (slots_ <= 1) return sig(q, "accr0");
    std::string v = sized(lw(q), 0);
    for (int k = slots_ - 1; k >= 0; --k)
      v = fmt::format("({} == {}) ? {} : {}", sig(q, "sl", stage), sized(slb_, static_cast<uint64_t>(k)),
                      fmt::format("u{}_q{}_accr{}", id_, q, k), v);
    return v;
  }

  // Whether a reduce's accumulator leaf can take the slot's register (not a single term).
  static bool reads_slot(const TaskPlan& tp) {
    for (const Alt& a : tp.leaves[0].alts) {
      if (a.kind == Alt::kSlot) return true;
      if (a.guard.always()) return false;
    }
    return false;
  }

  // The item is the first term of its output (of its chunk, when split).
  std::string first_flag(const TaskPlan& tp, int q) {
    if (tp.split > 1) return fmt::format("{} == {}", round_name(tp, q), sized(bits_for(tp.chunk), 0));
    Guard g;
    tp.ix.require(g, tp.loops.term_flat, 0, 0);
    return guard_expr(tp, q, g);
  }

  // A task whose whole expression is one integer multiply of two leaves: the root node.
  static const Node* lone_multiply(const TaskPlan& tp) {
    if (tp.split > 1 || tp.has_skips || tp.expr.root < 0) return nullptr;
    const Node& r = tp.expr.nodes[static_cast<size_t>(tp.expr.root)];
    if (r.kind != Node::kOp || r.op != ir::Opcode::kMultiply || r.args.size() != 2 || ir::is_floating(r.type)) return nullptr;
    for (int a : r.args)
      if (tp.expr.nodes[static_cast<size_t>(a)].kind != Node::kLeaf) return nullptr;
    return &r;
  }

  // The product every task on lane q computes through one multiplier, when each is a lone
  // multiply of the same types: the binding prices one multiplier (its DSPs) per instance,
  // so the operands are selected by the task's tag and multiplied once (separate products
  // per task would each be a DSP block, as synthesis builds them).
  std::optional<std::string> shared_product(int q) {
    const Node* first = nullptr;
    const TaskPlan* owner = nullptr;
    int tasks = 0;
    const auto arg_type = [](const TaskPlan& p, const Node& n, size_t k) {
      return p.expr.nodes[static_cast<size_t>(n.args[k])].type;
    };
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      const Node* r = lone_multiply(tp);
      if (!r) return std::nullopt;
      if (!first) {
        first = r, owner = &tp;
      } else if (r->type != first->type || arg_type(tp, *r, 0) != arg_type(*owner, *first, 0) ||
                 arg_type(tp, *r, 1) != arg_type(*owner, *first, 1)) {
        return std::nullopt;
      }
      ++tasks;
    }
    if (tasks < 2) return std::nullopt;
    std::vector<std::string> operands;
    std::string s;
    for (size_t k = 0; k < 2; ++k) {
      const int w = datapath_width(arg_type(*owner, *first, k));
      const std::string name = sig(q, k == 0 ? "ma" : "mb");
      reg(w, name);
      s += fmt::format("    {} = {};\n", name, sized(w, 0));
      for (int t : u_.tasks) {
        const TaskPlan& tp = task(t);
        if (!on_lane(tp, q)) continue;
        const Node& r = *lone_multiply(tp);
        s += fmt::format("    if ({}) {} = {};\n", is_task(tp, q, 1), name,
                         leaf_name(tp, q, tp.expr.nodes[static_cast<size_t>(r.args[k])].leaf));
      }
      operands.push_back(name);
    }
    const int w = datapath_width(first->type);
    reg(w, sig(q, "mp"));
    s += op_statement(e_, owner->expr, owner->expr.root, sig(q, "mp"), operands);
    s += fmt::format("    {} = {};\n", sig(q, "v", 1), resize(sig(q, "mp"), w, false, lw(q)));
    return s;
  }

  // A task not staged: its value after the leaves, for the lane's value pipeline.
  bool rides_values(int t, int q) const { return on_lane(task(t), q) && !staged_.count(t); }

  std::string first_values(int q) {
    if (value_depth_[q] == 0) return "";  // every task on the lane is staged (emit_staged)
    reg(lw(q), sig(q, "v", 1));
    if (auto shared = shared_product(q)) return *shared;
    std::string s;
    for (int t : u_.tasks)
      if (rides_values(t, q)) s += expression(task(t), q);
    s += fmt::format("    {} = {};\n", sig(q, "v", 1), sized(lw(q), 0));
    for (int t : u_.tasks)
      if (rides_values(t, q)) s += fmt::format("    if ({}) {} = {};\n", is_task(task(t), q, 1), sig(q, "v", 1), first_value(task(t), q));
    return s;
  }

  // The float units of the lane's staged tasks (pool_), one instance each; a unit several
  // tasks use takes its operands from the one whose item is at its operand stage (by the
  // tag there: the tasks' issue windows do not overlap, so neither do their items at any
  // stage). The binding put the tasks on one instance; they share its units.
  void emit_pooled_units() {
    for (auto& [key, p] : pool_) {
      const auto& [cond0, args0, sub0] = p.uses.front();
      if (p.uses.size() == 1) {
        float_instance(e_, p.unit, p.name, args0.at(0), args0.size() > 1 ? args0[1] : "", sub0 ? "1'b1" : "1'b0",
                       args0.size() > 2 ? args0[2] : "");
        continue;
      }
      const FloatUnitPorts ports = float_unit_ports(p.unit);
      std::string s = "  always @* begin  // operands of a float unit the lane's tasks share\n";
      std::vector<std::string> operands;
      for (int k = 0; k < ports.operands; ++k) {
        const std::string name = fmt::format("{}_{}", p.name, "abc"[k]);
        reg(ports.operand_bits, name);
        s += fmt::format("    {} = {};\n", name, sized(ports.operand_bits, 0));
        for (const auto& [cond, args, sub] : p.uses) s += fmt::format("    if ({}) {} = {};\n", cond, name, args.at(k));
        operands.push_back(name);
      }
      bool mixed = false;
      for (const auto& use : p.uses) mixed |= std::get<2>(use) != sub0;
      std::string sub = sub0 ? "1'b1" : "1'b0";
      if (mixed) {  // add and subtract share the adder
        sub = p.name + "_sub";
        reg(1, sub);
        s += fmt::format("    {} = 1'b0;\n", sub);
        for (const auto& [cond, args, is_sub] : p.uses)
          if (is_sub) s += fmt::format("    if ({}) {} = 1'b1;\n", cond, sub);
      }
      e_.text.line(s + "  end");
      float_instance(e_, p.unit, p.name, operands[0], operands.size() > 1 ? operands[1] : "", sub,
                     operands.size() > 2 ? operands[2] : "");
    }
    pool_.clear();
  }

  // A staged task (float units) on lane q: its expression stage by stage from the leaves at
  // stage 1, its value brought to the write stage (depth - 1); as first_value, a split
  // chunk's first term and a padding term take a leaf instead. Returns the value's name.
  std::string emit_staged(const TaskPlan& tp, int q) {
    const std::string prefix = fmt::format("{}_q{}", tp.name, q);
    Stager st(e_, prefix);
    std::map<std::pair<std::string, int>, int> uses;  // this task's units so far, by (module, operand stage)
    st.set_unit_source([&](const FloatUnit& u, int stage, const std::vector<std::string>& args, bool sub) {
      const std::string module = float_unit_name(u);
      PooledUnit& p = pool_[{module, stage, uses[{module, stage}]++}];
      if (p.name.empty()) p = {u, stage, fmt::format("u{}_q{}_f{}", id_, q, pool_.size() - 1), {}};
      p.uses.push_back({is_task(tp, q, stage), args, sub});
      return p.name + "_y";
    });
    const Stager::Value root = st.evaluate(tp.expr, [&](int leaf) { return leaf_name(tp, q, leaf); }, 1);
    const int last = tp.depth - 1, w = datapath_width(tp.out_type);
    if (root.stage > last)
      throw Error(fmt::format("rtl: task {} computes its value at stage {}, after its write at stage {}: the target's "
                              "float_units latencies are below the generated units' (scripts/calibrate_float_units.sh "
                              "rewrites the table)", tp.name, root.stage, last));
    std::string value = root.stage < 0 ? root.name : st.at(root.name, w, root.stage, last);
    auto leaf_at = [&](int leaf) { return st.at(leaf_name(tp, q, leaf), datapath_width(tp.leaves[leaf].type), 1, last); };
    if (tp.split > 1)
      value = fmt::format("{} ? {} : {}", st.at(sig(q, "s", 1), 1, 1, last), leaf_at(1), value);
    else if (tp.has_skips)
      value = fmt::format("{} ? {} : {}", st.at(sig(q, "k", 1), 1, 1, last), leaf_at(0), value);
    st.finish();
    const std::string name = prefix + "_fin";
    e_.text.decl(fmt::format("  wire {}{} = {};", range(w), name, value));
    return name;
  }

  std::string mac_products(int q) {
    reg(lw(q), sig(q, "a"));
    reg(lw(q), sig(q, "b"));
    if (!float_mac_) reg(lw(q), sig(q, "p", 1));
    std::string s = fmt::format("    {} = {};\n    {} = {};\n", sig(q, "a"), sized(lw(q), 0), sig(q, "b"), sized(lw(q), 0));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (on_lane(tp, q))
        s += fmt::format("    if ({}) begin\n      {} = {};\n      {} = {};\n    end\n", is_task(tp, q, 1), sig(q, "a"),
                         mac_operand(tp, q, 0), sig(q, "b"), mac_operand(tp, q, 1));
    }
    if (float_mac_) {  // the IEEE-754 multiplier; its product is registered at stage mul_depth
      float_instance(e_, lane_float_unit(q, FloatOp::kMultiply), sig(q, "fmul"), sig(q, "a"), sig(q, "b"));
      return s;
    }
    ++e_.inv.multipliers;
    if (narrow_multiplier(q))  // operands sign-extended from operand_width_: synthesis drops the copies
      return s + fmt::format("    {} = $signed({}) * $signed({});\n", sig(q, "p", 1), sig(q, "a"), sig(q, "b"));
    return s + fmt::format("    {} = {} * {};\n", sig(q, "p", 1), sig(q, "a"), sig(q, "b"));
  }

  // Registers between issue and write: tags for every stage, the value where it exists
  // (from stage 1; a mac's product up to its accumulator stage, the sum after it).
  void emit_pipeline(int q) {
    std::string valid, rest;
    const int m = u_.mac ? u_.mul_depth : 0;
    for (int s = 1; s < lane_depth_[q]; ++s) {
      reg(1, sig(q, "ok", s), true);
      reg(tb_, sig(q, "t", s), true);
      reg(ob_, sig(q, "o", s), true);
      valid += fmt::format("      {} <= {};\n", sig(q, "ok", s), sig(q, "ok", s - 1));
      rest += fmt::format("    {} <= {};\n    {} <= {};\n", sig(q, "t", s), sig(q, "t", s - 1), sig(q, "o", s), sig(q, "o", s - 1));
      if (slots_ > 1 && s < slot_depth_)
        reg(slb_, sig(q, "sl", s), true), rest += fmt::format("    {} <= {};\n", sig(q, "sl", s), sig(q, "sl", s - 1));
      if (s == 1 && seeds_) reg(1, sig(q, "s", 1), true), rest += fmt::format("    {} <= {};\n", sig(q, "s", 1), sig(q, "s", 0));
      if (u_.mac && s <= m) {
        reg(1, sig(q, "f", s), true);
        rest += fmt::format("    {} <= {};\n", sig(q, "f", s), sig(q, "f", s - 1));
        if (s >= 2) {
          // a float multiplier pipelines its product itself: its result is registered at m
          if (!float_mac_ || s == m) {
            reg(lw(q), sig(q, "p", s), true);
            rest += fmt::format("    {} <= {};\n", sig(q, "p", s), float_mac_ ? sig(q, "fmul_y") : sig(q, "p", s - 1));
          }
          if (skips_) reg(1, sig(q, "k", s), true), rest += fmt::format("    {} <= {};\n", sig(q, "k", s), sig(q, "k", s - 1));
        }
      } else if (s >= 2 && s < value_depth_[q] && !float_mac_) {
        reg(value_width(q, s), sig(q, "v", s), true);
        const bool sum = u_.mac && s == m + 1;
        const std::string from = e_.narrow(sum ? sig(q, "sum") : sig(q, "v", s - 1), value_width(q, s - 1), false,
                                           value_width(q, s));
        rest += fmt::format("    {} <= {};\n", sig(q, "v", s), from);
      }
    }
    if (lane_depth_[q] <= 1) return;
    // the slot tag's last register (it travels as deep as its deepest reader, and no
    // deeper than the lane) may be unread: an accumulating task shallower than the lane's
    // deepest task never reads it
    if (slots_ > 1) e_.unused.insert(sig(q, "sl", std::min(lane_depth_[q], slot_depth_) - 1));
    e_.text.line(fmt::format("  always @(posedge clk) begin\n    if (rst) begin\n{}    end else begin\n{}    end\n{}  end",
                             reset_lines(q), valid, rest));
  }

  // Bits of the value at stage st of lane q: as wide as the widest task still in flight
  // there (a deep narrow task behind a shallow wide one needs only its own width).
  int value_width(int q, int st) const {
    if (st <= 1 || (u_.mac && st <= u_.mul_depth)) return lw(q);
    int w = 1;
    for (int t : u_.tasks)
      if (rides_values(t, q) && task(t).depth - 1 >= st) w = std::max(w, datapath_width(task(t).out_type));
    return w;
  }

  std::string reset_lines(int q) const {
    std::string s;
    for (int st = 1; st < lane_depth_[q]; ++st) s += fmt::format("      {} <= 1'b0;\n", sig(q, "ok", st));
    return s;
  }

  std::string out_address(const TaskPlan& tp, const std::string& tag) {
    return e_.narrow(tag, ob_, false, e_.addr_bits(tp.out_buffer));
  }

  void emit_accumulate(int q) {
    const int m = u_.mul_depth;
    reg(lw(q), sig(q, "acc"));
    std::string s = fmt::format("  always @* begin\n    {} = {};\n", sig(q, "acc"), sized(lw(q), 0));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      const std::string v = tp.split > 1 ? sig(q, "pacc") : slot_value(q, m);  // the lane's partial sum, or the slot's
      s += fmt::format("    if ({}) {} = {};\n", is_task(tp, q, m), sig(q, "acc"), v);
    }
    // A split task's first term starts its chunk from zero here, and a float lane's every
    // first term; an integer slot's register is cleared the cycle before instead
    // (clear_slots), so the adder's operand is the register itself.
    if (float_mac_) {
      s += fmt::format("    if ({}) {} = {};\n", sig(q, "f", m), sig(q, "acc"), sized(lw(q), 0));
    } else if (lane_used(q, true)) {
      const std::string split = any_task_on_lane(q, m, [](const TaskPlan& tp) { return tp.split > 1; });
      s += fmt::format("    if ({} && ({})) {} = {};\n", sig(q, "f", m), split, sig(q, "acc"), sized(lw(q), 0));
    } else {
      e_.unused.insert(sig(q, "f", m));
    }
    if (float_mac_) {  // the IEEE-754 adder; a padding term adds -0, which leaves every sum as it is
      e_.text.line(s + "  end");
      const std::string negative_zero = sized(lw(q), uint64_t{1} << (lw(q) - 1));
      const std::string addend = skips_ ? fmt::format("{} ? {} : {}", sig(q, "k", m), negative_zero, sig(q, "p", m)) : sig(q, "p", m);
      float_instance(e_, lane_float_unit(q, FloatOp::kAdd), sig(q, "fadd"), sig(q, "acc"), addend);
      return;
    }
    reg(lw(q), sig(q, "sum"));
    const std::string sum = fmt::format("{} + {}", sig(q, "acc"), sig(q, "p", m));
    s += skips_ ? fmt::format("    {} = {} ? {} : {};\n", sig(q, "sum"), sig(q, "k", m), sig(q, "acc"), sum)
                : fmt::format("    {} = {};\n", sig(q, "sum"), sum);
    ++e_.inv.adders;
    e_.text.line(s + "  end");
  }

  // The float mac lane's multiplier or adder: one type for every task on the lane.
  FloatUnit lane_float_unit(int q, FloatOp op) const {
    ir::ElementType type{};
    for (int t : u_.tasks)
      if (on_lane(task(t), q)) {
        if (type != ir::ElementType{} && type != task(t).out_type)
          throw Error(fmt::format("rtl: unit {} #{} multiplies {} and {}: one float mac lane computes one type",
                                  u_.cls, u_.index, ir::element_type_name(type), ir::element_type_name(task(t).out_type)));
        type = task(t).out_type;
      }
    FloatUnit u;
    u.op = op;
    u.type = u.result_type = type;
    u.result_register = false;
    return u;
  }

  // A task's result at its last stage (depth - 1): the mac's sum when the adder takes one
  // cycle, else the pipeline's value register; and when it is written.
  std::string written_value(const TaskPlan& tp, int q) const {
    const int st = tp.depth - 1;
    if (float_mac_) return sig(q, "fadd_y");
    return u_.mac && st == u_.mul_depth ? sig(q, "sum") : sig(q, "v", st);
  }
  // That value at `to` bits (a staged task's from its own final signal).
  std::string written(const TaskPlan& tp, int q, int to) const {
    if (const auto f = finals_.find(static_cast<int>(tp.task)); f != finals_.end())
      return resize(f->second, datapath_width(tp.out_type), false, to);
    return resize(written_value(tp, q), value_width(q, tp.depth - 1), false, to);
  }
  std::string write_enable(const TaskPlan& tp, int q) const {
    return fmt::format("{} && {}", sig(q, "ok", tp.depth - 1), is_task(tp, q, tp.depth - 1));
  }

  // The accumulator registers of the lane's slots (accumulating tasks that are not split).
  void emit_slot_registers(int q) {
    if (slots_ == 0) return;
    std::string s;
    for (int k = 0; k < slots_; ++k) reg(lw(q), fmt::format("u{}_q{}_accr{}", id_, q, k), true);
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q) || tp.split > 1 || tp.engine == Engine::kStream) continue;
      if (tp.engine == Engine::kReduce && !reads_slot(tp)) continue;
      const std::string value = written(tp, q, lw(q));
      const std::string when = write_enable(tp, q);
      for (int k = 0; k < slots_; ++k)
        s += fmt::format("    if ({}{}) u{}_q{}_accr{} <= {};\n", when,
                         slots_ > 1 ? fmt::format(" && {} == {}", sig(q, "sl", tp.depth - 1), sized(slb_, static_cast<uint64_t>(k))) : "",
                         id_, q, k, value);
    }
    if (u_.mac && !float_mac_) s += clear_slots(q);
    if (!s.empty()) e_.text.line("  always @(posedge clk) begin  // accumulator registers, one per slot\n" + s + "  end");
  }

  // A mac's first term of an output finds its slot's register at zero: the register is
  // cleared the cycle before that term reaches the adder (at stage mul_depth - 1, the
  // last statement, so it wins over a write in the same cycle: the slot's previous
  // output, whose sum the pipeline carries to its write on its own). Synthesis builds the
  // clear as the flip-flops' synchronous reset, and the accumulator as its adder alone:
  // clearing the operand in front of the adder instead (`(first ? 0 : acc) + p`) cost
  // Yosys one LUT per bit more whenever it made the cleared operand the carry chain's
  // DI input, which its operand order (alumacc sorts the two addends by signal) decides
  // (fir256 106 LUT, matmul_64x64 81 with the same Verilog but for widths; 73 and 78 so).
  // A float lane keeps the select in front of its IEEE-754 adder: cleared so, mlp_layer's
  // slot registers took Yosys 146 LUT more (3,894 -> 4,040).
  std::string clear_slots(int q) {
    const int before = u_.mul_depth - 1;
    std::string when = sig(q, "f", before);
    if (lane_used(q, true)) {  // a split task's first term clears its partial sum, not a slot
      const std::string tasks = any_task_on_lane(q, before, [](const TaskPlan& tp) { return tp.split == 1; });
      if (tasks.empty()) return "";
      when += " && (" + tasks + ")";
    }
    std::string s;
    for (int k = 0; k < slots_; ++k)
      s += fmt::format("    if ({}{}) u{}_q{}_accr{} <= {};  // its next output's first term is one stage away\n", when,
                       slots_ > 1 ? fmt::format(" && {} == {}", sig(q, "sl", before), sized(slb_, static_cast<uint64_t>(k))) : "",
                       id_, q, k, sized(lw(q), 0));
    return s;
  }

  void emit_writes(int t, int q) {
    const TaskPlan& tp = task(t);
    const int st = tp.depth - 1;
    const std::string when = write_enable(tp, q);
    if (tp.split > 1) {
      pacc_writes_[q] += fmt::format("    if ({}) {} <= {};  // {} partial\n", when, sig(q, "pacc"), written(tp, q, lw(q)), tp.name);
      return;
    }
    const std::string value = written(tp, q, datapath_width(tp.out_type));
    e_.write(tp.out_buffer, q, when, out_address(tp, sig(q, "o", st)), value, fmt::format("{} lane {}", tp.name, q));
  }

  // dynamic-slice: the start indices clamped so the slice fits, read once per task.
  void emit_dyn_starts(const TaskPlan& tp) {
    std::string s;
    for (size_t d = 0; d < tp.dyn.size(); ++d) {
      const DynStart& ds = tp.dyn[d];
      if (ds.index >= 0 || ds.max == 0) continue;  // per item (emit_lead), or the slice spans the dimension
      s += clamp_start(tp, 0, static_cast<int>(d), e_.read(ds.buffer, ds.type, sized(e_.addr_bits(ds.buffer), 0)));
    }
    if (!s.empty()) e_.text.line("  always @* begin\n" + s + "  end");
  }

  // Statements setting start index d from `value` clamped to [0, max] (HLO: a negative
  // start is 0, so is a u64 with its top bit set, as the interpreter reads it as int64).
  std::string clamp_start(const TaskPlan& tp, int q, int d, const std::string& value) {
    const DynStart& ds = tp.dyn[d];
    const int w = datapath_width(ds.type), ob = bits_for(ds.max);
    const std::string base = ds.index < 0 ? fmt::format("{}_", tp.name) : fmt::format("{}_q{}_", tp.name, q);
    const std::string raw = fmt::format("{}raw{}", base, d), full = fmt::format("{}clamped{}", base, d);
    reg(w, raw);
    reg(w, full);
    reg(ob, dyn_name(tp, q, d));
    const bool sgn = ir::is_signed_integral(ds.type);
    const bool can_exceed = w >= 63 || ds.max < (int64_t{1} << (sgn ? w - 1 : w)) - 1;
    std::string clamp = can_exceed ? fmt::format("({} > {}) ? {} : {}", raw, sized(w, static_cast<uint64_t>(ds.max)),
                                                 sized(w, static_cast<uint64_t>(ds.max)), raw)
                                   : raw;
    if (sgn || w == 64) clamp = fmt::format("{}[{}] ? {} : {}", raw, w - 1, sized(w, 0), can_exceed ? "(" + clamp + ")" : clamp);
    return fmt::format("    {} = {};\n    {} = {};\n    {} = {};\n", raw, value, full, clamp, dyn_name(tp, q, d),
                       e_.narrow(full, w, false, ob));
  }

  // The partial sums of one output joined pairwise: level l joins chunks c and c + 2^(l-1)
  // for c a multiple of 2^l; an empty chunk (past the last term) leaves its partner as is.
  void emit_tree(const TaskPlan& tp) {
    const int w = datapath_width(tp.out_type), levels = hwmodel::ceil_log2(tp.split);
    Expr x;
    x.add({Node::kLeaf, {}, tp.out_type, {}, 0});
    x.add({Node::kLeaf, {}, tp.out_type, {}, 1});
    const int root = x.add({Node::kOp, tp.combiner, tp.out_type, {0, 1}});
    for (int64_t o = 0; o < tp.outputs; ++o)
      for (int level = 1; level <= levels; ++level) {
        const int step = 1 << (level - 1);
        const std::string when = at_cycle(e_.plan, u_.timeline, tp.start + tp.tree_cycle(level));
        for (int c = 0; c < tp.split; c += 2 * step) {
          const int ql = static_cast<int>(o * tp.split + c), qr = ql + step;
          if (c * tp.chunk >= tp.terms) break;  // empty chunks from here on
          const bool partner = c + step < tp.split && (c + step) * tp.chunk < tp.terms;
          if (!partner && level < levels) continue;
          std::string value = e_.narrow(sig(ql, "pacc"), lw(ql), false, w);
          if (partner) {
            value = fmt::format("{}_tree_o{}_l{}_c{}", tp.name, o, level, c);
            const std::string left = e_.narrow(sig(ql, "pacc"), lw(ql), false, w), right = e_.narrow(sig(qr, "pacc"), lw(qr), false, w);
            if (const auto u = node_float_unit(x, root)) {
              // a float unit of the adder's depth: the partials are final add_depth - 1
              // cycles before this level's cycle and stay until its result is taken
              value = float_instance(e_, *u, value, left, right, tp.combiner == ir::Opcode::kSubtract ? "1'b1" : "1'b0");
            } else {
              reg(w, value);
              e_.text.line("  always @* begin\n" + op_statement(e_, x, root, value, {left, right}) + "  end");
            }
          }
          if (level == levels)
            e_.write(tp.out_buffer, static_cast<int>(o), when, sized(e_.addr_bits(tp.out_buffer), static_cast<uint64_t>(o)), value,
                     tp.name + " tree root");
          else if (partner)
            pacc_writes_[ql] += fmt::format("    if ({}) {} <= {};\n", when, sig(ql, "pacc"), resize(value, w, false, lw(ql)));
        }
      }
  }

  Emitter& e_;
  const Unit& u_;
  int id_;
  int tb_ = 1, ob_ = 1, jb_ = 1;
  bool accumulates_ = false;
  bool skips_ = false, seeds_ = false;  // for the lane being emitted
  int slots_ = 0, slb_ = 1;             // accumulator registers of the lane, bits of a slot tag
  int slot_depth_ = 0;                  // the deepest task reading them (its slot tag's last stage + 1)
  bool reduce_slots_ = false;           // a reduce reads them as its accumulator leaf
  std::vector<int> lane_width_, lane_depth_, operand_width_;
  std::vector<int> value_depth_;  // per lane: the deepest task whose value rides the lane's v pipeline
  std::set<int> staged_;          // tasks with float units, evaluated in stages (Stager), by task index
  bool float_mac_ = false;        // a mac of IEEE-754 units (fmul, then fadd accumulating)
  std::map<int, std::string> finals_;  // staged task on the current lane -> its value at its write stage
  struct PooledUnit {
    FloatUnit unit;
    int stage = 0;     // where its operands are presented
    std::string name;  // instance; its result is <name>_y
    std::vector<std::tuple<std::string, std::vector<std::string>, bool>> uses;  // (task tag test, operands, sub)
  };
  // The lane's float units by (module, operand stage, k): a task's k-th such unit.
  std::map<std::tuple<std::string, int, int>, PooledUnit> pool_;
  std::vector<std::string> pacc_writes_;  // per lane: the clocked block of its partial register
  std::set<std::string> const_wires_;
  bool pre_ = false;  // emitting a gather's lead stage (ix_name, issue_var)
  bool next_ = false;  // emitting index wires over the counters' next values (next_index)
  struct CounterBlock {
    std::string restart, act;
    Stmts init, advance;
  };
  std::map<std::pair<uint32_t, int>, CounterBlock> counter_blocks_;  // by (task, lane): emit_loops' block
  std::set<std::pair<uint32_t, int>> next_counters_;  // (task, lane) whose `_next` values are emitted
  std::set<std::string> next_wires_;
};

}  // namespace

void emit_units(Emitter& e) {
  for (size_t u = 0; u < e.plan.units.size(); ++u) UnitEmitter(e, static_cast<int>(u)).run();
}

}  // namespace hlsgym::rtl::verilog_detail
