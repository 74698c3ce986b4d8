// cse (XLA HloCSE, layout-insensitive): an instruction identical to an earlier one —
// same opcode, operands, shape, interpreted attributes, called computations and, for
// constants, value — is replaced by it. Metadata is ignored, as in XLA; side-effecting
// instructions and parameters are never merged.
#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

uint64_t hash_of(const ir::Module& m, InstrId i) {
  uint64_t h = static_cast<uint64_t>(m.opcode(i));
  for (InstrId o : m.operands(i)) h = mix(h, o);
  const ir::Shape& s = m.shape(i);
  h = mix(h, static_cast<uint64_t>(s.element_type()));
  for (int64_t d : s.dims()) h = mix(h, static_cast<uint64_t>(d));
  if (m.opcode(i) == ir::Opcode::kConstant && !m.literal(i).is_tuple()) {
    const auto bytes = m.literal(i).bytes();
    for (size_t k = 0; k < bytes.size() && k < 64; ++k) h = mix(h, static_cast<uint64_t>(bytes[k]));
  }
  return h;
}

bool same_attributes(const ir::Attributes& a, const ir::Attributes& b) {
  if (a == b) return true;  // the common case, without copying
  // Compare everything except metadata (source locations do not change meaning).
  ir::Attributes x = a, y = b;
  std::erase_if(x.opaque, [](const auto& o) { return o.key == "metadata"; });
  std::erase_if(y.opaque, [](const auto& o) { return o.key == "metadata"; });
  return x == y;
}

bool identical(const ir::Module& m, InstrId a, InstrId b) {
  if (m.opcode(a) != m.opcode(b)) return false;
  auto oa = m.operands(a), ob = m.operands(b);
  if (!std::equal(oa.begin(), oa.end(), ob.begin(), ob.end())) return false;
  if (!m.shape(a).compatible(m.shape(b))) return false;
  if (m.called(a) != m.called(b)) return false;
  if (m.opcode(a) == ir::Opcode::kConstant && !(m.literal(a) == m.literal(b))) return false;
  if (m.opcode(a) == ir::Opcode::kConstant && (m.literal(a).elided() || m.literal(b).elided()))
    return false;  // unknown values: never assume equal
  return same_attributes(m.attrs(a), m.attrs(b));
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
