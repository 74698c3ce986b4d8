// broadcast_canonicalizer (XLA BroadcastCanonicalizer): a broadcast whose `dimensions` are
// not ascending becomes a broadcast with ascending dimensions of a transposed operand, so
// later passes (and the hardware lowering) see one canonical broadcast form.
//   broadcast(x), dimensions={2,0} -> broadcast(transpose(x), dimensions={1,0}), dimensions={0,2}
// Pure data movement: exact.
#include <algorithm>
#include <numeric>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

class BroadcastCanonicalizer final : public Pass {
 public:
  std::string_view name() const override { return "broadcast_canonicalizer"; }
  std::string_view description() const override {
    return "makes broadcast dimensions ascending by transposing the operand first";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kBroadcast})) {
      const auto& dims = m.attrs(i).dimensions;
      if (std::is_sorted(dims.begin(), dims.end()) || !m.shape(i).is_static()) continue;
      // perm[k]: which operand dimension lands k-th in ascending output order.
      std::vector<int64_t> perm(dims.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
      std::vector<int64_t> sorted(dims.begin(), dims.end());
      std::sort(sorted.begin(), sorted.end());
      expand::Builder b(m, m.computation_of(i));
      const InstrId t = b.transpose(m.operand(i, 0), perm);
      expand::replace_with(m, i, b.broadcast(t, m.shape(i).dims(), sorted));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_broadcast_canonicalizer() { return std::make_unique<BroadcastCanonicalizer>(); }

}  // namespace hlsgym::passes
