// slice-sinker (XLA SliceSinker): elementwise ops on identically sliced pieces of the
// same sources, whose slices together cover the sources whole, become one elementwise op
// on the whole sources followed by the slices:
//   add(slice(a, [0:4]), slice(b, [0:4])), add(slice(a, [4:8]), slice(b, [4:8]))
//     -> s = add(a, b); slice(s, [0:4]), slice(s, [4:8])
// One op instead of one per piece, and the operand slices die. Elementwise arithmetic
// commutes with slicing: exact.
#include <algorithm>
#include <map>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// The sources when every operand of `e` is a slice with the same ranges of a value of
// the same shape; empty otherwise.
std::vector<InstrId> sliced_sources(const ir::Module& m, InstrId e) {
  std::vector<InstrId> sources;
  const auto ops = m.operands(e);
  for (InstrId o : ops) {
    if (m.opcode(o) != Opcode::kSlice || !(m.attrs(o).slice == m.attrs(ops[0]).slice)) return {};
    const InstrId s = m.operand(o, 0);
    if (!sources.empty() && !(m.shape(s).dims() == m.shape(sources[0]).dims())) return {};
    sources.push_back(s);
  }
  return sources;
}

// True if the pieces' slices cover every element of a source of `dims` (strides of 1,
// no overlap: the element counts add up to the whole).
bool covers(const ir::Module& m, const std::vector<InstrId>& pieces, const std::vector<int64_t>& dims) {
  int64_t total = 1, sum = 0;
  for (int64_t d : dims) total *= d;
  std::vector<std::vector<ir::SliceDim>> seen;
  for (InstrId e : pieces) {
    const auto& r = m.attrs(m.operand(e, 0)).slice;
    for (const auto& s : r)
      if (s.stride != 1) return false;
    for (const auto& other : seen) {  // pairwise disjoint: some dimension separates them
      bool disjoint = false;
      for (size_t k = 0; k < r.size(); ++k)
        disjoint |= r[k].limit <= other[k].start || other[k].limit <= r[k].start;
      if (!disjoint) return false;
    }
    seen.push_back(r);
    sum += m.shape(e).element_count();
  }
  return sum == total;
}

class SliceSinker final : public Pass {
 public:
  std::string_view name() const override { return "slice-sinker"; }
  std::string_view description() const override {
    return "one elementwise op on whole sources replaces the same op on slices that cover them";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      // Group the candidate ops by (opcode, result type, sources).
      std::map<std::vector<int64_t>, std::vector<InstrId>> groups;
      for (InstrId e : m.instructions(c)) {
        if (!ir::info(m.opcode(e)).elementwise || m.operands(e).empty() || has_side_effect(m, e)) continue;
        const auto sources = sliced_sources(m, e);
        if (sources.empty() || !m.shape(sources[0]).is_static()) continue;
        std::vector<int64_t> key{static_cast<int64_t>(m.opcode(e)), static_cast<int64_t>(m.shape(e).element_type())};
        key.insert(key.end(), sources.begin(), sources.end());
        groups[key].push_back(e);
      }
      for (const auto& [key, pieces] : groups) {
        const std::vector<InstrId> sources = sliced_sources(m, pieces[0]);
        if (pieces.size() < 2 || !covers(m, pieces, m.shape(sources[0]).dims())) continue;
        const bool same_attrs = std::all_of(pieces.begin(), pieces.end(),
                                            [&](InstrId e) { return m.attrs(e) == m.attrs(pieces[0]); });
        if (!same_attrs) continue;  // e.g. compares with different directions
        sink(m, pieces, sources);
        changed = true;
      }
    }
    return changed;
  }

 private:
  static void sink(ir::Module& m, const std::vector<InstrId>& pieces, const std::vector<InstrId>& sources) {
    const InstrId first = pieces[0];
    const ir::Shape whole(m.shape(first).element_type(), m.shape(sources[0]).dims());
    const InstrId op = m.add_instruction(m.computation_of(first), m.opcode(first), whole, sources, m.attrs(first));
    expand::Builder b(m, m.computation_of(first));
    for (InstrId e : pieces) expand::replace_with(m, e, b.slice(op, m.attrs(m.operand(e, 0)).slice));
  }
};

}  // namespace

PassPtr make_slice_sinker() { return std::make_unique<SliceSinker>(); }

}  // namespace hlsgym::passes
