// computation-deduplicator (XLA HloComputationDeduplicator; "computation-deduplicator "
// with a trailing space in 2023): non-entry computations that are structurally identical
// — same instructions in the same dependency order, with the same opcodes, shapes
// (layouts included), attributes (metadata aside), constant values and callees (callees
// already merged count as equal) — are merged: callers of a later copy call the first
// one (callees before callers), and the copies are removed. As in XLA, computations with
// more than 128 instructions or more than 1 KiB of constants, fusion bodies and
// computations applied by collectives are left alone. Elided constants are never equal
// (their placeholder values depend on their names).
#include <unordered_map>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/structural_equality.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

uint64_t mix(uint64_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

// Element types and dimensions, tuple elements included (layouts left to the comparison).
uint64_t mix_shape(uint64_t h, const ir::Shape& s) {
  h = mix(h, static_cast<uint64_t>(s.element_type()));
  for (int64_t d : s.dims()) h = mix(h, static_cast<uint64_t>(d));
  for (const ir::Shape& e : s.tuple_elements()) h = mix_shape(mix(h, 0x7u), e);
  return mix(h, s.tuple_elements().size());
}

// The attributes computations of one call-graph shape differ by most (parameter number,
// tuple index, comparison direction, dimensions) and a constant's bytes. Each is compared
// by same_computation, so equal computations hash alike; without them, computations that
// differ only there (the conditions of while loops over different tuples or bounds) shared
// one bucket and each was compared with all the others.
uint64_t mix_attributes(uint64_t h, const ir::Module& m, InstrId i) {
  const ir::Attributes& a = m.attrs(i);
  h = mix(mix(h, static_cast<uint64_t>(a.parameter_number)), static_cast<uint64_t>(a.tuple_index));
  h = mix(h, a.direction ? static_cast<uint64_t>(*a.direction) + 1 : 0);
  for (int64_t d : a.dimensions) h = mix(h, static_cast<uint64_t>(d));
  if (m.opcode(i) == Opcode::kConstant && m.payload(i).literal && !m.literal(i).elided() && !m.literal(i).is_tuple())
    for (std::byte b : m.literal(i).bytes()) h = mix(h, static_cast<uint64_t>(b));
  return h;
}

class Deduplicator {
 public:
  explicit Deduplicator(const ir::Module& m) : m_(m), merged_into_(m.computation_slots(), ir::kNoId) {}

  CompId canonical(CompId c) const { return merged_into_[c] == ir::kNoId ? c : merged_into_[c]; }
  bool any_merged() const { return merged_; }

  void consider(CompId c) {
    Shape s = shape_of(c);
    auto& bucket = buckets_[s.hash];
    for (auto& [other, other_shape] : bucket)
      if (equal(other, other_shape, c, s)) {
        merged_into_[c] = other;
        merged_ = true;
        return;
      }
    bucket.emplace_back(c, std::move(s));
  }

 private:
  struct Shape {  // the computation in dependency order, and a hash of its structure
    std::vector<InstrId> order;
    uint64_t hash = 0;
  };

  Shape shape_of(CompId c) const {
    Shape s;
    s.order = control_flow::local_post_order(m_, c);
    std::unordered_map<InstrId, uint64_t> pos;
    uint64_t h = s.order.size();
    for (InstrId i : s.order) {
      pos.emplace(i, pos.size());
      h = mix(h, static_cast<uint64_t>(m_.opcode(i)));
      h = mix_shape(h, m_.shape(i));
      h = mix_attributes(h, m_, i);
      for (InstrId o : m_.operands(i)) h = mix(h, pos.at(o));
      for (CompId k : m_.called(i)) h = mix(h, canonical(k));
    }
    s.hash = mix(h, pos.at(m_.computation(c).root));
    return s;
  }

  bool equal(CompId a, const Shape& sa, CompId b, const Shape& sb) const {
    return same_computation(m_, a, sa.order, b, sb.order,
                            [this](CompId x, CompId y) { return canonical(x) == canonical(y); });
  }

  const ir::Module& m_;
  std::vector<CompId> merged_into_;
  std::unordered_map<uint64_t, std::vector<std::pair<CompId, Shape>>> buckets_;
  bool merged_ = false;
};

// Fusion bodies and computations applied by collectives keep their own identity.
std::vector<bool> excluded_computations(const ir::Module& m) {
  std::vector<bool> out(m.computation_slots(), false);
  for (CompId c : m.live_computations())
    for (InstrId i : m.computation(c).order) {
      if (!m.is_live(i)) continue;
      const bool keep = m.opcode(i) == Opcode::kFusion ||
                        ir::info(m.opcode(i)).category == ir::OpCategory::kCollective;
      if (keep)
        for (CompId k : m.called(i)) out[k] = true;
    }
  return out;
}

bool too_big(const ir::Module& m, CompId c) {
  if (m.instruction_count(c) > 128) return true;
  int64_t bytes = 0;
  for (InstrId i : m.computation(c).order)
    if (m.is_live(i) && m.opcode(i) == Opcode::kConstant) bytes += m.shape(i).byte_size();
  return bytes > 1024;
}

class ComputationDeduplicator final : public Pass {
 public:
  std::string_view name() const override { return "computation-deduplicator"; }
  std::string_view description() const override {
    return "merges structurally identical computations and points their callers at one copy";
  }
  bool run(ir::Module& m) override {
    const std::vector<bool> excluded = excluded_computations(m);
    Deduplicator dedup(m);
    for (CompId c : control_flow::callees_first(m))
      if (c != m.entry() && !excluded[c] && !too_big(m, c)) dedup.consider(c);
    if (!dedup.any_merged()) return false;
    for (CompId c : m.live_computations())
      for (InstrId i : m.computation(c).order) {
        if (!m.is_live(i)) continue;
        std::vector<CompId> called = m.called(i);
        bool redirected = false;
        for (CompId& k : called)
          if (dedup.canonical(k) != k) k = dedup.canonical(k), redirected = true;
        if (redirected) m.mutable_payload(i).called = std::move(called);
      }
    for (CompId c : m.live_computations())
      if (dedup.canonical(c) != c) m.remove_computation(c);
    return true;
  }
};

}  // namespace

PassPtr make_computation_deduplicator() { return std::make_unique<ComputationDeduplicator>(); }

}  // namespace hlsgym::passes
