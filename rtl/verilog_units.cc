// One block per bound functional-unit instance (the binding's interval partitioning):
//
//   issue counter j  --+--> per task and lane: a case on j loads the item's leaves
//   act_s (cycle in   |     (static track selects), output index, first/skip flags
//   the task's window)|--> expression of the active task -> stage-0 value (stream, reduce)
//                     |    or operand pair -> the lane's one multiplier (mac)
//                     +--> pipeline registers carry {valid, task, index, value}; each task
//                          writes its track at its own depth (stage depth - 1).
//
// A mac lane has one multiplier and one accumulator adder shared by all its tasks: the
// product travels `mul_depth` stages, then adds to the output so far (or zero for the
// first term), and the sum travels the adder's depth to the write.
//
// A reduction split over more lanes than outputs (TaskPlan::split) accumulates in one
// partial register per lane (pacc) instead of the output; once the last partial lands,
// a tree joins them, one level every `add_depth` cycles, the last level writing the
// output exactly at the task's latency.
#include <algorithm>
#include <set>

#include "rtl/verilog_internal.h"

namespace hlsgym::rtl::verilog_detail {
namespace {

class UnitEmitter {
 public:
  UnitEmitter(Emitter& e, int id) : e_(e), u_(e.plan.units[id]), id_(id) {
    int64_t outs = 1, busy = 1;
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      outs = std::max(outs, tp.outputs);
      busy = std::max(busy, tp.busy);
      split_ |= tp.split > 1;
    }
    accumulates_ = u_.mac;  // only a mac reads the first-term flag (a reduce's acc leaf knows)
    for (int q = 0; q < u_.lanes; ++q) {  // a lane is as wide as the widest task it runs
      int w = 1, d = 1;
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) w = std::max(w, datapath_width(task(t).out_type)), d = std::max(d, task(t).depth);
      lane_width_.push_back(w);
      lane_depth_.push_back(d);  // and as deep as its deepest task
    }
    tb_ = bits_for(static_cast<int64_t>(u_.tasks.size()) - 1);
    ob_ = bits_for(outs - 1);
    jb_ = bits_for(busy - 1);
  }

  void run() {
    emit_counter();
    for (int t : u_.tasks)
      if (!task(t).dyn.empty()) emit_offset(task(t));
    pacc_writes_.assign(static_cast<size_t>(u_.lanes), "");
    for (int q = 0; q < u_.lanes; ++q) {
      if (!lane_used(q)) continue;  // e.g. 3 lanes for 4 outputs: 2 each, the third idles
      skips_ = seeds_ = false;  // the flags this lane's tasks need
      for (int t : u_.tasks)
        if (on_lane(task(t), q)) {
          skips_ |= task(t).has_skips;
          seeds_ |= task(t).split > 1 && task(t).engine == Engine::kReduce;
        }
      if (lane_used(q, true)) reg(lw(q), sig(q, "pacc"), true);
      emit_issue(q);
      emit_pipeline(q);
      if (u_.mac) emit_accumulate(q);
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
  static bool on_lane(const TaskPlan& tp, int q) {
    if (q >= tp.lanes) return false;
    for (const Item& it : tp.items[q])
      if (it.id >= 0) return true;
    return false;
  }
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

  // The issue counter restarts at every task's first cycle; act_s marks task s's window.
  void emit_counter() {
    const int cw = bits_for(e_.plan.cycles);
    std::string desc, restart = "start_fire";
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      desc += fmt::format(" {} [{}, {})", tp.name, tp.start, tp.start + tp.busy);
      std::string w = "running";
      if (tp.start > 0) {
        w += fmt::format(" && cyc >= {}", sized(cw, static_cast<uint64_t>(tp.start)));
        restart += fmt::format(" || (running && cyc == {})", sized(cw, static_cast<uint64_t>(tp.start - 1)));
      }
      w += fmt::format(" && cyc < {}", sized(cw, static_cast<uint64_t>(tp.start + tp.busy)));
      e_.text.decl(fmt::format("  wire {} = {};", act(tp.slot), w));
    }
    e_.text.line(fmt::format("\n  // ---- unit {} #{}: {} lane(s), depth {}; tasks [issue window):{}", u_.cls, u_.index,
                             u_.lanes, u_.depth, desc));
    reg(jb_, j());
    e_.text.line(fmt::format("  always @(posedge clk) begin\n    if ({}) {} <= {};\n    else {} <= {} + {};\n  end", restart,
                             j(), sized(jb_, 0), j(), j(), sized(jb_, 1)));
    e_.inv.control_bits += jb_;
    e_.inv.control_adders += 1;
  }

  std::string leaf_name(const TaskPlan& tp, int q, int leaf) const { return fmt::format("{}_q{}_l{}", tp.name, q, leaf); }
  std::string node_name(const TaskPlan& tp, int q, int n) const {
    const Node& node = tp.expr.nodes[n];
    return node.kind == Node::kLeaf ? leaf_name(tp, q, node.leaf) : fmt::format("{}_q{}_n{}", tp.name, q, n);
  }

  // One case arm per issue cycle: which item, and where its operands come from.
  std::string item_arms(const TaskPlan& tp, int q) {
    std::string s;
    for (int64_t jj = 0; jj < tp.busy; ++jj) {
      const Item& it = tp.items[q][jj];
      if (it.id < 0) continue;
      s += fmt::format("        {}: begin\n          {} = 1'b1;\n          {} = {};\n", sized(jb_, static_cast<uint64_t>(jj)),
                       sig(q, "ok", 0), sig(q, "o", 0), sized(ob_, static_cast<uint64_t>(it.out)));
      if (accumulates_ && it.first) s += fmt::format("          {} = 1'b1;\n", sig(q, "f", 0));
      if (skips_ && it.skip) s += fmt::format("          {} = 1'b1;\n", sig(q, "k", 0));
      if (seeds_ && it.seed) s += fmt::format("          {} = 1'b1;\n", sig(q, "s", 0));
      for (size_t l = 0; l < tp.leaves.size(); ++l) {
        const Source& src = tp.leaves[l].sources[it.id];
        const ir::ElementType lt = tp.leaves[l].type;
        if (src.kind == Source::kNone) continue;
        if (src.kind == Source::kDyn) {  // the static part of the index; dynamic_read adds the offset
          s += fmt::format("          {} = {};\n", base_name(tp, q), sized(dyn_bits(tp), static_cast<uint64_t>(src.index)));
          continue;
        }
        const std::string v = src.kind == Source::kAcc ? e_.narrow(sig(q, "pacc"), lw(q), false, datapath_width(lt))
                                                       : e_.source(src, lt);
        s += fmt::format("          {} = {};\n", leaf_name(tp, q, static_cast<int>(l)), v);
      }
      s += "        end\n";
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

  // The value a stream/reduce task hands to the pipeline, widened to the unit's width.
  std::string stage0_value(const TaskPlan& tp, int q) const {
    const int w = datapath_width(tp.out_type);
    const std::string root = resize(node_name(tp, q, tp.expr.root), w, false, lw(q));
    if (tp.split > 1)  // a chunk's first term starts the partial sum as it is
      return fmt::format("{} ? {} : {}", sig(q, "s", 0), resize(leaf_name(tp, q, 1), w, false, lw(q)), root);
    if (!tp.has_skips) return root;  // reduce-window padding keeps the accumulator
    return fmt::format("{} ? {} : {}", sig(q, "k", 0), resize(leaf_name(tp, q, 0), w, false, lw(q)), root);
  }

  std::string mac_operand(const TaskPlan& tp, int q, int leaf) {
    const ir::ElementType lt = tp.leaves[leaf].type;
    const int wt = datapath_width(tp.out_type);
    const std::string at_out = e_.narrow(leaf_name(tp, q, leaf), datapath_width(lt), ir::is_signed_integral(lt), wt);
    return resize(at_out, wt, false, lw(q));
  }

  void emit_issue(int q) {
    reg(1, sig(q, "ok", 0));
    reg(tb_, sig(q, "t", 0));
    reg(ob_, sig(q, "o", 0));
    std::string s = fmt::format("  always @* begin\n    {} = 1'b0;\n    {} = {};\n    {} = {};\n", sig(q, "ok", 0),
                                sig(q, "t", 0), sized(tb_, 0), sig(q, "o", 0), sized(ob_, 0));
    if (accumulates_) reg(1, sig(q, "f", 0)), s += fmt::format("    {} = 1'b0;\n", sig(q, "f", 0));
    if (skips_) reg(1, sig(q, "k", 0)), s += fmt::format("    {} = 1'b0;\n", sig(q, "k", 0));
    if (seeds_) reg(1, sig(q, "s", 0)), s += fmt::format("    {} = 1'b0;\n", sig(q, "s", 0));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      for (size_t l = 0; l < tp.leaves.size(); ++l) {
        const int w = datapath_width(tp.leaves[l].type);
        reg(w, leaf_name(tp, q, static_cast<int>(l)));
        s += fmt::format("    {} = {};\n", leaf_name(tp, q, static_cast<int>(l)), sized(w, 0));
      }
      if (!tp.dyn.empty()) reg(dyn_bits(tp), base_name(tp, q)), s += fmt::format("    {} = {};\n", base_name(tp, q), sized(dyn_bits(tp), 0));
    }
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      s += fmt::format("    if ({}) begin\n      {} = {};\n      case ({})\n{}        default: ;\n      endcase\n    end\n",
                       act(tp.slot), sig(q, "t", 0), sized(tb_, static_cast<uint64_t>(tp.slot)), j(), item_arms(tp, q));
    }
    for (int t : u_.tasks)
      if (on_lane(task(t), q) && !task(t).dyn.empty()) s += dynamic_read(task(t), q);
    s += u_.mac ? mac_products(q) : stage0_values(q);
    e_.text.line(s + "  end");
  }

  std::string stage0_values(int q) {
    reg(lw(q), sig(q, "v", 0));
    std::string s;
    for (int t : u_.tasks)
      if (on_lane(task(t), q)) s += expression(task(t), q);
    s += fmt::format("    {} = {};\n", sig(q, "v", 0), sized(lw(q), 0));
    for (int t : u_.tasks)
      if (on_lane(task(t), q)) s += fmt::format("    if ({}) {} = {};\n", act(task(t).slot), sig(q, "v", 0), stage0_value(task(t), q));
    return s;
  }

  std::string mac_products(int q) {
    reg(lw(q), sig(q, "a"));
    reg(lw(q), sig(q, "b"));
    reg(lw(q), sig(q, "p", 0));
    std::string s = fmt::format("    {} = {};\n    {} = {};\n", sig(q, "a"), sized(lw(q), 0), sig(q, "b"), sized(lw(q), 0));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (on_lane(tp, q))
        s += fmt::format("    if ({}) begin\n      {} = {};\n      {} = {};\n    end\n", act(tp.slot), sig(q, "a"),
                         mac_operand(tp, q, 0), sig(q, "b"), mac_operand(tp, q, 1));
    }
    ++e_.inv.multipliers;
    return s + fmt::format("    {} = {} * {};\n", sig(q, "p", 0), sig(q, "a"), sig(q, "b"));
  }

  // Registers between issue and write: tags for every stage, the value where it exists.
  void emit_pipeline(int q) {
    std::string valid, rest;
    const int m = u_.mac ? u_.mul_depth : 0;
    for (int s = 1; s < lane_depth_[q]; ++s) {
      reg(1, sig(q, "ok", s), true);
      reg(tb_, sig(q, "t", s), true);
      reg(ob_, sig(q, "o", s), true);
      valid += fmt::format("      {} <= {};\n", sig(q, "ok", s), sig(q, "ok", s - 1));
      rest += fmt::format("    {} <= {};\n    {} <= {};\n", sig(q, "t", s), sig(q, "t", s - 1), sig(q, "o", s), sig(q, "o", s - 1));
      if (u_.mac && s <= m) {
        reg(lw(q), sig(q, "p", s), true);
        rest += fmt::format("    {} <= {};\n", sig(q, "p", s), sig(q, "p", s - 1));
        reg(1, sig(q, "f", s), true);
        rest += fmt::format("    {} <= {};\n", sig(q, "f", s), sig(q, "f", s - 1));
        if (skips_) reg(1, sig(q, "k", s), true), rest += fmt::format("    {} <= {};\n", sig(q, "k", s), sig(q, "k", s - 1));
      } else {
        reg(value_width(q, s), sig(q, "v", s), true);
        const bool sum = u_.mac && s == m + 1;
        const std::string from = e_.narrow(sum ? sig(q, "sum") : sig(q, "v", s - 1), value_width(q, s - 1), false,
                                           value_width(q, s));
        rest += fmt::format("    {} <= {};\n", sig(q, "v", s), from);
      }
    }
    if (lane_depth_[q] <= 1) return;
    e_.text.line(fmt::format("  always @(posedge clk) begin\n    if (rst) begin\n{}    end else begin\n{}    end\n{}  end",
                             reset_lines(q), valid, rest));
  }

  // Bits of the value at stage st of lane q: as wide as the widest task still in flight
  // there (a deep narrow task behind a shallow wide one needs only its own width).
  int value_width(int q, int st) const {
    if (st == 0 || (u_.mac && st <= u_.mul_depth)) return lw(q);
    int w = 1;
    for (int t : u_.tasks)
      if (on_lane(task(t), q) && task(t).depth - 1 >= st) w = std::max(w, datapath_width(task(t).out_type));
    return w;
  }

  std::string reset_lines(int q) const {
    std::string s;
    for (int st = 1; st < lane_depth_[q]; ++st) s += fmt::format("      {} <= 1'b0;\n", sig(q, "ok", st));
    return s;
  }

  // The outputs lane q of task tp writes (its tag can take no other value).
  std::vector<int64_t> lane_outputs(const TaskPlan& tp, int q) const {
    std::set<int64_t> outs;
    for (const Item& it : tp.items[q])
      if (it.id >= 0) outs.insert(it.out);
    return {outs.begin(), outs.end()};
  }

  void emit_accumulate(int q) {
    const int m = u_.mul_depth;
    reg(lw(q), sig(q, "acc"));
    reg(lw(q), sig(q, "sum"));
    std::string s = fmt::format("  always @* begin\n    {} = {};\n    case ({})\n", sig(q, "acc"), sized(lw(q), 0), sig(q, "t", m));
    for (int t : u_.tasks) {
      const TaskPlan& tp = task(t);
      if (!on_lane(tp, q)) continue;
      if (tp.split > 1) {  // the lane's partial sum
        s += fmt::format("      {}: {} = {};\n", sized(tb_, static_cast<uint64_t>(tp.slot)), sig(q, "acc"), sig(q, "pacc"));
        continue;
      }
      s += fmt::format("      {}: begin\n        case ({})\n", sized(tb_, static_cast<uint64_t>(tp.slot)), sig(q, "o", m));
      for (int64_t o : lane_outputs(tp, q))
        s += fmt::format("          {}: {} = {};\n", sized(ob_, static_cast<uint64_t>(o)), sig(q, "acc"),
                         resize(e_.element(tp.out_buffer, tp.out_type, o), datapath_width(tp.out_type), false, lw(q)));
      s += "          default: ;\n        endcase\n      end\n";
    }
    s += fmt::format("      default: ;\n    endcase\n    if ({}) {} = {};\n", sig(q, "f", m), sig(q, "acc"), sized(lw(q), 0));
    const std::string sum = fmt::format("{} + {}", sig(q, "acc"), sig(q, "p", m));
    s += skips_ ? fmt::format("    {} = {} ? {} : {};\n", sig(q, "sum"), sig(q, "k", m), sig(q, "acc"), sum)
                : fmt::format("    {} = {};\n", sig(q, "sum"), sum);
    ++e_.inv.adders;
    e_.text.line(s + "  end");
  }

  void emit_writes(int t, int q) {
    const TaskPlan& tp = task(t);
    const int st = tp.depth - 1;
    const bool from_sum = u_.mac && st == u_.mul_depth;
    const std::string stage_value = from_sum ? sig(q, "sum") : sig(q, "v", st);
    if (tp.split > 1) {
      pacc_writes_[q] += fmt::format("    if ({} && {} == {}) {} <= {};  // {} partial\n", sig(q, "ok", st), sig(q, "t", st),
                                     sized(tb_, static_cast<uint64_t>(tp.slot)), sig(q, "pacc"),
                                     resize(stage_value, value_width(q, st), false, lw(q)), tp.name);
      return;
    }
    const std::string value = resize(stage_value, value_width(q, st), false, datapath_width(tp.out_type));
    std::string s = fmt::format("    if ({} && {} == {}) begin  // {} lane {}\n      case ({})\n", sig(q, "ok", st), sig(q, "t", st),
                                sized(tb_, static_cast<uint64_t>(tp.slot)), tp.name, q, sig(q, "o", st));
    for (int64_t o : lane_outputs(tp, q))
      s += fmt::format("        {}: {} <= {};\n", sized(ob_, static_cast<uint64_t>(o)), e_.element_lhs(tp.out_buffer, o),
                       Emitter::to_storage(value, tp.out_type));
    e_.writes[e_.plan.buffers[tp.out_buffer].track] += s + "        default: ;\n      endcase\n    end\n";
  }

  // dynamic-slice: the start indices clamped so the slice fits (HLO: a negative start is
  // 0, so is a u64 with its top bit set, as the interpreter reads it as int64), each
  // scaled by its stride through a small table (no multiplier), summed once per task.
  static int dyn_bits(const TaskPlan& tp) { return bits_for(tp.dyn_elements - 1); }
  std::string base_name(const TaskPlan& tp, int q) const { return fmt::format("{}_q{}_base", tp.name, q); }
  std::string offset_name(const TaskPlan& tp) const { return tp.name + "_offset"; }

  void emit_offset(const TaskPlan& tp) {
    const int ib = dyn_bits(tp);
    reg(ib, offset_name(tp));
    std::string s = "  always @* begin\n", sum;
    for (size_t d = 0; d < tp.dyn.size(); ++d) {
      const DynStart& ds = tp.dyn[d];
      if (ds.max == 0) continue;  // the slice spans the dimension: its start is always 0
      const int w = datapath_width(ds.type);
      const std::string v = e_.element(ds.buffer, ds.type, 0), start = fmt::format("{}_start{}", tp.name, d),
                        part = fmt::format("{}_part{}", tp.name, d);
      const bool sgn = ir::is_signed_integral(ds.type);
      const bool can_exceed = w >= 63 || ds.max < (int64_t{1} << (sgn ? w - 1 : w)) - 1;
      std::string clamp = can_exceed ? fmt::format("({} > {}) ? {} : {}", v, sized(w, static_cast<uint64_t>(ds.max)),
                                                   sized(w, static_cast<uint64_t>(ds.max)), v)
                                     : v;
      if (sgn || w == 64) clamp = fmt::format("{}[{}] ? {} : {}", v, w - 1, sized(w, 0), can_exceed ? "(" + clamp + ")" : clamp);
      reg(w, start);
      reg(ib, part);
      s += fmt::format("    {} = {};\n    {} = {};\n    case ({})\n", start, clamp, part, sized(ib, 0), start);
      for (int64_t k = 1; k <= ds.max; ++k)
        s += fmt::format("      {}: {} = {};\n", sized(w, static_cast<uint64_t>(k)), part, sized(ib, static_cast<uint64_t>(k * ds.stride)));
      s += "      default: ;\n    endcase\n";
      if (!sum.empty()) ++e_.inv.control_adders;
      sum += (sum.empty() ? "" : " + ") + part;
    }
    e_.text.line(s + fmt::format("    {} = {};\n  end", offset_name(tp), sum.empty() ? sized(ib, 0) : sum));
  }

  std::string dynamic_read(const TaskPlan& tp, int q) {
    const std::string index = fmt::format("{}_q{}_index", tp.name, q);
    reg(dyn_bits(tp), index);
    ++e_.inv.control_adders;
    std::string s = fmt::format("    {} = {} + {};\n    case ({})\n", index, base_name(tp, q), offset_name(tp), index);
    const Leaf& l = tp.leaves[0];
    const int buffer = l.sources[0].buffer;
    for (int64_t k = 0; k < tp.dyn_elements; ++k)
      s += fmt::format("      {}: {} = {};\n", sized(dyn_bits(tp), static_cast<uint64_t>(k)), leaf_name(tp, q, 0),
                       e_.element(buffer, l.type, k));
    return s + "      default: ;\n    endcase\n";
  }

  // The partial sums of one output joined pairwise: level l joins chunks c and c + 2^(l-1)
  // for c a multiple of 2^l; an empty chunk (past the last term) leaves its partner as is.
  void emit_tree(const TaskPlan& tp) {
    const int w = datapath_width(tp.out_type), levels = hwmodel_ceil_log2(tp.split);
    const int cw = bits_for(e_.plan.cycles);
    Expr x;
    x.add({Node::kLeaf, {}, tp.out_type, {}, 0});
    x.add({Node::kLeaf, {}, tp.out_type, {}, 1});
    const int root = x.add({Node::kOp, tp.combiner, tp.out_type, {0, 1}});
    for (int64_t o = 0; o < tp.outputs; ++o)
      for (int level = 1; level <= levels; ++level) {
        const int step = 1 << (level - 1);
        const std::string when = fmt::format("running && cyc == {}", sized(cw, static_cast<uint64_t>(tp.start + tp.tree_cycle(level))));
        for (int c = 0; c < tp.split; c += 2 * step) {
          const int ql = static_cast<int>(o * tp.split + c), qr = ql + step;
          if (c * tp.chunk >= tp.terms) break;  // empty chunks from here on
          const bool partner = c + step < tp.split && (c + step) * tp.chunk < tp.terms;
          if (!partner && level < levels) continue;
          std::string value = e_.narrow(sig(ql, "pacc"), lw(ql), false, w);
          if (partner) {
            value = fmt::format("{}_tree_o{}_l{}_c{}", tp.name, o, level, c);
            reg(w, value);
            e_.text.line("  always @* begin\n" +
                         op_statement(e_, x, root, value, {e_.narrow(sig(ql, "pacc"), lw(ql), false, w),
                                                           e_.narrow(sig(qr, "pacc"), lw(qr), false, w)}) + "  end");
          }
          if (level == levels)
            e_.writes[e_.plan.buffers[tp.out_buffer].track] += fmt::format(
                "    if ({}) {} <= {};  // {} tree root\n", when, e_.element_lhs(tp.out_buffer, o), Emitter::to_storage(value, tp.out_type), tp.name);
          else if (partner)
            pacc_writes_[ql] += fmt::format("    if ({}) {} <= {};\n", when, sig(ql, "pacc"), resize(value, w, false, lw(ql)));
        }
      }
  }
  static int hwmodel_ceil_log2(int64_t n) {
    int k = 0;
    while ((int64_t{1} << k) < n) ++k;
    return k;
  }

  Emitter& e_;
  const Unit& u_;
  int id_;
  int tb_ = 1, ob_ = 1, jb_ = 1;
  bool accumulates_ = false, split_ = false;
  bool skips_ = false, seeds_ = false;  // for the lane being emitted
  std::vector<int> lane_width_, lane_depth_;
  std::vector<std::string> pacc_writes_;  // per lane: the clocked block of its partial register
};

}  // namespace

void emit_units(Emitter& e) {
  for (size_t u = 0; u < e.plan.units.size(); ++u) UnitEmitter(e, static_cast<int>(u)).run();
}

}  // namespace hlsgym::rtl::verilog_detail
