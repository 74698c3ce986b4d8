// Value ranges of integer values, and the bits a memory word needs to hold them.
//
// One forward interval pass over the entry computation (linear in its instructions): each
// integer value of at most 32 bits or s64 gets a range [lo, hi] every element it can take lies
// in (a parameter: its whole type; a constant: its elements; `and` with a non-negative
// mask: 0 .. mask; clamp, max, min, add, multiply, converts and data movement as their
// semantics bound them, a shift left by a constant; a result that could wrap: its whole
// type). A loop fusion's body is ranged from its operands (its root is the fusion's
// value); values of other called computations (loop states and bodies, branches, calls)
// and of ops the pass does not know take their whole type.
//
// The storage decision (`stored_bits`) is what both views of the hardware read: the
// estimate (binding.cc: a register track's word bits and flip-flops) and the Verilog
// (rtl/: a buffer's words are that wide, the value truncated on write and sign- or
// zero-extended back to its type on read). Only computed entry values narrow (an input's
// words are written by the host at type width); and not a value a product reads, through
// data movement, converts, selects, max/min/clamp or aliases (they keep its sign-extension
// visible): synthesis would cut such a multiplier into fewer DSP blocks than its type's
// width, which the estimate prices (hwmodel/unit_model.h).
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace hlsgym::hwmodel {

struct ValueRange {
  bool known = false;  // false: no range (floats, 64-bit integers, tuples)
  int64_t lo = 0, hi = 0;
};

// Bits that hold every value in r: unsigned (zero-extended) when lo >= 0, else two's
// complement (sign-extended); *sign_extend says which. At least 1.
int range_bits(ValueRange r, bool* sign_extend);

// The whole range of an integer (or pred) element type of at most 32 bits or s64; unknown else.
ValueRange type_range(ir::ElementType t);

struct ValueBits {
  std::vector<ValueRange> range;  // by InstrId (entry instructions; others unknown)
  // By InstrId: the bits each word of its buffer holds, 0 when its type's datapath width
  // (not narrowed); `sign_extend` how a read widens it back.
  std::vector<uint8_t> stored_bits;
  std::vector<uint8_t> sign_extend;
  // By InstrId: the low bits of its operands its result depends on, 0 when all (an `and`
  // with a non-negative constant mask reads only the mask's bits): a read port's register
  // keeps only those, synthesis drops the rest with their multiplexer.
  std::vector<uint8_t> operand_bits;
  int stored(ir::InstrId i) const { return i < stored_bits.size() ? stored_bits[i] : 0; }
  int demanded(ir::InstrId i) const { return i < operand_bits.size() ? operand_bits[i] : 0; }
  bool sign(ir::InstrId i) const { return i < sign_extend.size() && sign_extend[i] != 0; }
  ValueRange value_range(ir::InstrId i) const { return i < range.size() ? range[i] : ValueRange{}; }
};

ValueBits analyze_value_bits(const ir::Module& m);

// The width of the divider a signed integer divide or remainder `i` needs: its operands'
// two's-complement bits from their ranges, one more (so MIN / -1 cannot overflow), at most
// its type's. A fixed-point quotient (rtl/fixed_point.cc) divides in an s64 container a
// dividend of W + F + 2 bits: rtl builds its array divider at this width and sign-extends
// the result (x / 0 = -1 and x % 0 = x hold at any width), the estimate prices it so
// (int_divide_luts). Unsigned divides and operands without a range: the type's width.
int divider_bits(const ir::Module& m, ir::InstrId i, const ValueBits& vb);

}  // namespace hlsgym::hwmodel
