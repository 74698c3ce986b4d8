// The HLS unroll directive as a pair of passes the environment can apply (AutoPhase's
// trade of area for cycles). Every tensor op is a pipelined loop at II 1 per lane; its
// `lanes` hint (ir/frontend_attributes.h) unrolls that loop and partitions its arrays
// cyclically, one bank per lane. The passes only set that hint, so what the module
// computes is unchanged; the hardware estimate sees more lanes (fewer cycles, more area).
//
//   unroll-x2     doubles the lanes of the entry op with the most element work (XLA's
//                 flops, a static proxy that needs no target) whose doubled lanes still
//                 have work each: at most its independent element operations (outputs,
//                 times the terms each output sums). Ties: the earlier op.
//   unroll-halve  halves the lanes of the hinted entry op with the least element work
//                 (ties: the later op), so it undoes the last unroll-x2 exactly on a
//                 design without hints of its own.
// Both report no change when no op qualifies. Lanes back at 1 drop the hint, so an undo
// restores the instruction exactly (and its state hash).
#include <optional>
#include <vector>

#include "ir/cost_analysis.h"
#include "ir/frontend_attributes.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// Element operations of `i` that can run at once: hwmodel's loop forms give each lane
// whole outputs, or split an output's terms over lanes when there are more lanes than
// outputs (hwmodel/timing.h), so outputs times terms.
int64_t parallel_element_ops(const ir::Module& m, InstrId i) {
  const ir::Shape& out = m.shape(i);
  if (!out.is_array()) return 0;
  const ir::Attributes& a = m.attrs(i);
  int64_t terms = 1;
  switch (m.opcode(i)) {
    case Opcode::kDot:
      if (a.dot_dims)
        for (int64_t d : a.dot_dims->lhs_contracting) terms *= m.shape(m.operand(i, 0)).dim(d);
      break;
    case Opcode::kReduce: return m.shape(m.operand(i, 0)).element_count();
    case Opcode::kReduceWindow:
      if (a.window)
        for (const auto& w : *a.window) terms *= w.size;
      break;
    case Opcode::kConvolution: return static_cast<int64_t>(ir::instruction_cost(m, i).flops / 2);  // one MAC = 2 flops
    default: break;
  }
  return out.element_count() * terms;
}

struct Candidate {
  InstrId instr;
  double work;  // flops
  int lanes;    // 1 when not hinted
};

// Entry ops that do element arithmetic, in instruction order.
std::vector<Candidate> candidates(const ir::Module& m) {
  std::vector<Candidate> out;
  for (InstrId i : m.instructions(m.entry())) {
    const double work = ir::instruction_cost(m, i).flops;
    if (work > 0 && m.shape(i).is_array()) out.push_back({i, work, ir::lanes_hint(m, i).value_or(1)});
  }
  return out;
}

class UnrollX2 final : public Pass {
 public:
  std::string_view name() const override { return "unroll-x2"; }
  std::string_view description() const override {
    return "HLS directive: doubles the lanes (unroll factor, cyclic array partitions) of the entry op with the most "
           "element work that has work for them; hardware only, the module computes the same";
  }
  bool run(ir::Module& m) override {
    std::optional<Candidate> best;
    for (const Candidate& c : candidates(m)) {
      const int64_t doubled = 2 * static_cast<int64_t>(c.lanes);
      if (doubled > parallel_element_ops(m, c.instr) || doubled > ir::kMaxLanes) continue;
      if (!best || c.work > best->work) best = c;
    }
    if (!best) return false;
    ir::set_lanes_hint(m, best->instr, 2 * best->lanes);
    return true;
  }
};

class UnrollHalve final : public Pass {
 public:
  std::string_view name() const override { return "unroll-halve"; }
  std::string_view description() const override {
    return "HLS directive: halves the lanes of the hinted entry op with the least element work (undoes unroll-x2)";
  }
  bool run(ir::Module& m) override {
    std::optional<Candidate> best;
    for (const Candidate& c : candidates(m))
      if (c.lanes > 1 && (!best || c.work <= best->work)) best = c;
    if (!best) return false;
    ir::set_lanes_hint(m, best->instr, best->lanes / 2);
    return true;
  }
};

}  // namespace

PassPtr make_unroll_x2() { return std::make_unique<UnrollX2>(); }
PassPtr make_unroll_halve() { return std::make_unique<UnrollHalve>(); }

}  // namespace hlsgym::passes
