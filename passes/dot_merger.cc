// dot-merger (XLA DotMerger): two dots that share one operand (both lhs, or both rhs), have
// the same dimension numbers, one contracting dimension, exactly one free dimension on
// the operand they do not share, the same element types, and do not depend on each other
// become one dot with the unshared operands concatenated along that free dimension,
// followed by two slices of the result:
//   dot(a, b), dot(a, c) -> d = dot(a, concatenate(b, c)); slice(d, ...), slice(d, ...)
//   dot(a, c), dot(b, c) -> d = dot(concatenate(a, b), c); slice(d, ...), slice(d, ...)
// (the Q/K/V projections of attention are the classic case). Dots with control edges
// are left alone. Each output element is the
// same sum of the same products: exact. As in XLA, dots are grouped by the operand they
// use, and a pair is merged only if at least one of the two is a merge candidate (its
// operands and result take at most max_size_to_merge bytes); the merged dot goes on
// merging with the rest of its group within the same run.
#include "passes/dot_merger.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The free dimension (neither batch nor contracting) of operand `side` (0 lhs, 1 rhs) when
// it has exactly one.
int64_t single_free_dim(const ir::Module& m, InstrId dot, int side) {
  const auto& d = *m.attrs(dot).dot_dims;
  const auto& batch = side == 0 ? d.lhs_batch : d.rhs_batch;
  const auto& contracting = side == 0 ? d.lhs_contracting : d.rhs_contracting;
  int64_t found = -1;
  for (int64_t k = 0; k < m.shape(m.operand(dot, side)).rank(); ++k) {
    if (contains(batch, k) || contains(contracting, k)) continue;
    if (found >= 0) return -1;
    found = k;
  }
  return found;
}

// Whether one instruction is among the transitive operands of another (within one
// computation): a walk of the operand cone, with visit marks kept across queries (a stamp
// per instruction, a new stamp per query) instead of a hash set built per query.
class Reachability {
 public:
  bool depends_on(const ir::Module& m, InstrId from, InstrId target) {
    if (seen_.size() < m.instruction_slots()) seen_.resize(m.instruction_slots(), 0);
    if (++stamp_ == 0) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 1;  // wrapped
    const uint32_t stamp = stamp_;
    stack_.assign(1, from);
    seen_[from] = stamp;
    while (!stack_.empty()) {
      const InstrId i = stack_.back();
      stack_.pop_back();
      if (i == target) return true;
      for (InstrId o : m.operands(i))
        if (seen_[o] != stamp) seen_[o] = stamp, stack_.push_back(o);
    }
    return false;
  }

 private:
  std::vector<uint32_t> seen_;  // stamp of the query that last reached each instruction
  uint32_t stamp_ = 0;
  std::vector<InstrId> stack_;
};

// The bytes of a dot's operands and result (XLA's is_merge_candidate measure).
int64_t footprint(const ir::Module& m, InstrId dot) {
  return m.shape(dot).byte_size() + m.shape(m.operand(dot, 0)).byte_size() + m.shape(m.operand(dot, 1)).byte_size();
}

// The operand side (0, 1) whose operands differ when x and y share the other one and can
// be merged along it (XLA's TryMergeSameOperand conditions); -1 if they cannot.
int mergeable_side(const ir::Module& m, InstrId x, InstrId y, Reachability& reach) {
  int side;
  if (m.operand(x, 0) == m.operand(y, 0)) side = 1;
  else if (m.operand(x, 1) == m.operand(y, 1)) side = 0;
  else return -1;
  if (!(m.attrs(x) == m.attrs(y)) || m.attrs(x).dot_dims->lhs_contracting.size() != 1) return -1;
  if (m.shape(x).element_type() != m.shape(y).element_type()) return -1;
  const ir::Shape& a = m.shape(m.operand(x, side));
  const ir::Shape& b = m.shape(m.operand(y, side));
  if (a.element_type() != b.element_type() || !a.is_static() || !b.is_static()) return -1;
  const int64_t f = single_free_dim(m, x, side);
  if (f < 0 || f != single_free_dim(m, y, side)) return -1;
  for (int64_t k = 0; k < a.rank(); ++k)
    if (k != f && a.dim(k) != b.dim(k)) return -1;
  if (reach.depends_on(m, x, y) || reach.depends_on(m, y, x)) return -1;
  return side;
}

// Replaces x and y by slices of one dot of the concatenated `side` operands; returns it.
InstrId merge(ir::Module& m, InstrId x, InstrId y, int side) {
  const auto& d = *m.attrs(x).dot_dims;
  const int64_t f = single_free_dim(m, x, side);
  // The result lists batch, lhs free, rhs free dimensions: the lhs's one free dimension
  // follows the batch dimensions, the rhs's one is last.
  const int64_t out_dim = side == 0 ? static_cast<int64_t>(d.lhs_batch.size()) : m.shape(x).rank() - 1;
  expand::Builder b(m, m.computation_of(x));
  ir::Attributes cat;
  cat.dimensions = {f};
  const InstrId parts[] = {m.operand(x, side), m.operand(y, side)};
  const InstrId both = b.op(Opcode::kConcatenate, parts, cat);
  InstrId ops[] = {m.operand(x, 0), m.operand(x, 1)};
  ops[side] = both;
  const int64_t nx = m.shape(x).dim(out_dim);
  std::vector<int64_t> dims = m.shape(x).dims();
  dims[out_dim] += m.shape(y).dim(out_dim);
  const InstrId dot = b.shaped(Opcode::kDot, ir::Shape(m.shape(x).element_type(), dims), ops, m.attrs(x));
  for (auto [old, start] : {std::pair{x, int64_t{0}}, std::pair{y, nx}}) {
    std::vector<ir::SliceDim> r;
    for (int64_t k = 0; k < m.shape(dot).rank(); ++k)
      r.push_back(k == out_dim ? ir::SliceDim{start, start + m.shape(old).dim(out_dim), 1}
                               : ir::SliceDim{0, m.shape(dot).dim(k), 1});
    expand::replace_with(m, old, b.slice(dot, r));
  }
  return dot;
}

class DotMerger final : public Pass {
 public:
  explicit DotMerger(int64_t max_size_to_merge) : max_size_to_merge_(max_size_to_merge) {}
  std::string_view name() const override { return "dot-merger"; }
  std::string_view description() const override {
    return "merges independent dots sharing an operand into one dot of the concatenated other operands, then slices";
  }
  bool run(ir::Module& m) override {
    // Dots grouped by each operand they use, groups in definition order of that operand
    // (XLA sorts by unique id), dots in definition order.
    std::map<InstrId, std::vector<InstrId>> groups;
    const std::unordered_set<InstrId> fenced = with_control_edges(m);
    for (InstrId dot : expand::find_all(m, {Opcode::kDot}))
      if (m.attrs(dot).dot_dims && !fenced.count(dot))
        for (InstrId o : m.operands(dot)) {
          auto& g = groups[o];
          if (g.empty() || g.back() != dot) g.push_back(dot);
        }
    bool changed = false;
    for (auto& [key, dots] : groups) changed |= merge_group(m, dots);
    return changed;
  }

 private:
  bool candidate(const ir::Module& m, InstrId dot) const { return footprint(m, dot) <= max_size_to_merge_; }

  bool merge_group(ir::Module& m, std::vector<InstrId>& dots) {
    bool changed = false;
    for (size_t a = 0; a < dots.size(); ++a)
      for (size_t b = a + 1; b < dots.size(); ++b) {
        const InstrId x = dots[a], y = dots[b];
        // A dot merged away (here or in another group) is dead or kNoId; instruction ids
        // are not reused within a run, so is_live tells.
        if (!m.is_live(x) || !m.is_live(y) || m.opcode(x) != Opcode::kDot || m.opcode(y) != Opcode::kDot) continue;
        if (!candidate(m, x) && !candidate(m, y)) continue;
        const int side = mergeable_side(m, x, y, reach_);
        if (side < 0) continue;
        dots[a] = merge(m, x, y, side);
        dots[b] = ir::kNoId;
        changed = true;
      }
    return changed;
  }

  int64_t max_size_to_merge_;
  Reachability reach_;
};

}  // namespace

PassPtr make_dot_merger(int64_t max_size_to_merge) { return std::make_unique<DotMerger>(max_size_to_merge); }

PassPtr make_dot_merger() { return make_dot_merger(kXlaGpuDotMergerMaxBytes); }

}  // namespace hlsgym::passes
