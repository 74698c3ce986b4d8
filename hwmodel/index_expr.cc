#include "hwmodel/index_expr.h"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace hlsgym::hwmodel {

std::vector<int64_t> unravel(int64_t linear, const std::vector<int64_t>& dims) {
  std::vector<int64_t> idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d] == 0) return idx;
    idx[d] = linear % dims[d];
    linear /= dims[d];
  }
  return idx;
}


int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

namespace {
int64_t floor_mod(int64_t a, int64_t b) { return a - b * floor_div(a, b); }
}  // namespace

int IxPool::intern(IxNode n) {
  std::string key = fmt::format("{}|{}|{}|{}|{}|{}", static_cast<int>(n.kind), n.var, n.arg, n.c, n.lo, n.hi);
  for (const auto& [id, k] : n.terms) key += fmt::format("|{}:{}", id, k);
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  nodes_.push_back(std::move(n));
  const int id = static_cast<int>(nodes_.size()) - 1;
  index_.emplace(std::move(key), id);
  return id;
}

int IxPool::constant(int64_t c) {
  IxNode n;
  n.kind = IxNode::kConst;
  n.c = n.lo = n.hi = c;
  return intern(std::move(n));
}

int IxPool::var(int v, int64_t extent) {
  if (extent <= 1) return constant(0);  // a loop of one trip has a constant counter
  IxNode n;
  n.kind = IxNode::kVar;
  n.var = v;
  n.lo = 0;
  n.hi = extent - 1;
  return intern(std::move(n));
}

int IxPool::dyn(int v, int64_t lo, int64_t hi) {
  if (lo == hi) return constant(lo);
  IxNode n;
  n.kind = IxNode::kDyn;
  n.var = v;
  n.lo = lo;
  n.hi = hi;
  return intern(std::move(n));
}

IxPool::Form IxPool::form(int id) const {
  Form f;
  const IxNode& n = nodes_[id];
  if (n.kind == IxNode::kConst) {
    f.c = n.c;
  } else if (n.kind == IxNode::kLin) {
    for (const auto& [a, k] : n.terms) f.terms[a] += k;
    f.c = n.c;
  } else {
    f.terms[id] = 1;
  }
  return f;
}

int IxPool::from_form(const Form& f) {
  IxNode n;
  n.kind = IxNode::kLin;
  n.c = n.lo = n.hi = f.c;
  for (const auto& [a, k] : f.terms) {
    if (k == 0) continue;
    n.terms.emplace_back(a, k);
    const IxNode& x = nodes_[a];
    n.lo += k > 0 ? k * x.lo : k * x.hi;
    n.hi += k > 0 ? k * x.hi : k * x.lo;
  }
  if (n.terms.empty()) return constant(f.c);
  if (n.terms.size() == 1 && n.terms[0].second == 1 && f.c == 0) return n.terms[0].first;
  return intern(std::move(n));
}

int IxPool::linear(const std::vector<std::pair<int, int64_t>>& terms, int64_t c) {
  Form f;
  f.c = c;
  for (const auto& [a, k] : terms) {
    const Form g = form(a);
    for (const auto& [x, kx] : g.terms) f.terms[x] += k * kx;
    f.c += k * g.c;
  }
  return from_form(f);
}

// a = d Q + R, R the terms whose coefficients d does not divide (and c mod d), so that
// floor(a / d) = Q + floor(R / d) and a mod d = R mod d; both are exact without a division
// when R stays inside one multiple of d (k0 == k1).
IxPool::Split IxPool::split(int a, int64_t d) {
  const Form f = form(a);
  Split sp;
  sp.q.c = floor_div(f.c, d);
  Form r;
  r.c = floor_mod(f.c, d);
  for (const auto& [x, k] : f.terms) (k % d == 0 ? sp.q.terms[x] = k / d : r.terms[x] = k);
  sp.r = from_form(r);
  sp.k0 = floor_div(nodes_[sp.r].lo, d);
  sp.k1 = floor_div(nodes_[sp.r].hi, d);
  return sp;
}

int IxPool::div(int a, int64_t d) {
  if (d <= 0) throw std::logic_error("IxPool::div by a non-positive constant");
  if (d == 1) return a;
  if (nodes_[a].kind == IxNode::kDiv) return div(nodes_[a].arg, nodes_[a].c * d);
  Split sp = split(a, d);
  if (sp.k0 != sp.k1) {
    IxNode n;
    n.kind = IxNode::kDiv;
    n.arg = sp.r;
    n.c = d;
    n.lo = sp.k0;
    n.hi = sp.k1;
    sp.q.terms[intern(std::move(n))] += 1;
  } else {
    sp.q.c += sp.k0;
  }
  return from_form(sp.q);
}

int IxPool::mod(int a, int64_t d) {
  if (d <= 0) throw std::logic_error("IxPool::mod by a non-positive constant");
  if (d == 1) return constant(0);
  if (nodes_[a].kind == IxNode::kMod && nodes_[a].c % d == 0) return mod(nodes_[a].arg, d);
  const Split sp = split(a, d);
  if (sp.k0 == sp.k1) return add_const(sp.r, -d * sp.k0);
  IxNode n;
  n.kind = IxNode::kMod;
  n.arg = sp.r;
  n.c = d;
  n.lo = 0;
  n.hi = d - 1;
  return intern(std::move(n));
}

int IxPool::ravel(const std::vector<int>& idx, const std::vector<int64_t>& dims) {
  std::vector<std::pair<int, int64_t>> terms;
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    terms.emplace_back(idx[d], stride);
    stride *= dims[d];
  }
  return linear(terms, 0);
}

std::vector<int> IxPool::unravel(int flat, const std::vector<int64_t>& dims) {
  std::vector<int> idx(dims.size());
  int64_t inner = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = dims[d] <= 1 ? constant(0) : mod(div(flat, inner), dims[d]);
    inner *= std::max<int64_t>(dims[d], 1);
  }
  return idx;
}

void IxPool::require(Guard& g, int ix, int64_t lo, int64_t hi, int64_t multiple) const {
  if (g.never) return;
  const IxNode& n = nodes_[ix];
  if (n.hi < lo || n.lo > hi) {
    g.never = true;
    return;
  }
  bool divisible = multiple <= 1;
  if (!divisible) {
    const Form f = form(ix);
    divisible = f.c % multiple == 0;
    for (const auto& [x, k] : f.terms) divisible = divisible && k % multiple == 0;
    if (n.kind == IxNode::kConst && !divisible) {
      g.never = true;
      return;
    }
  }
  if (n.lo >= lo && n.hi <= hi && divisible) return;
  g.conds.push_back({ix, std::max(lo, n.lo), std::min(hi, n.hi), divisible ? 1 : multiple});
}

int64_t IxPool::eval(int id, const std::vector<int64_t>& vars, const std::vector<int64_t>& dyns) const {
  const IxNode& n = nodes_[id];
  switch (n.kind) {
    case IxNode::kConst: return n.c;
    case IxNode::kVar: return vars.at(static_cast<size_t>(n.var));
    case IxNode::kDyn: return dyns.at(static_cast<size_t>(n.var));
    case IxNode::kLin: {
      int64_t v = n.c;
      for (const auto& [a, k] : n.terms) v += k * eval(a, vars, dyns);
      return v;
    }
    case IxNode::kDiv: return floor_div(eval(n.arg, vars, dyns), n.c);
    case IxNode::kMod: return floor_mod(eval(n.arg, vars, dyns), n.c);
  }
  return 0;
}

bool IxPool::holds(const Guard& g, const std::vector<int64_t>& vars, const std::vector<int64_t>& dyns) const {
  if (g.never) return false;
  for (const Cond& c : g.conds) {
    const int64_t v = eval(c.ix, vars, dyns);
    if (v < c.lo || v > c.hi || (c.multiple > 1 && floor_mod(v, c.multiple) != 0)) return false;
  }
  return true;
}

}  // namespace hlsgym::hwmodel
