// dot-merger (XLA DotMerger): two dots that share their lhs, have the same dimension
// numbers and element type, a single free dimension on the rhs, and do not depend on each
// other become one dot of the shared lhs with the two rhs concatenated along that free
// dimension, followed by two slices of the result:
//   dot(a, b), dot(a, c) -> d = dot(a, concatenate(b, c)); slice(d, ...), slice(d, ...)
// (the Q/K/V projections of attention are the classic case). Each output element is the
// same sum of the same products: exact. As XLA, merging stops at a size cap.
#include <unordered_set>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

constexpr int64_t kMaxMergedElements = 1 << 22;  // XLA's max_size_to_merge is in bytes; similar scale

// The rhs free dimension (not batch, not contracting) when there is exactly one.
int64_t rhs_free_dim(const ir::Module& m, InstrId dot) {
  const auto& d = *m.attrs(dot).dot_dims;
  int64_t found = -1;
  for (int64_t k = 0; k < m.shape(m.operand(dot, 1)).rank(); ++k) {
    if (std::find(d.rhs_batch.begin(), d.rhs_batch.end(), k) != d.rhs_batch.end()) continue;
    if (std::find(d.rhs_contracting.begin(), d.rhs_contracting.end(), k) != d.rhs_contracting.end()) continue;
    if (found >= 0) return -1;
    found = k;
  }
  return found;
}

// True if `target` is among the transitive operands of `from` (within one computation).
bool depends_on(const ir::Module& m, InstrId from, InstrId target) {
  std::vector<InstrId> stack{from};
  std::unordered_set<InstrId> seen{from};
  while (!stack.empty()) {
    const InstrId i = stack.back();
    stack.pop_back();
    if (i == target) return true;
    for (InstrId o : m.operands(i))
      if (seen.insert(o).second) stack.push_back(o);
  }
  return false;
}

bool mergeable(const ir::Module& m, InstrId x, InstrId y) {
  if (m.operand(x, 0) != m.operand(y, 0) || !(m.attrs(x) == m.attrs(y))) return false;
  if (m.shape(x).element_type() != m.shape(y).element_type()) return false;
  if (m.shape(m.operand(x, 1)).element_type() != m.shape(m.operand(y, 1)).element_type()) return false;
  const int64_t f = rhs_free_dim(m, x);
  if (f < 0 || f != rhs_free_dim(m, y) || !m.shape(x).is_static() || !m.shape(y).is_static()) return false;
  for (int64_t k = 0; k < m.shape(m.operand(x, 1)).rank(); ++k)
    if (k != f && m.shape(m.operand(x, 1)).dim(k) != m.shape(m.operand(y, 1)).dim(k)) return false;
  if (m.shape(x).element_count() + m.shape(y).element_count() > kMaxMergedElements) return false;
  return !depends_on(m, x, y) && !depends_on(m, y, x);
}

void merge(ir::Module& m, InstrId x, InstrId y) {
  const int64_t f = rhs_free_dim(m, x);
  const int64_t out_dim = m.shape(x).rank() - 1;  // the rhs free dim is the result's last
  expand::Builder b(m, m.computation_of(x));
  ir::Attributes cat;
  cat.dimensions = {f};
  const InstrId rhs[] = {m.operand(x, 1), m.operand(y, 1)};
  const InstrId both = b.op(Opcode::kConcatenate, rhs, cat);
  const InstrId ops[] = {m.operand(x, 0), both};
  const InstrId dot = b.op(Opcode::kDot, ops, m.attrs(x));
  const int64_t nx = m.shape(x).dim(out_dim);
  for (auto [old, start] : {std::pair{x, int64_t{0}}, std::pair{y, nx}}) {
    std::vector<ir::SliceDim> r;
    for (int64_t k = 0; k < m.shape(dot).rank(); ++k)
      r.push_back(k == out_dim ? ir::SliceDim{start, start + m.shape(old).dim(out_dim), 1}
                               : ir::SliceDim{0, m.shape(dot).dim(k), 1});
    expand::replace_with(m, old, b.slice(dot, r));
  }
}

class DotMerger final : public Pass {
 public:
  std::string_view name() const override { return "dot-merger"; }
  std::string_view description() const override {
    return "merges independent dots sharing an lhs into one dot of concatenated rhs, then slices";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    std::vector<InstrId> dots = expand::find_all(m, {Opcode::kDot});
    for (size_t a = 0; a < dots.size(); ++a)
      for (size_t b = a + 1; b < dots.size(); ++b) {
        const InstrId x = dots[a], y = dots[b];
        if (!m.is_live(x) || !m.is_live(y) || m.opcode(x) != Opcode::kDot || m.opcode(y) != Opcode::kDot) continue;
        if (m.computation_of(x) != m.computation_of(y) || !m.attrs(x).dot_dims || !mergeable(m, x, y)) continue;
        merge(m, x, y);
        changed = true;
        break;  // x is gone; continue with the next a
      }
    return changed;
  }
};

}  // namespace

PassPtr make_dot_merger() { return std::make_unique<DotMerger>(); }

}  // namespace hlsgym::passes
