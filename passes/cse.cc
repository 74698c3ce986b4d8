// cse (XLA HloCSE, layout-insensitive): an instruction identical to an earlier one —
// same opcode, operands, shape, interpreted attributes, called computations and, for
// constants, value — is replaced by it. Metadata is ignored, as in XLA; side-effecting
// instructions and parameters are never merged.
#include <unordered_map>
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
    for (ir::CompId c : m.live_computations()) {
      std::unordered_multimap<uint64_t, InstrId> seen;
      for (InstrId i : m.post_order(c)) {
        if (!m.is_live(i)) continue;
        const ir::Opcode op = m.opcode(i);
        if (op == ir::Opcode::kParameter || has_side_effect(m, i)) continue;
        const uint64_t h = hash_of(m, i);
        InstrId match = ir::kNoId;
        for (auto [it, end] = seen.equal_range(h); it != end; ++it)
          if (m.is_live(it->second) && identical(m, it->second, i)) {
            match = it->second;
            break;
          }
        if (match == ir::kNoId) {
          seen.emplace(h, i);
          continue;
        }
        m.replace_all_uses(i, match);
        m.remove_instruction(i);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_cse() { return std::make_unique<Cse>(); }

}  // namespace hlsgym::passes
