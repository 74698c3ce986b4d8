#include "hwmodel/estimate.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

#include "hwmodel/control_flow.h"
#include "hwmodel/microarch.h"
#include "hwmodel/microarch_control.h"

#include "ir/error.h"

namespace hlsgym::hwmodel {
namespace {

// Resource classes and limits: one per unit class on an FPGA, one "core" on a CPU.
struct Resources {
  std::vector<uint16_t> of_unit;
  std::vector<int> limits;
  std::vector<std::string> names;
};

Resources resources_for(const Target& t, const EstimateOptions& o) {
  Resources r;
  for (const auto& [name, n] : o.unit_limits) {
    const bool known = t.is_cpu() ? name == "core" : unit_class_from_name(name).has_value();
    if (!known)
      throw Error(fmt::format("unknown unit class '{}' for target {} (expected {})", name, t.name,
                              t.is_cpu() ? "core" : "int_alu, int_mul, int_div, fp_alu, fp_add, fp_mul, fp_div, "
                                                    "fp_special, int_mac, fp_mac, mem"));
    if (n < 1) throw Error(fmt::format("unit limit {}={} must be at least 1", name, n));
  }
  if (t.is_cpu()) {
    r.of_unit.assign(kUnitClassCount, 0);
    const auto it = o.unit_limits.find("core");
    r.limits = {it != o.unit_limits.end() ? it->second : t.cores};
    r.names = {"core"};
    return r;
  }
  for (int c = 0; c < kUnitClassCount; ++c) {
    const std::string name(unit_class_name(static_cast<UnitClass>(c)));
    const auto it = o.unit_limits.find(name);
    r.of_unit.push_back(static_cast<uint16_t>(c));
    r.limits.push_back(it != o.unit_limits.end() ? it->second : t.units[c].instances);
    r.names.push_back(name);
  }
  return r;
}

LoweringOptions lowering_options(const Target& t, const EstimateOptions& o) {
  return {o.lanes > 0 ? o.lanes : t.default_lanes, o.lenient};
}

// Loop bodies and branches: lowered, scheduled and bound on their own, once each.
class SubCosting {
 public:
  SubCosting(const ir::Module& m, const Target& t, const EstimateOptions& o)
      : m_(m), t_(t), o_(o), lo_(lowering_options(t, o)), cache_(m, t) {
    lo_.caller_holds_parameters = true;  // a loop's state, a conditional's operand
  }

  LoweringCache& cache() { return cache_; }

  const SubCost& operator()(ir::CompId c) {
    if (auto it = memo_.find(c); it != memo_.end()) return it->second;
    const SubCoster self = [this](ir::CompId k) -> const SubCost& { return (*this)(k); };
    TaskGraph g = lower(m_, c, t_, lo_, self, &cache_);
    ScheduleProblem p = make_target_problem(g, t_, o_);
    Schedule s = run_scheduler(o_.scheduler, p, o_.exact_node_limit);
    std::shared_ptr<LoopPipeline> pipe = pipeline_if_faster(c, g, p, s);
    const bool built = pipe && pipe->built;
    const ModuloBinding modulo{built ? pipe->schedule.ii : 0, built ? std::span<const int>(pipe->schedule.instance)
                                                                   : std::span<const int>()};
    Binding b = bind(g, p, s, t_, built ? &modulo : nullptr);
    SubCost out;
    out.cycles = s.length;
    out.pipeline_ii = built ? pipe->schedule.ii : 0;
    for (const Task& k : g.tasks) {
      out.element_ops += k.element_ops;
      out.compute_pj += k.compute_pj;
      out.onchip_pj += k.onchip_pj;
      out.dram_pj += k.dram_pj;
    }
    out.area = b.total();
    out.area += g.own_datapaths;
    out.peak_bytes = b.peak_live_bytes;
    out.uncosted = g.uncosted;
    out.unknown_trip_counts = g.unknown_trip_counts;
    // without a timing model the entry's estimate says so once (merge keeps it unmodeled)
    if (t_.is_fpga() && t_.timing.present()) out.clock = estimate_clock(m_, g, b, s, t_);
    if (o_.keep_details)  // the last use of g, p, s, b
      details_[c] = std::make_shared<const EstimateDetails>(
          EstimateDetails{std::move(g), std::move(p), std::move(s), std::move(b), {}, std::move(pipe)});
    return memo_.emplace(c, out).first->second;
  }

 private:
  const ir::Module& m_;
  const Target& t_;
  const EstimateOptions& o_;
  LoweringOptions lo_;
  LoweringCache cache_;
  std::unordered_map<ir::CompId, SubCost> memo_;
  std::map<ir::CompId, std::shared_ptr<const EstimateDetails>> details_;  // with keep_details
  std::optional<std::unordered_map<ir::CompId, ir::InstrId>> loop_of_body_;  // see loop_of_body
  std::set<ir::CompId> unbuilt_;  // conditions of pipelined loops (a trip counter instead)

  // The while loop whose body `c` is, when that is its only use (kNoId otherwise).
  ir::InstrId loop_of_body(ir::CompId c) {
    if (!loop_of_body_) {
      std::unordered_map<ir::CompId, int> uses;
      std::unordered_map<ir::CompId, ir::InstrId> loops;
      for (ir::CompId k : m_.computation_post_order())
        for (ir::InstrId i : m_.instructions(k)) {
          const auto& called = m_.called(i);
          for (ir::CompId x : called) ++uses[x];
          if (m_.opcode(i) == ir::Opcode::kWhile && called.size() == 2) loops[called[1]] = i;
        }
      loop_of_body_.emplace();
      for (const auto& [body, w] : loops)
        if (uses[body] == 1) loop_of_body_->emplace(body, w);
    }
    const auto it = loop_of_body_->find(c);
    return it == loop_of_body_->end() ? ir::kNoId : it->second;
  }

  // FPGA: body `c` of a counted loop as a pipeline (loop_pipelining.h) when legal and
  // faster than iterations one after another; then `s` becomes its modulo schedule and the
  // tasks writing state leaves in place own no buffer. Null when `c` is no loop's body.
  std::shared_ptr<LoopPipeline> pipeline_if_faster(ir::CompId c, TaskGraph& g, const ScheduleProblem& p, Schedule& s) {
    if (!t_.is_fpga()) return nullptr;
    const ir::InstrId w = loop_of_body(c);
    if (w == ir::kNoId) return nullptr;
    auto lp = std::make_shared<LoopPipeline>();
    const auto trips = while_trip_count(m_, w);
    if (!o_.pipeline_loops || pipeline_disabled(m_, w)) lp->why_not = "pipelining turned off (directive pipeline: off)";
    else if (!trips) lp->why_not = "its trip count is not statically known";
    else if (*trips < 1) lp->why_not = "it runs no iteration";
    if (!lp->why_not.empty()) return lp;
    *lp = pipeline_loop(m_, w, g, p);
    if (!lp->built) return lp;
    const int64_t cond = (*this)(m_.called(w)[0]).cycles;
    const int64_t sequential = while_loop(m_, w, t_, *trips, cond, s.length).latency();
    const int64_t pipelined = while_loop(m_, w, t_, *trips, cond, lp->schedule.length, lp->schedule.ii).latency();
    if (pipelined >= sequential) {
      lp->built = false;
      lp->why_not = fmt::format("no gain: {} cycles pipelined at II {}, {} one iteration after another", pipelined,
                                lp->schedule.ii, sequential);
      return lp;
    }
    s = Schedule{};
    s.start = lp->schedule.start;
    s.length = lp->schedule.length;
    for (int32_t writer : lp->leaf_writer)
      if (writer >= 0) g.tasks[static_cast<size_t>(writer)].footprint = 0;  // it writes the state memory
    unbuilt_.insert(m_.called(w)[0]);
    return lp;
  }

 public:
  // The slowest path of every computation costed so far, folded into `c`.
  void merge_clocks(ClockEstimate& c) const {
    for (const auto& [comp, cost] : memo_)
      if (!unbuilt_.count(comp)) c.merge(cost.clock);
  }
  // Every computation costed so far with its details (keep_details), handed over once.
  std::map<ir::CompId, std::shared_ptr<const EstimateDetails>> take_details() { return std::move(details_); }
};

void check_fit(const ir::Module& m, const Target& t, const EstimateOptions& o, Estimate& e) {
  // Every target's buffers must fit its largest memory (the FPGA's DRAM too, not only its area).
  if (e.memory_bytes > t.dram().capacity_bytes)
    e.fit_problem = fmt::format("needs {} bytes of memory, the target has {}", e.memory_bytes, t.dram().capacity_bytes);
  if (t.is_fpga()) {
    const std::pair<const char*, std::pair<double, double>> rows[] = {
        {"DSP", {e.area.dsp, t.resources.dsp}}, {"LUT", {e.area.lut, t.resources.lut}},
        {"FF", {e.area.ff, t.resources.ff}}, {"BRAM18K", {e.area.bram18k, t.resources.bram18k}}};
    for (const auto& [name, need] : rows)
      if (need.first > need.second) {
        e.fit_problem += fmt::format("{}needs {:.0f} {} of {:.0f} ({:.0f}%)", e.fit_problem.empty() ? "" : ", ",
                                     need.first, name, need.second, 100 * need.first / need.second);
      }
    // Where a LUT and a flip-flop share a cell, each fitting alone is not enough (stencil_3pt:
    // 3,529 LUT4 and 2,816 FF of 5,280 each, and nextpnr had 6,051 cells to place).
    const double cells = t.resources.cells_needed(e.area.lut, e.area.ff);
    if (t.resources.logic_cells > 0 && cells > t.resources.logic_cells)
      e.fit_problem += fmt::format("{}needs {:.0f} logic cells of {:.0f} ({:.0f}%; LUT4 {:.0f} + FF {:.0f}: a cell holds one of "
                                   "each, paired only when the LUT drives nothing but that flip-flop)",
                                   e.fit_problem.empty() ? "" : ", ", cells, t.resources.logic_cells,
                                   100 * cells / t.resources.logic_cells, e.area.lut, e.area.ff);
  }
  e.fits = e.fit_problem.empty();
  if (!e.fits && !o.lenient)
    throw Error(fmt::format("design '{}' does not fit target {}: {}; use fewer lanes (--lanes) or unit instances "
                            "(--units), or --lenient to report it anyway",
                            m.name(), t.name, e.fit_problem),
                {m.source_file()});
}

}  // namespace

ScheduleProblem make_target_problem(const TaskGraph& g, const Target& t, const EstimateOptions& o) {
  Resources r = resources_for(t, o);
  return make_problem(g, r.of_unit, std::move(r.limits), std::move(r.names));
}

namespace {
TaskGraph lower_entry_with(const ir::Module& m, const Target& t, const EstimateOptions& o, SubCosting& sub) {
  const SubCoster coster = [&sub](ir::CompId c) -> const SubCost& { return sub(c); };
  return lower(m, m.entry(), t, lowering_options(t, o), coster, &sub.cache());
}
}  // namespace

TaskGraph lower_entry(const ir::Module& m, const Target& t, const EstimateOptions& o) {
  SubCosting sub(m, t, o);
  return lower_entry_with(m, t, o, sub);
}

namespace {

void summarize(const TaskGraph& g, const Schedule& s, const Binding& b, Estimate& e) {
  e.tasks = g.size();
  int64_t longest_loop = 0;
  for (const Task& k : g.tasks) {
    e.element_ops += k.element_ops;
    e.energy.compute_pj += k.compute_pj;
    e.energy.onchip_pj += k.onchip_pj;
    e.energy.dram_pj += k.dram_pj;
    if (k.unit == kNoUnit) longest_loop = std::max(longest_loop, k.latency);
  }
  e.cycles = s.length;
  e.ii = e.cycles == 0 ? 0 : std::clamp<int64_t>(std::max(b.dataflow_ii, longest_loop), 1, e.cycles);
  e.memory_bytes = b.peak_live_bytes;
  e.schedule_optimal = s.optimal;
  e.schedule_hit_limit = s.hit_limit;
  e.schedule_nodes = s.nodes;
  for (size_t op = 0; op < g.uncosted.size(); ++op)
    if (g.uncosted[op] > 0) e.uncosted_ops.emplace_back(std::string(ir::name(static_cast<ir::Opcode>(op))), g.uncosted[op]);
  e.unknown_trip_counts = g.unknown_trip_counts;
}

// The control logic of the microarchitecture planned from `e` (which carries details),
// added to its area; when the RTL cannot plan the design, not added and said why.
void count_control(const ir::Module& m, const Target& t, Estimate& e) {
  if (e.unknown_trip_counts > 0 || !e.uncosted_ops.empty()) {  // lenient: no plan of a guess
    e.control_unmodeled = "control logic not counted: the estimate costs unknown ops or loops (lenient)";
    return;
  }
  ControlInventory inv;
  try {
    inv = control_inventory(make_plan(m, t, e, "estimate"));
  } catch (const Error& x) {
    e.control_unmodeled = fmt::format("control logic not counted: {}", x.what());
    return;
  }
  e.control = control_area(inv, t.control);
  e.area += e.control;
  if (inv.dividers > 0)
    e.control_unmodeled = fmt::format("control logic without its {} index divider(s) by a constant that is not a power "
                                      "of two (not calibrated)", inv.dividers);
}

}  // namespace

Estimate estimate(const ir::Module& m, const Target& t, const EstimateOptions& options) {
  if (m.entry() == ir::kNoId) throw Error("module has no entry computation", {m.source_file()});
  // The control logic is counted from the plan, which needs every computation's details.
  const bool control = t.is_fpga() && t.control.present();
  EstimateOptions o = options;
  o.keep_details |= control;
  SubCosting sub(m, t, o);
  TaskGraph g = lower_entry_with(m, t, o, sub);
  ScheduleProblem p = make_target_problem(g, t, o);
  Schedule s = run_scheduler(o.scheduler, p, o.exact_node_limit);
  Binding b = bind(g, p, s, t);
  Estimate e;
  e.target = t.name;
  e.scheduler = std::string(scheduler_name(o.scheduler));
  e.lanes = lowering_options(t, o).lanes;
  summarize(g, s, b, e);
  e.seconds = static_cast<double>(e.cycles) / (t.clock_mhz * 1e6);
  e.energy.static_pj = t.static_mw * 1e-3 * e.seconds * 1e12;
  e.energy_pj = e.energy.total();
  if (t.is_fpga()) {
    e.area = b.total();
    e.area += g.own_datapaths;
    e.bram18k = e.area.bram18k;
    e.utilization = {e.area.dsp / t.resources.dsp, e.area.lut / t.resources.lut, e.area.ff / t.resources.ff,
                     e.area.bram18k / t.resources.bram18k};
    e.clock = estimate_clock(m, g, b, s, t);
    sub.merge_clocks(e.clock);
  }
  if (o.keep_details)
    e.details = std::make_shared<const EstimateDetails>(
        EstimateDetails{std::move(g), std::move(p), std::move(s), std::move(b), sub.take_details()});
  if (control) {
    count_control(m, t, e);
    e.utilization = {e.area.dsp / t.resources.dsp, e.area.lut / t.resources.lut, e.area.ff / t.resources.ff,
                     e.area.bram18k / t.resources.bram18k};
    if (!options.keep_details) e.details.reset();
  } else if (t.is_fpga()) {
    e.control_unmodeled = "control logic not counted: the target file has no `control:` block";
  }
  if (e.clock.modeled) e.clock.place(e.area.lut + e.area.ff, t.timing);
  check_fit(m, t, o, e);
  return e;
}

}  // namespace hlsgym::hwmodel
