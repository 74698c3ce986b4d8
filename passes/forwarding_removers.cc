// Passes that delete an instruction by forwarding its operand:
//   cse_barrier_expander (XLA OptimizationBarrierExpander): opt-barrier(x) -> x.
//   sharding-remover (XLA ShardingRemover): custom-call "Sharding"(x) -> x, and the same
//     for XLA's other sharding markers "SPMDShardToFullShape" and "SPMDFullToShardShape"
//     (on one device, where their shapes agree, they are identities too).
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

template <typename Matches>
bool forward_operands(ir::Module& m, Matches matches) {
  bool changed = false;
  for (ir::CompId c : m.live_computations()) {
    for (InstrId i : m.instructions(c)) {
      if (!m.is_live(i) || !matches(m, i) || m.operands(i).size() != 1) continue;
      InstrId x = m.operand(i, 0);
      if (!m.shape(x).compatible(m.shape(i))) continue;
      replace_instruction(m, i, x);
      changed = true;
    }
  }
  return changed;
}

class OptimizationBarrierExpander final : public Pass {
 public:
  std::string_view name() const override { return "cse_barrier_expander"; }
  std::string_view description() const override {
    return "removes opt-barrier instructions (forwards their operand)";
  }
  bool run(ir::Module& m) override {
    return forward_operands(
        m, [](const ir::Module& mm, InstrId i) { return mm.opcode(i) == Opcode::kOptimizationBarrier; });
  }
};

class ShardingRemover final : public Pass {
 public:
  std::string_view name() const override { return "sharding-remover"; }
  std::string_view description() const override {
    return "removes Sharding / SPMD shape custom-calls (forwards their operand)";
  }
  bool run(ir::Module& m) override {
    return forward_operands(m, [](const ir::Module& mm, InstrId i) {
      if (mm.opcode(i) != Opcode::kCustomCall) return false;
      const std::string& t = mm.attrs(i).custom_call_target;
      return t == "Sharding" || t == "SPMDShardToFullShape" || t == "SPMDFullToShardShape";
    });
  }
};

}  // namespace

PassPtr make_cse_barrier_expander() { return std::make_unique<OptimizationBarrierExpander>(); }
PassPtr make_sharding_remover() { return std::make_unique<ShardingRemover>(); }

}  // namespace hlsgym::passes
