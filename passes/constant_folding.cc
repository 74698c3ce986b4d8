// constant_folding (XLA HloConstantFolding): an instruction whose operands are constants
// (at least one a constant, the others constants, broadcasts of constants or iotas,
// possibly inside tuples), or a call or fusion with no operands at all (XLA folds a
// fusion without parameters), is evaluated with the interpreter and replaced by a
// constant, so the folded value is exactly what ir::evaluate computes. As in XLA,
// broadcasts and iotas are not folded on their own (they would bloat constants), nor fft,
// while loops, rng, after-all, custom-calls, collectives or anything side-effecting, nor
// calls into computations that contain those (broadcasts and iotas inside a callee are
// fine, as in XLA); fusion bodies are left alone. XLA caps folds at 45M
// elements; hlsgym caps them at 1M (result or operands) and bounds the work of dots,
// convolutions and windows, because folding runs in the RL loop. Elided constants
// (`{...}`) are never folded (their values are placeholders), and results that are
// tuples or have dynamic dimensions are left as they are.
#include <deque>
#include <unordered_map>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Literal;
using ir::Opcode;

constexpr int64_t kMaxElements = int64_t{1} << 20;
constexpr int64_t kMaxWork = int64_t{1} << 25;

bool is_constant(const ir::Module& m, InstrId i) {
  return m.opcode(i) == Opcode::kConstant && m.payload(i).literal && !m.literal(i).elided() &&
         !m.literal(i).is_tuple();
}

// XLA's AnyOperandsConstant / AllOperandsConstantOrBroadcastConstant (through tuples).
bool any_operand_constant(const ir::Module& m, InstrId i) {
  for (InstrId o : m.operands(i))
    if (is_constant(m, o) || (m.opcode(o) == Opcode::kTuple && any_operand_constant(m, o))) return true;
  return false;
}
bool all_operands_foldable(const ir::Module& m, InstrId i) {
  for (InstrId o : m.operands(i)) {
    const Opcode op = m.opcode(o);
    if (op == Opcode::kTuple ? !all_operands_foldable(m, o)
                             : !(is_constant(m, o) || op == Opcode::kIota ||
                                 (op == Opcode::kBroadcast && is_constant(m, m.operand(o, 0)))))
      return false;
  }
  return true;
}

// Opcodes never folded, at the top or inside a called computation.
bool never_folded(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kIota: case Opcode::kFft: case Opcode::kWhile:
    case Opcode::kRng: case Opcode::kRngBitGenerator: case Opcode::kRngGetAndUpdateState:
    case Opcode::kAfterAll: case Opcode::kCustomCall: case Opcode::kPartitionId: case Opcode::kReplicaId:
    case Opcode::kInfeed: case Opcode::kOutfeed: case Opcode::kSend: case Opcode::kRecv:
    case Opcode::kSendDone: case Opcode::kRecvDone:
      return true;
    default:
      return ir::info(op).category == ir::OpCategory::kCollective;
  }
}

// Opcodes that stop a callee from being folded: the above, except broadcasts and iotas,
// which are refused only on their own (XLA's IsOrContainsIllegalInstr).
bool illegal_in_callee(Opcode op) { return op != Opcode::kBroadcast && op != Opcode::kIota && never_folded(op); }

// Ops that run their callees once: folding them runs everything inside.
bool runs_callee_once(Opcode op) {
  return op == Opcode::kCall || op == Opcode::kFusion || op == Opcode::kConditional;
}

int64_t array_elements(const ir::Shape& s) { return s.is_array() ? s.element_count() : 0; }

// A rough count of multiply-adds for the ops whose cost is not linear in their size.
int64_t work_of(const ir::Module& m, InstrId i) {
  const int64_t out = array_elements(m.shape(i));
  const ir::Attributes& a = m.attrs(i);
  int64_t per = 1;
  if (m.opcode(i) == Opcode::kDot && a.dot_dims) {
    for (int64_t d : a.dot_dims->lhs_contracting) per *= m.shape(m.operand(i, 0)).dim(d);
  } else if (m.opcode(i) == Opcode::kConvolution && m.operands(i).size() == 2) {
    per = array_elements(m.shape(m.operand(i, 1)));
  } else if (a.window) {
    for (const auto& w : *a.window) per *= w.size;
  }
  return out * std::max<int64_t>(per, 1);
}

class ConstantFolding final : public Pass {
 public:
  std::string_view name() const override { return "constant_folding"; }
  std::string_view description() const override {
    return "evaluates instructions whose operands are all constants and replaces them by constants";
  }
  bool run(ir::Module& m) override {
    callees_.clear();
    std::vector<bool> fusion_body(m.computation_slots(), false);
    for (CompId c : m.live_computations())
      for (InstrId i : m.computation(c).order)
        if (m.is_live(i) && m.opcode(i) == Opcode::kFusion)
          for (CompId k : m.called(i)) fusion_body[k] = true;
    bool changed = false;
    for (CompId c : m.live_computations()) {
      if (fusion_body[c] || !has_candidate(m, c)) continue;  // the common, cheap case
      for (InstrId i : control_flow::local_post_order(m, c)) {
        if (!m.is_live(i) || !candidate(m, i)) continue;
        std::optional<Literal> value = fold(m, i);
        if (!value) continue;
        const InstrId k = m.add_constant(c, std::move(*value));
        m.mutable_payload(k).shape = m.shape(i);  // keeps the layout
        replace_instruction(m, i, k);
        changed = true;
      }
    }
    return changed;
  }

 private:
  bool has_candidate(const ir::Module& m, CompId c) {
    for (InstrId i : m.computation(c).order)
      if (m.is_live(i) && candidate(m, i)) return true;
    return false;
  }

  bool candidate(const ir::Module& m, InstrId i) {
    const Opcode op = m.opcode(i);
    if (op == Opcode::kParameter || op == Opcode::kConstant || op == Opcode::kTuple || never_folded(op))
      return false;
    if (m.operands(i).empty() ? !runs_callee_once(op) : !any_operand_constant(m, i) || !all_operands_foldable(m, i))
      return false;
    const ir::Shape& s = m.shape(i);
    if (!s.is_array() || !s.is_static()) return false;
    if (op == Opcode::kPad && m.opcode(m.operand(i, 0)) == Opcode::kBroadcast) return false;  // as XLA
    int64_t in = 0;
    for (InstrId o : m.operands(i)) in += array_elements(m.shape(o));
    if (std::max(s.element_count(), in) > kMaxElements || work_of(m, i) > kMaxWork) return false;
    int64_t callee_work = 0;
    for (CompId k : m.called(i)) {
      const Callee& info = callee(m, k);
      if (!info.foldable) return false;
      callee_work += info.work;
    }
    if (runs_callee_once(op) && callee_work > kMaxWork) return false;
    return !has_side_effect(m, i);
  }

  // XLA folds a call/reduce/map... only if no instruction of the callee is illegal there.
  // `work`: what running the callee once costs (elements produced and multiply-adds, its
  // own callees' included); too big (or too big an instruction) makes it not foldable.
  struct Callee {
    bool foldable = false;
    int64_t work = 0;
  };
  const Callee& callee(const ir::Module& m, CompId c) {
    if (auto it = callees_.find(c); it != callees_.end()) return it->second;
    callees_[c] = Callee{};  // guards against (invalid) recursion
    Callee info{true, 0};
    for (InstrId i : m.computation(c).order) {
      if (!m.is_live(i)) continue;
      if (illegal_in_callee(m.opcode(i)) || control_flow::is_elided_constant(m, i) ||
          array_elements(m.shape(i)) > kMaxElements)
        info.foldable = false;
      info.work += work_of(m, i);
      for (CompId k : m.called(i)) {
        const Callee& inner = callee(m, k);
        info.foldable = info.foldable && inner.foldable;
        info.work += inner.work;
      }
      if (!info.foldable || info.work > kMaxWork) {
        info.foldable = false;
        break;
      }
    }
    return callees_[c] = info;
  }

  // The operands' values (broadcasts, iotas and tuples evaluated), then the instruction's.
  std::optional<Literal> fold(const ir::Module& m, InstrId i) {
    std::deque<Literal> store;
    std::vector<const Literal*> ops;
    for (InstrId o : m.operands(i)) {
      const Literal* v = materialize(m, o, store);
      if (!v) return std::nullopt;
      ops.push_back(v);
    }
    return control_flow::evaluate_instruction(m, i, ops);
  }

  const Literal* materialize(const ir::Module& m, InstrId o, std::deque<Literal>& store) {
    if (is_constant(m, o)) return &m.literal(o);
    std::vector<const Literal*> ops;
    for (InstrId x : m.operands(o)) {
      const Literal* v = materialize(m, x, store);
      if (!v) return nullptr;
      ops.push_back(v);
    }
    std::optional<Literal> v = control_flow::evaluate_instruction(m, o, ops);
    if (!v) return nullptr;
    store.push_back(std::move(*v));
    return &store.back();
  }

  std::unordered_map<CompId, Callee> callees_;
};

}  // namespace

PassPtr make_constant_folding() { return std::make_unique<ConstantFolding>(); }

}  // namespace hlsgym::passes
