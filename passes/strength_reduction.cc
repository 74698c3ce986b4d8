// strength-reduction (an HLS pass, not in XLA): an integer multiply by a constant
// becomes shifts and adds/subtracts, from the constant's canonical signed digit (CSD,
// non-adjacent form) recoding: x*10 -> (x<<3) + (x<<1), x*7 -> (x<<3) - x, x*-4 ->
// -(x<<2). It trades one multiplier (DSP blocks, several cycles) for a few adders
// (LUTs, one cycle each), raising the op count while lowering DSP use and latency.
//
// Applied when the constant (a constant whose elements are all equal, or a broadcast of
// a scalar constant) has at most kMaxDigits = 3 nonzero CSD digits: x*c then costs at
// most two adders, while a 4-digit constant would need three adders in series, which is
// no faster than a DSP multiply on the FPGA-like target. Multiplying by 0 or 1 is left
// to algsimp.
//
// Exactness: multiplication wraps modulo 2^w, and c = sum(d_k 2^k) (mod 2^w) with
// d_k in {-1, 0, 1}; shifts and adds wrap the same way, so x*c == sum(d_k (x<<k)) bit for
// bit, for signed and unsigned types alike. Digits at k >= w are multiples of 2^w and
// are dropped, so every shift amount is below the width.
// Integer divide and remainder by a power of two are algsimp's (it emits the shift and
// mask forms), so this pass leaves them alone.
#include <vector>

#include "passes/hls_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

constexpr int kMaxDigits = 3;

struct Digit {
  int position;
  bool negative;
};

// Non-adjacent form of `value` read as a w-bit two's complement number, digits below w,
// most significant first.
std::vector<Digit> csd_digits(int64_t value, int width) {
  // Sign-extend from the width so that e.g. u8 255 recodes as -1 (same bits mod 2^8).
  __int128 v = value;
  if (width < 64) {
    const int64_t m = int64_t{1} << (width - 1);
    const int64_t low = value & ((int64_t{1} << width) - 1);
    v = (low ^ m) - m;
  }
  std::vector<Digit> digits;
  for (int k = 0; v != 0 && k < width; ++k, v >>= 1) {
    if ((v & 1) == 0) continue;
    const int d = (v & 3) == 1 ? 1 : -1;  // 2 - (v mod 4)
    digits.push_back({k, d < 0});
    v -= d;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

class StrengthReduction final : public Pass {
 public:
  std::string_view name() const override { return "strength-reduction"; }
  std::string_view description() const override {
    return "HLS pass: integer multiply by a constant with <= 3 nonzero CSD digits -> shifts "
           "and adds/subtracts (fewer DSPs, more ops)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations())
      for (InstrId i : m.instructions(c))
        if (m.is_live(i) && m.opcode(i) == Opcode::kMultiply) changed |= reduce(m, c, i);
    return changed;
  }

 private:
  static bool reduce(ir::Module& m, ir::CompId c, InstrId i) {
    const ir::Shape& shape = m.shape(i);
    const ir::ElementType t = shape.element_type();
    if (!shape.is_array() || !ir::is_integral(t)) return false;
    InstrId x = m.operand(i, 0);
    std::optional<int64_t> k = hls::uniform_int(m, m.operand(i, 1));
    if (!k) {
      x = m.operand(i, 1);
      k = hls::uniform_int(m, m.operand(i, 0));
    }
    if (!k || hls::uniform_int(m, x)) return false;  // constant * constant: a folder's job
    if (!(m.shape(x) == shape)) return false;
    const std::vector<Digit> digits = csd_digits(*k, ir::bit_width(t));
    if (digits.empty() || static_cast<int>(digits.size()) > kMaxDigits) return false;
    if (digits.size() == 1 && digits[0].position == 0 && !digits[0].negative) return false;  // x*1
    replace_instruction(m, i, shift_add_form(m, c, x, digits));
    return true;
  }

  static InstrId shifted(ir::Module& m, ir::CompId c, InstrId x, int position) {
    if (position == 0) return x;
    const InstrId amount = hls::splat_int(m, c, m.shape(x).element_type(), position, m.shape(x));
    return hls::make_elementwise(m, c, Opcode::kShiftLeft, x, amount);
  }

  // sum(d_k (x << k)), starting from a positive digit where there is one so that a
  // negate is needed only when every digit is negative.
  static InstrId shift_add_form(ir::Module& m, ir::CompId c, InstrId x, const std::vector<Digit>& digits) {
    size_t first = 0;
    while (first < digits.size() && digits[first].negative) ++first;
    InstrId acc;
    if (first == digits.size()) {
      first = 0;
      acc = hls::make_elementwise(m, c, Opcode::kNegate, shifted(m, c, x, digits[0].position));
    } else {
      acc = shifted(m, c, x, digits[first].position);
    }
    for (size_t k = 0; k < digits.size(); ++k) {
      if (k == first) continue;
      const Opcode op = digits[k].negative ? Opcode::kSubtract : Opcode::kAdd;
      acc = hls::make_elementwise(m, c, op, acc, shifted(m, c, x, digits[k].position));
    }
    return acc;
  }
};

}  // namespace

PassPtr make_strength_reduction() { return std::make_unique<StrengthReduction>(); }

}  // namespace hlsgym::passes
