// Transposes around a dot (XLA's HandleTranspose and HandleDot): transpose(dot(a, b))
// that swaps the two free dimensions is dot(b, a); dot(transpose(a), transpose(b)) is a
// transpose of the dot of a and b in XLA's canonical form (batch dims first and sorted,
// the lhs contracting dim last, the rhs one right after the batch dims). Both keep the
// pairs of elements multiplied and the order they are summed in (one contracting dim, or
// the contracting lists in their order), so they are exact.
#include <algorithm>
#include <numeric>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

InstrId make_dot(Rewriter& r, InstrId lhs, InstrId rhs, ir::DotDims dims, ElementType t) {
  std::vector<int64_t> out;
  const Shape &ls = r.m.shape(lhs), &rs = r.m.shape(rhs);
  for (int64_t d : dims.lhs_batch) out.push_back(ls.dim(d));
  for (int64_t d = 0; d < ls.rank(); ++d)
    if (std::count(dims.lhs_batch.begin(), dims.lhs_batch.end(), d) + std::count(dims.lhs_contracting.begin(), dims.lhs_contracting.end(), d) == 0)
      out.push_back(ls.dim(d));
  for (int64_t d = 0; d < rs.rank(); ++d)
    if (std::count(dims.rhs_batch.begin(), dims.rhs_batch.end(), d) + std::count(dims.rhs_contracting.begin(), dims.rhs_contracting.end(), d) == 0)
      out.push_back(rs.dim(d));
  ir::Attributes a;
  a.dot_dims = std::move(dims);
  const InstrId ops[] = {lhs, rhs};
  return r.make_shaped(Opcode::kDot, Shape(t, std::move(out)), ops, std::move(a));
}

bool is_iota_prefix(const std::vector<int64_t>& v, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (v[k] != static_cast<int64_t>(k)) return false;
  return true;
}

}  // namespace

bool transpose_of_dot(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId dot = m.operand(i, 0);
  if (m.opcode(dot) != Opcode::kDot || m.users(dot).size() != 1 || !m.attrs(dot).dot_dims) return false;
  const ir::DotDims& d = *m.attrs(dot).dot_dims;
  const InstrId a = m.operand(dot, 0), b = m.operand(dot, 1);
  const size_t nb = d.lhs_batch.size();
  // One free dim a side, after the batch dims; the transpose keeps the batch dims and
  // swaps the two free dims.
  if (m.shape(a).rank() != static_cast<int64_t>(nb + d.lhs_contracting.size() + 1) ||
      m.shape(b).rank() != static_cast<int64_t>(nb + d.rhs_contracting.size() + 1))
    return false;
  const auto& perm = m.attrs(i).dimensions;
  if (perm.size() != nb + 2 || !is_iota_prefix(perm, nb) || perm[nb] != static_cast<int64_t>(nb + 1) ||
      perm[nb + 1] != static_cast<int64_t>(nb))
    return false;
  ir::DotDims swapped{d.rhs_batch, d.lhs_batch, d.rhs_contracting, d.lhs_contracting};
  // Only toward XLA's canonical dot: the new lhs (b) contracts its last dims, the new rhs
  // (a) the dims right after its batch dims (the other direction would undo it).
  for (size_t k = 0; k < swapped.lhs_contracting.size(); ++k)
    if (swapped.lhs_contracting[k] != static_cast<int64_t>(nb + 1 + k) ||
        swapped.rhs_contracting[k] != static_cast<int64_t>(nb + k))
      return false;
  return r.replace(i, make_dot(r, b, a, std::move(swapped), type_of(m, dot)));
}

bool dot_of_transposes(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId lt = m.operand(i, 0), rt = m.operand(i, 1);
  if (m.opcode(lt) != Opcode::kTranspose || m.opcode(rt) != Opcode::kTranspose || m.users(lt).size() != 1 ||
      m.users(rt).size() != 1 || !m.attrs(i).dot_dims)
    return false;
  const ir::DotDims& d = *m.attrs(i).dot_dims;
  const size_t nb = d.lhs_batch.size();
  if (d.lhs_contracting.size() != 1 || m.shape(lt).rank() != static_cast<int64_t>(nb + 2) ||
      m.shape(rt).rank() != static_cast<int64_t>(nb + 2))
    return false;
  const auto &pa = m.attrs(lt).dimensions, &pb = m.attrs(rt).dimensions;
  const InstrId a = m.operand(lt, 0), b = m.operand(rt, 0);
  // The dot's dims as dims of a and b (transpose output dim k is its operand's dim p[k]).
  std::vector<std::pair<int64_t, int64_t>> batch;  // (a dim, b dim)
  for (size_t k = 0; k < nb; ++k) batch.push_back({pa[d.lhs_batch[k]], pb[d.rhs_batch[k]]});
  std::sort(batch.begin(), batch.end());
  for (size_t k = 0; k < nb; ++k)
    if (batch[k].first != static_cast<int64_t>(k) || batch[k].second != static_cast<int64_t>(k)) return false;
  const int64_t ac = pa[d.lhs_contracting[0]], bc = pb[d.rhs_contracting[0]];
  const int64_t last = static_cast<int64_t>(nb) + 1, first_free = static_cast<int64_t>(nb);
  std::vector<int64_t> sorted_batch(nb);
  std::iota(sorted_batch.begin(), sorted_batch.end(), 0);
  // Canonical: the lhs contracts its last dim, the rhs the one after its batch dims.
  bool swap;
  if (ac == last && bc == first_free) swap = false;
  else if (bc == last && ac == first_free) swap = true;
  else return false;
  const InstrId lhs = swap ? b : a, rhs = swap ? a : b;
  const InstrId nd = make_dot(r, lhs, rhs, ir::DotDims{sorted_batch, sorted_batch, {last}, {first_free}}, type_of(m, i));
  // nd's dims: batch 0..nb-1 (a's = b's batch dims), then lhs free, then rhs free. The
  // original output dim k is the batch dim pa[lhs_batch[k]], then a's free dim, b's.
  std::vector<int64_t> perm;
  for (size_t k = 0; k < nb; ++k) perm.push_back(pa[d.lhs_batch[k]]);
  const int64_t a_free = static_cast<int64_t>(nb) + (swap ? 1 : 0), b_free = static_cast<int64_t>(nb) + (swap ? 0 : 1);
  perm.push_back(a_free);
  perm.push_back(b_free);
  ir::Attributes t;
  t.dimensions = std::move(perm);
  const InstrId ops[] = {nd};
  return r.replace(i, r.make_shaped(Opcode::kTranspose, m.shape(i), ops, std::move(t)));
}

}  // namespace hlsgym::passes::algsimp
