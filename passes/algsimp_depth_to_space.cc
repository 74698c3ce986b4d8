// XLA's depth-to-space rule of HandleTranspose: reshape(transpose(reshape(x))) where the
// inner reshape splits one dimension s of x into [A, B] and the transpose moves the A
// part to an earlier position t (everything else in order) becomes reshape(concatenate
// of the A slices of x along s, joined on dimension t). The concatenation holds its
// elements in the transpose's row-major order (its dimension t of A * x.dim(t) is
// (chunk, index) exactly as the transpose's pair of dimensions t, t + 1), so any reshape
// of one is the reshape of the other. XLA rewrites only for at most 5 chunks (more
// slices than that are not worth it) and only when the outer reshape merges the chunks
// into dimension t - 1 and leaves x's other dimensions as they were.
#include <algorithm>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

constexpr int64_t kMaxChunks = 5;  // XLA's kMaxChunksForTransformation

// The dimension of x the inner reshape splits in two, or nullopt.
std::optional<int64_t> split_dimension(const Shape& x, const Shape& split) {
  if (split.rank() != x.rank() + 1) return std::nullopt;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (split.dim(d) == x.dim(d)) continue;
    if (x.dim(d) != split.dim(d) * split.dim(d + 1)) return std::nullopt;
    for (int64_t e = d + 1; e < x.rank(); ++e)
      if (split.dim(e + 1) != x.dim(e)) return std::nullopt;
    return d;
  }
  return std::nullopt;
}

}  // namespace

bool transpose_depth_to_space(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId split = m.operand(i, 0);
  if (m.opcode(split) != Opcode::kReshape || m.users(i).size() != 1 || m.opcode(m.users(i)[0]) != Opcode::kReshape)
    return false;
  const InstrId x = m.operand(split, 0);
  const Shape &xs = m.shape(x), &ss = m.shape(split), &out = m.shape(m.users(i)[0]);
  if (!static_array(xs) || !static_array(ss) || !static_array(out)) return false;
  const auto s = split_dimension(xs, ss);
  if (!s) return false;
  const int64_t chunks = ss.dim(*s), chunk = ss.dim(*s + 1);
  if (chunks < 1 || chunks > kMaxChunks) return false;
  const auto& perm = m.attrs(i).dimensions;
  const auto at = std::find(perm.begin(), perm.end(), *s);
  if (at == perm.end()) return false;
  const int64_t t = at - perm.begin();
  if (t == *s || t == *s + 1) return false;
  // Only the chunk dimension moves: every other dimension keeps its order.
  for (int64_t d = 0; d < ss.rank(); ++d)
    if (d != t && perm[static_cast<size_t>(d)] != d - (d > t ? 1 : 0) + (d > *s ? 1 : 0)) return false;
  if (out.rank() != xs.rank()) return false;
  for (int64_t d = 0; d < xs.rank(); ++d) {
    const int64_t want = d == t - 1 ? xs.dim(d) * chunks : d == *s ? xs.dim(d) / chunks : xs.dim(d);
    if (out.dim(d) != want) return false;
  }
  std::vector<InstrId> slices;
  for (int64_t k = 0; k < chunks; ++k) {
    ir::Attributes a;
    for (int64_t d = 0; d < xs.rank(); ++d)
      a.slice.push_back(d == *s ? ir::SliceDim{k * chunk, (k + 1) * chunk, 1} : ir::SliceDim{0, xs.dim(d), 1});
    slices.push_back(r.make(Opcode::kSlice, {&x, 1}, std::move(a)));
  }
  ir::Attributes a;
  a.dimensions = {t};
  const InstrId cat = r.make(Opcode::kConcatenate, slices, std::move(a));
  // XLA hands the concatenation to the outer reshape; here it replaces the transpose
  // through a reshape to the transpose's shape, which merges into the outer reshape.
  return r.replace(i, r.reshape(cat, m.shape(i).dims()));
}

}  // namespace hlsgym::passes::algsimp
