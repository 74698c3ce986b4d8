// slice-sinker (XLA SliceSinker): elementwise ops on identically sliced pieces of the
// same sources, whose results together hold at least as many elements as a source (the
// pieces may overlap, leave gaps, be strided), become one elementwise op on the whole
// sources followed by the slices:
//   add(slice(a, [0:4]), slice(b, [0:4])), add(slice(a, [4:8]), slice(b, [4:8]))
//     -> s = add(a, b); slice(s, [0:4]), slice(s, [4:8])
// One op instead of one per piece, and the operand slices die. Elementwise arithmetic
// commutes with slicing: exact (the elements no piece reads are computed and dropped).
#include <algorithm>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// True if every operand of `e` is a slice, all with the same ranges (starts, limits and
// strides) of sources of the same dimensions (XLA's IsElementwiseOperationOnSimilarSlices).
bool on_similar_slices(const ir::Module& m, InstrId e) {
  const auto ops = m.operands(e);
  for (InstrId o : ops)
    if (m.opcode(o) != Opcode::kSlice || !(m.attrs(o).slice == m.attrs(ops[0]).slice) ||
        m.shape(m.operand(o, 0)).dims() != m.shape(m.operand(ops[0], 0)).dims())
      return false;
  return true;
}

// True if `other` is the same operation as `e` (opcode, attributes, result element type)
// on slices with one set of ranges, its operand k a slice of the same source as e's
// (XLA's IsSimilarOperationOnSlices). An op already sunk has no users and is skipped.
bool similar(const ir::Module& m, InstrId e, InstrId other) {
  if (m.users(other).empty() || m.opcode(other) != m.opcode(e) || !(m.attrs(other) == m.attrs(e)) ||
      m.shape(other).element_type() != m.shape(e).element_type() ||
      m.operands(other).size() != m.operands(e).size() || has_side_effect(m, other))
    return false;
  const InstrId first = m.operand(other, 0);
  for (size_t k = 0; k < m.operands(e).size(); ++k) {
    const InstrId s = m.operand(other, k);
    if (m.opcode(s) != Opcode::kSlice || m.operand(s, 0) != m.operand(m.operand(e, k), 0) ||
        !(m.attrs(s).slice == m.attrs(first).slice))
      return false;
  }
  return true;
}

// The ops similar to `e` among the users of slices of e's first source (e among them),
// when together they compute at least as many elements as a source holds (XLA's
// ShouldTransform: then one op on the sources costs no more than the pieces); empty
// otherwise. Pieces may overlap, leave gaps or be strided.
std::vector<InstrId> worthwhile_group(const ir::Module& m, InstrId e) {
  std::vector<InstrId> group;
  int64_t elements = 0;
  const InstrId source = m.operand(m.operand(e, 0), 0);
  for (InstrId s : m.users(source)) {
    if (m.opcode(s) != Opcode::kSlice) continue;
    for (InstrId u : m.users(s))
      if (std::find(group.begin(), group.end(), u) == group.end() && similar(m, e, u)) {
        group.push_back(u);
        elements += m.shape(u).element_count();
      }
  }
  if (elements < m.shape(source).element_count()) group.clear();
  return group;
}

class SliceSinker final : public Pass {
 public:
  std::string_view name() const override { return "slice-sinker"; }
  std::string_view description() const override {
    return "one elementwise op on whole sources replaces the same op on slices that compute as many elements";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations())
      // In post order, so an op whose operands were just sunk (now slices of the sunk
      // op) is seen after them and can sink in turn (XLA's Cascade).
      for (InstrId e : m.post_order(c)) {
        if (!m.is_live(e) || !ir::info(m.opcode(e)).elementwise || m.operands(e).empty() || m.users(e).empty() ||
            has_side_effect(m, e) || !on_similar_slices(m, e) || !m.shape(m.operand(m.operand(e, 0), 0)).is_static())
          continue;
        const std::vector<InstrId> group = worthwhile_group(m, e);
        if (group.empty()) continue;
        std::vector<InstrId> sources;
        for (InstrId s : m.operands(e)) sources.push_back(m.operand(s, 0));
        sink(m, group, sources);
        changed = true;
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
