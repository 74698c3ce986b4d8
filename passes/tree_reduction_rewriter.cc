// tree_reduction_rewriter (XLA's TreeReductionRewriter, as the CPU pipeline runs it):
// a reduce over a dimension longer than 32 first reduces windows of 32 along it
// (reduce-window, stride 32, padded on both sides with the init value; the other reduced
// dimensions whole), then reduces the partial results: a two-level tree, which keeps
// float sums accurate and exposes parallelism.
// The padding and the extra level fold the init value in more than once, so the rewrite
// applies only when init is the identity of the reducer (add 0, multiply 1, max with the
// lowest value, min with the highest, or 0 / and 1). Float sums are reordered:
// reassociates_floats() is true; integer and min/max reductions are exact.
#include <cmath>
#include <limits>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

constexpr int64_t kWindow = 32;

// The reducer's binary opcode when its body is `ROOT op(p0, p1)`.
std::optional<Opcode> reducer_op(const ir::Module& m, ir::CompId c) {
  const ir::Computation& comp = m.computation(c);
  if (comp.params.size() != 2 || comp.root == ir::kNoId || m.operands(comp.root).size() != 2) return std::nullopt;
  const auto ops = m.operands(comp.root);
  const bool params = (ops[0] == comp.params[0] && ops[1] == comp.params[1]) ||
                      (ops[0] == comp.params[1] && ops[1] == comp.params[0]);
  if (!params) return std::nullopt;
  return m.opcode(comp.root);
}

// The lowest (or highest) value of an integer or pred type, as the literal's raw bits.
uint64_t extreme_bits(ir::ElementType t, bool highest) {
  if (t == ir::ElementType::kPred) return highest ? 1 : 0;
  const int bits = 8 * ir::byte_width(t);
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (ir::is_unsigned_integral(t)) return highest ? mask : 0;
  const uint64_t sign = 1ull << (bits - 1);
  return highest ? sign - 1 : sign;
}

bool is_identity(const ir::Module& m, InstrId init, Opcode op) {
  const ir::Literal* l = scalar_constant(m, init);
  if (!l || m.shape(init).rank() != 0 || l->elided()) return false;
  const auto t = m.shape(init).element_type();
  if (ir::is_complex(t)) return false;
  const double v = l->get_double(0);
  const bool fp = ir::is_floating(t);
  const uint64_t bits = fp ? 0 : l->get_bits(0);
  switch (op) {
    case Opcode::kAdd: case Opcode::kOr: case Opcode::kXor: return v == 0;
    case Opcode::kMultiply: return v == 1;
    case Opcode::kAnd:  // all ones: true for pred, -1 for integers
      return !fp && (t == ir::ElementType::kPred ? bits == 1 : bits == (ir::is_unsigned_integral(t) ? extreme_bits(t, true) : extreme_bits(ir::ElementType::kU64, true) >> (64 - 8 * ir::byte_width(t))));
    case Opcode::kMaximum: return fp ? v == -std::numeric_limits<double>::infinity() : bits == extreme_bits(t, false);
    case Opcode::kMinimum: return fp ? v == std::numeric_limits<double>::infinity() : bits == extreme_bits(t, true);
    default: return false;
  }
}

class TreeReductionRewriter final : public Pass {
 public:
  std::string_view name() const override { return "tree_reduction_rewriter"; }
  std::string_view description() const override {
    return "splits reductions over dimensions longer than 32 into a reduce-window of 32 and a reduce";
  }
  bool reassociates_floats() const override { return true; }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kReduce})) {
      if (m.operands(i).size() != 2 || !m.shape(i).is_array() || m.called(i).size() != 1) continue;
      const InstrId x = m.operand(i, 0), init = m.operand(i, 1);
      const auto op = reducer_op(m, m.called(i)[0]);
      if (!op || !is_identity(m, init, *op) || !m.shape(x).is_static()) continue;
      if (m.shape(x).element_count() == 0) continue;  // algsimp makes it the init value
      // As XLA: a reduced dimension longer than the window gets windows of 32, padded on
      // both sides (low half, high the rest) to a multiple of 32; a shorter one is reduced
      // whole in the first level already; the others keep windows of 1.
      ir::Window w(static_cast<size_t>(m.shape(x).rank()));
      bool long_dim = false;
      for (int64_t d : m.attrs(i).dimensions) {
        const int64_t n = m.shape(x).dim(d);
        auto& wd = w[static_cast<size_t>(d)];
        if (n <= kWindow) {
          wd.size = wd.stride = n;
          continue;
        }
        wd.size = wd.stride = kWindow;
        const int64_t pad = (n + kWindow - 1) / kWindow * kWindow - n;
        wd.pad_low = pad / 2;
        wd.pad_high = pad - pad / 2;
        long_dim = true;
      }
      if (!long_dim) continue;
      expand::Builder b(m, m.computation_of(i));
      ir::Attributes a;
      a.window = w;
      const InstrId ops[] = {x, init};
      const ir::CompId f[] = {m.called(i)[0]};
      const InstrId partial = b.op(Opcode::kReduceWindow, ops, a, f);
      expand::replace_with(m, i, b.reduce(partial, init, m.attrs(i).dimensions, f[0]));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_tree_reduction_rewriter() { return std::make_unique<TreeReductionRewriter>(); }

}  // namespace hlsgym::passes
