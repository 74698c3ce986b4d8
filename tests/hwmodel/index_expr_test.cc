// Index expressions (hwmodel/index_expr.h): every simplification agrees with plain integer
// arithmetic on every counter value, reshapes that merge or split dimensions cost no
// division, and guards drop exactly the conditions the ranges prove.
#include "hwmodel/index_expr.h"

#include <gtest/gtest.h>

#include <random>

namespace hlsgym::hwmodel {
namespace {

int64_t fdiv(int64_t a, int64_t b) { return floor_div(a, b); }
int64_t fmod(int64_t a, int64_t b) { return a - b * floor_div(a, b); }

// Visits every assignment of the counters 0..extent-1.
template <typename F>
void for_all(const std::vector<int64_t>& extents, F f) {
  std::vector<int64_t> v(extents.size(), 0);
  while (true) {
    f(v);
    size_t d = extents.size();
    while (d > 0) {
      --d;
      if (++v[d] < extents[d]) break;
      v[d] = 0;
      if (d == 0) return;
    }
    if (extents.empty()) return;
  }
}

bool has_division(const IxPool& p, int n) {
  const IxNode& x = p[n];
  if (x.kind == IxNode::kDiv || x.kind == IxNode::kMod) return true;
  if (x.arg >= 0 && has_division(p, x.arg)) return true;
  for (const auto& [a, k] : x.terms)
    if (has_division(p, a)) return true;
  return false;
}

TEST(IndexExpr, ReshapeRoundTripIsDivisionFree) {
  // [4,3,2] -> flat -> [12,2] -> flat -> [4,6] -> flat -> [4,3,2]: the identity.
  IxPool p;
  const std::vector<int64_t> d0{4, 3, 2};
  std::vector<int> idx{p.var(0, 4), p.var(1, 3), p.var(2, 2)};
  auto a = p.unravel(p.ravel(idx, d0), {12, 2});
  auto b = p.unravel(p.ravel(a, {12, 2}), {4, 6});
  auto c = p.unravel(p.ravel(b, {4, 6}), d0);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(c[k], idx[k]) << k;
  EXPECT_FALSE(has_division(p, p.ravel(b, {4, 6})));
}

TEST(IndexExpr, RandomExpressionsMatchIntegerArithmetic) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    IxPool p;
    const int nv = 1 + static_cast<int>(rng() % 3);
    std::vector<int64_t> ext;
    std::vector<int> nodes;
    for (int v = 0; v < nv; ++v) {
      ext.push_back(1 + static_cast<int64_t>(rng() % 6));
      nodes.push_back(p.var(v, ext.back()));
    }
    // A random program of linear, div and mod steps, evaluated alongside in plain C++.
    std::vector<std::function<int64_t(const std::vector<int64_t>&)>> ref;
    for (int v = 0; v < nv; ++v) ref.push_back([v](const std::vector<int64_t>& x) { return x[v]; });
    for (int step = 0; step < 6; ++step) {
      const size_t a = rng() % nodes.size(), b = rng() % nodes.size();
      const int64_t k1 = static_cast<int64_t>(rng() % 7) - 3, k2 = static_cast<int64_t>(rng() % 5), c = static_cast<int64_t>(rng() % 9) - 4;
      const int64_t d = 1 + static_cast<int64_t>(rng() % 6);
      const auto ra = ref[a], rb = ref[b];
      switch (rng() % 3) {
        case 0:
          nodes.push_back(p.linear({{nodes[a], k1}, {nodes[b], k2}}, c));
          ref.push_back([=](const std::vector<int64_t>& x) { return k1 * ra(x) + k2 * rb(x) + c; });
          break;
        case 1:
          nodes.push_back(p.div(nodes[a], d));
          ref.push_back([=](const std::vector<int64_t>& x) { return fdiv(ra(x), d); });
          break;
        default:
          nodes.push_back(p.mod(nodes[a], d));
          ref.push_back([=](const std::vector<int64_t>& x) { return fmod(ra(x), d); });
          break;
      }
    }
    for_all(ext, [&](const std::vector<int64_t>& x) {
      for (size_t n = 0; n < nodes.size(); ++n) {
        const int64_t want = ref[n](x);
        ASSERT_EQ(p.eval(nodes[n], x), want) << "trial " << trial << " node " << n;
        ASSERT_GE(want, p[nodes[n]].lo) << "trial " << trial << " node " << n;
        ASSERT_LE(want, p[nodes[n]].hi) << "trial " << trial << " node " << n;
      }
    });
  }
}

TEST(IndexExpr, GuardsKeepOnlyWhatRangesDoNotProve) {
  IxPool p;
  const int o = p.var(0, 8), k = p.var(1, 3);
  const int u = p.linear({{o, 2}, {k, 1}}, -1);  // stride 2, pad_low 1: u in [-1, 16]
  Guard g;
  p.require(g, u, 0, 15, 1);
  ASSERT_EQ(g.conds.size(), 1u);
  Guard always;
  p.require(always, o, 0, 7, 1);
  EXPECT_TRUE(always.always());
  Guard even;
  p.require(even, p.scale(o, 2), 0, 100, 2);  // a multiple of 2 by construction
  EXPECT_TRUE(even.always());
  Guard never;
  p.require(never, o, 9, 20, 1);
  EXPECT_TRUE(never.never);
  for_all({8, 3}, [&](const std::vector<int64_t>& x) {
    const int64_t v = 2 * x[0] + x[1] - 1;
    EXPECT_EQ(p.holds(g, x), v >= 0 && v <= 15);
  });
}

}  // namespace
}  // namespace hlsgym::hwmodel
