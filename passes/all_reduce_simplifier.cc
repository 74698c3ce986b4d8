// all-reduce-simp (XLA AllReduceSimplifier):
//  - all-gather / reduce-scatter whose result has the operand's shape -> the operand
//    (reduce-scatter only for one-member groups, where it reduces nothing);
//  - an all-reduce (cross-replica: no channel_id, array-shaped) over groups of one member
//    -> its operand;
//  - an all-reduce of a replicated value (the same on every replica: computed from
//    constants, iota, partition-id and entry parameters marked parameter_replication=true)
//    -> the operand for min/max/and/or (over any groups, replica_groups={} included), and
//    operand * g for add over listed groups of size g (a module has no replica count, so
//    the size of replica_groups={} is unknown).
// The interpreter evaluates a collective as one participant whose g group members hold
// the same value, combining g copies in order: x * g equals that sum for integers, and for
// floats only while g <= 3 (2x is exact and 2x + x rounds like 3x), so float adds over
// bigger groups are left alone. For add, groups must be listed (replica_groups) and of equal size;
// collectives with a channel_id are side effects and are never touched.
#include <string>

#include "passes/all_reduce_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

// The opcode of a to_apply that is exactly `p0 op p1` (or `p1 op p0`), else nullopt.
std::optional<Opcode> reduction_op(const ir::Module& m, InstrId i) {
  if (m.called(i).size() != 1) return std::nullopt;
  const ir::Computation& c = m.computation(m.called(i)[0]);
  if (c.params.size() != 2 || c.root == ir::kNoId || m.instruction_count(m.called(i)[0]) != 3) return std::nullopt;
  const InstrId r = c.root;
  if (m.operands(r).size() != 2) return std::nullopt;
  const InstrId a = m.operand(r, 0), b = m.operand(r, 1);
  if (!((a == c.params[0] && b == c.params[1]) || (a == c.params[1] && b == c.params[0]))) return std::nullopt;
  return m.opcode(r);
}

// The replacement of a cross-replica all-reduce, or kNoId.
InstrId simplified_all_reduce(ir::Module& m, InstrId i, ReplicationAnalysis& replicated) {
  if (m.operands(i).size() != 1 || !m.shape(i).is_array() || !m.shape(i).is_static()) return ir::kNoId;
  if (!m.shape(i).compatible(m.shape(m.operand(i, 0)))) return ir::kNoId;
  const auto g = uniform_group_size(m, i);  // nullopt: not listed (replica_groups={}: all replicas)
  const InstrId x = m.operand(i, 0);
  if (g == 1) return x;
  if (!replicated.is_replicated(x)) return ir::kNoId;
  const auto op = reduction_op(m, i);
  if (!op) return ir::kNoId;
  const ElementType t = m.shape(i).element_type();
  switch (*op) {
    // Equal values combined: x, whatever the (even unknown) group size.
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kAnd: case Opcode::kOr: return x;
    case Opcode::kAdd: {
      if (!g) return ir::kNoId;  // hlsgym's modules carry no replica count
      if (!ir::is_integral(t) && !(ir::is_floating(t) && *g <= 3)) return ir::kNoId;
      expand::Builder b(m, m.computation_of(i));
      return b.binary(Opcode::kMultiply, x, b.splat(t, static_cast<double>(*g), m.shape(x).dims()));
    }
    default: return ir::kNoId;
  }
}

class AllReduceSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "all-reduce-simp"; }
  std::string_view description() const override {
    return "removes all-reduces over one-member groups or of replicated values, and no-op all-gathers";
  }
  bool run(ir::Module& m) override {
    const auto found = expand::find_all(m, {Opcode::kAllReduce, Opcode::kAllGather, Opcode::kReduceScatter});
    if (found.empty()) return false;
    ReplicationAnalysis replicated(m);
    bool changed = false;
    for (InstrId i : found) {
      if (!m.is_live(i) || has_side_effect(m, i) || m.attrs(i).find_opaque("channel_id")) continue;
      InstrId replacement = ir::kNoId;
      if (m.opcode(i) == Opcode::kAllReduce) {
        replacement = simplified_all_reduce(m, i, replicated);
      } else if (m.operands(i).size() == 1 && m.shape(i).compatible(m.shape(m.operand(i, 0))) &&
                 (m.opcode(i) == Opcode::kAllGather || uniform_group_size(m, i) == 1)) {
        replacement = m.operand(i, 0);
      }
      if (replacement == ir::kNoId) continue;
      expand::replace_with(m, i, replacement);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_all_reduce_simplifier() { return std::make_unique<AllReduceSimplifier>(); }

}  // namespace hlsgym::passes
