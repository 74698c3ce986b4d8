// cse (XLA HloCSE, layout-insensitive): an instruction identical to an earlier one —
// same opcode, operands (in either order for a commutative binary op, as XLA's
// IdenticalIgnoringCommutativeOperandOrder), shape, interpreted attributes, called
// computations (equal by structure, as XLA compares them) and, for constants, value — is
// replaced by it. Metadata is ignored, as in XLA; side-effecting instructions and
// parameters are never merged.
#include <algorithm>
#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_util.h"
#include "passes/structural_equality.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

// A binary op whose operands may be swapped (add, multiply, and, or, xor, min, max, ...).
bool commutative_binary(const ir::Module& m, InstrId i) {
  return ir::info(m.opcode(i)).commutative && m.operands(i).size() == 2;
}

uint64_t hash_of(const ir::Module& m, InstrId i) {
  uint64_t h = static_cast<uint64_t>(m.opcode(i));
  if (commutative_binary(m, i)) {  // the same hash for both operand orders
    const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
    h = mix(mix(h, std::min(a, b)), std::max(a, b));
  } else {
    for (InstrId o : m.operands(i)) h = mix(h, o);
  }
  const ir::Shape& s = m.shape(i);
  h = mix(h, static_cast<uint64_t>(s.element_type()));
  for (int64_t d : s.dims()) h = mix(h, static_cast<uint64_t>(d));
  if (m.opcode(i) == ir::Opcode::kConstant && !m.literal(i).is_tuple()) {
    const auto bytes = m.literal(i).bytes();
    for (size_t k = 0; k < bytes.size() && k < 64; ++k) h = mix(h, static_cast<uint64_t>(bytes[k]));
  }
  return h;
}

bool same_operands(const ir::Module& m, InstrId a, InstrId b) {
  auto oa = m.operands(a), ob = m.operands(b);
  if (std::equal(oa.begin(), oa.end(), ob.begin(), ob.end())) return true;
  return commutative_binary(m, a) && ob.size() == 2 && oa[0] == ob[1] && oa[1] == ob[0];
}

bool same_callees(const ir::Module& m, InstrId a, InstrId b) {
  const auto &ca = m.called(a), &cb = m.called(b);
  if (ca.size() != cb.size()) return false;
  for (size_t k = 0; k < ca.size(); ++k)
    if (!same_computation_deep(m, ca[k], cb[k])) return false;
  return true;
}

bool identical(const ir::Module& m, InstrId a, InstrId b) {
  if (m.opcode(a) != m.opcode(b)) return false;
  if (!same_operands(m, a, b)) return false;
  if (!m.shape(a).compatible(m.shape(b))) return false;
  if (!same_callees(m, a, b)) return false;
  if (m.opcode(a) == ir::Opcode::kConstant && !(m.literal(a) == m.literal(b))) return false;
  if (m.opcode(a) == ir::Opcode::kConstant && (m.literal(a).elided() || m.literal(b).elided()))
    return false;  // unknown values: never assume equal
  return same_attributes_except_metadata(m.attrs(a), m.attrs(b));
}

class Cse final : public Pass {
 public:
  std::string_view name() const override { return "cse"; }
  std::string_view description() const override {
    return "replaces instructions identical to an earlier one (same op, operands, attributes)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) changed |= run_on(m, c);
    return changed;
  }

 private:
  // Open addressing on the hash (linear probing); reused across runs, so a run that
  // finds nothing allocates nothing once warm. Entries hold the first instruction with
  // a hash; later identical ones are merged into it.
  struct Slot {
    uint64_t hash;
    InstrId id;
  };
  std::vector<Slot> table_;

  bool run_on(ir::Module& m, ir::CompId c) {
    const std::vector<InstrId> order = m.post_order(c);
    size_t cap = 16;
    while (cap < 2 * order.size()) cap *= 2;
    table_.assign(cap, Slot{0, ir::kNoId});
    bool changed = false;
    for (InstrId i : order) {
      if (!m.is_live(i)) continue;
      const ir::Opcode op = m.opcode(i);
      if (op == ir::Opcode::kParameter || has_side_effect(m, i)) continue;
      const uint64_t h = hash_of(m, i);
      size_t k = h & (cap - 1);
      InstrId match = ir::kNoId;
      for (; table_[k].id != ir::kNoId; k = (k + 1) & (cap - 1))
        if (table_[k].hash == h && m.is_live(table_[k].id) && identical(m, table_[k].id, i)) {
          match = table_[k].id;
          break;
        }
      if (match == ir::kNoId) {
        table_[k] = Slot{h, i};
        continue;
      }
      m.replace_all_uses(i, match);
      m.remove_instruction(i);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_cse() { return std::make_unique<Cse>(); }

}  // namespace hlsgym::passes
