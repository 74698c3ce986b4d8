// Index expressions: where a task's operand element lies, as a function of the task's
// loop counters, so the hardware computes addresses instead of looking them up per
// element (the RTL's size no longer grows with the tensors).
//
// A task runs a loop nest over its output index space (and, when it accumulates, over
// its terms); every loop counter is a variable with a known range. Index-mapping ops
// compose into these expressions: broadcast, transpose, slice and reverse are affine;
// a reshape goes through the flat row-major index, whose split back into dimensions is
// a division and a remainder by constants that the simplifier removes whenever the
// ranges prove it exact (the common case of reshapes that merge or split dimensions).
// Conditions (pad, window edges, concatenate) bound an index or ask it to be a multiple.
//
// Nodes are interned in a pool (one per task), so equal expressions are one node and
// the Verilog computes each once. Every node knows its value range [lo, hi].
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hlsgym::hwmodel {

struct IxNode {
  enum Kind : uint8_t {
    kConst,  // c
    kVar,    // loop counter `var`
    kDyn,    // run-time value `var` (a clamped dynamic-slice start), range [lo, hi]
    kLin,    // sum of coeff x node over `terms`, plus c
    kDiv,    // floor(arg / c), c > 0
    kMod,    // arg - c floor(arg / c), c > 0
  } kind = kConst;
  int var = -1;
  int arg = -1;
  int64_t c = 0;
  std::vector<std::pair<int, int64_t>> terms;  // kLin: (node, coefficient), by node id
  int64_t lo = 0, hi = 0;                      // value range, inclusive
};

// lo <= value(ix) <= hi, and value(ix) a multiple of `multiple` (when > 1).
struct Cond {
  int ix = -1;
  int64_t lo = 0, hi = 0;
  int64_t multiple = 1;
};

// A conjunction of conditions; `never` when one of them can not hold.
struct Guard {
  std::vector<Cond> conds;
  bool never = false;
  bool always() const { return !never && conds.empty(); }
};

class IxPool {
 public:
  const std::vector<IxNode>& nodes() const { return nodes_; }
  const IxNode& operator[](int id) const { return nodes_[static_cast<size_t>(id)]; }
  size_t size() const { return nodes_.size(); }

  int constant(int64_t c);
  int var(int v, int64_t extent);            // a counter over 0 .. extent - 1
  int dyn(int v, int64_t lo, int64_t hi);    // a run-time value in [lo, hi]
  int add(int a, int b) { return linear({{a, 1}, {b, 1}}, 0); }
  int add_const(int a, int64_t c) { return linear({{a, 1}}, c); }
  int scale(int a, int64_t k) { return linear({{a, k}}, 0); }
  int linear(const std::vector<std::pair<int, int64_t>>& terms, int64_t c);
  int div(int a, int64_t d);
  int mod(int a, int64_t d);
  // Row-major: the flat index of `idx` in `dims`, and its inverse.
  int ravel(const std::vector<int>& idx, const std::vector<int64_t>& dims);
  std::vector<int> unravel(int flat, const std::vector<int64_t>& dims);

  // Adds `lo <= ix <= hi, multiple of m` to g, dropping what the ranges prove.
  void require(Guard& g, int ix, int64_t lo, int64_t hi, int64_t multiple = 1) const;

  bool is_const(int id) const { return nodes_[id].kind == IxNode::kConst; }
  // Evaluates with the given counter and run-time values (tests, checks).
  int64_t eval(int id, const std::vector<int64_t>& vars, const std::vector<int64_t>& dyns = {}) const;
  bool holds(const Guard& g, const std::vector<int64_t>& vars, const std::vector<int64_t>& dyns = {}) const;

 private:
  struct Form {  // a linear form over atoms (non-kLin nodes)
    std::map<int, int64_t> terms;
    int64_t c = 0;
  };
  Form form(int id) const;
  struct Split {
    Form q;            // the multiple of d: a = d q + r
    int r = -1;        // the rest, a node
    int64_t k0 = 0, k1 = 0;  // floor(r / d) over r's range
  };
  Split split(int a, int64_t d);
  int intern(IxNode n);
  int from_form(const Form& f);

  std::vector<IxNode> nodes_;
  std::map<std::string, int> index_;
};

int64_t floor_div(int64_t a, int64_t b);

// Row-major: the multi-index of flat element `linear` in `dims` (plain numbers).
std::vector<int64_t> unravel(int64_t linear, const std::vector<int64_t>& dims);

}  // namespace hlsgym::hwmodel
