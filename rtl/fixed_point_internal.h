// The integer arithmetic rtl/fixed_point.cc builds into the quantized module: values in
// a signed container with a known binary point, widened, shifted, rounded and narrowed
// exactly as ir/fixed_format.h's reference (requantize) defines.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ir/fixed_format.h"
#include "ir/module.h"

namespace hlsgym::rtl::fixed {

// An integer value `id` standing for id * 2^-frac. Exact: it fits in `bits`-bit two's
// complement (bits <= the container's width). Modular: only its residue modulo 2^(the
// container's width) is right, which is all an AP_WRAP result needs.
struct Fx {
  ir::InstrId id = ir::kNoId;
  int bits = 0;
  int frac = 0;
  bool modular = false;
};

class Builder {
 public:
  // `refuse(why)` throws the user's error for the op being rewritten.
  Builder(ir::Module& m, ir::CompId c, std::function<void(const std::string&)> refuse)
      : m_(m), c_(c), refuse_(std::move(refuse)) {}

  ir::ElementType type(ir::InstrId x) const { return m_.shape(x).element_type(); }
  int container_width(ir::InstrId x) const { return ir::bit_width(type(x)); }
  ir::InstrId splat(ir::ElementType t, int64_t v, const std::vector<int64_t>& dims);
  ir::InstrId cast(ir::InstrId x, ir::ElementType t);
  ir::InstrId unary(ir::Opcode op, ir::InstrId x);
  ir::InstrId binary(ir::Opcode op, ir::InstrId a, ir::InstrId b);
  ir::InstrId shift_left(ir::InstrId x, int k);
  ir::InstrId shift_right(ir::InstrId x, int k);  // arithmetic
  ir::InstrId and_const(ir::InstrId x, int64_t mask);
  ir::InstrId add_const(ir::InstrId x, int64_t k);
  ir::InstrId compare(ir::InstrId a, ir::InstrId b, ir::ComparisonDirection d);  // a pred array
  ir::InstrId select(ir::InstrId p, ir::InstrId a, ir::InstrId b);
  // x's value rounded toward zero to an integer (HLO's float -> integer convert).
  ir::InstrId truncate_to_integer(Fx x);

  // The container an intermediate of `exact_bits` needs on its way to `to`, dropping
  // `shift` low bits: exact where it fits in 64 bits; for AP_WRAP, also modular in fewer
  // bits when the bits that survive (to.width + shift, + 1 to round) fit. Refuses past 64.
  Fx work(ir::InstrId x, int exact_bits, int frac, const ir::FixedFormat& to);
  // x in a container of at least `bits` bits (exact, or modular when it already is).
  Fx widen(Fx x, int bits);
  // x * 2^k, k >= 0, exact in a container of x.bits + k bits (or modular, for `to`).
  Fx align(Fx x, int k, const ir::FixedFormat& to);
  // x put into `to`: rounded by to's mode where low bits go (a non-zero `sticky`, a
  // 0/1 integer of x's type and dims, says the exact value lies above x), then wrapped
  // or saturated into to.width bits, in to's container.
  ir::InstrId rescale(Fx x, const ir::FixedFormat& to, ir::InstrId sticky = ir::kNoId);

  // f(x) for x in format `in`, into `out`, as hls4ml computes a transcendental: a table
  // (a constant read by a gather) indexed by x's top kTableBits bits, holding f at each
  // segment's start with kGuardBits more fraction bits than `out` (rounded to nearest;
  // up to 16 more integer bits, so lines leaving out's range stay right); up to
  // kTableBits-bit inputs that is every value of x (the entries then are f rounded by
  // out's own modes), else the low bits interpolate linearly to the next segment's
  // start, and the line is rounded and wrapped or saturated by out's modes. Outside f's domain (log or sqrt of a negative) the table
  // holds 0; +-inf saturates.
  static constexpr int kTableBits = 10;
  static constexpr int kGuardBits = 8;
  ir::InstrId function_table(Fx x, const ir::FixedFormat& in, const ir::FixedFormat& out,
                             const std::function<long double(long double)>& f);
  // table[index], index an integer array (clamped into the table, as gather does).
  ir::InstrId lookup(ir::InstrId index, const std::vector<int64_t>& table, int bits);

 private:
  ir::InstrId round_off(Fx& x, int s, ir::FixedRounding mode, ir::InstrId sticky);
  // `shifted` (x shifted right, exact) in the container of its `bits` when that is
  // narrower than x's: a product's 64-bit container need not carry the rounding's add,
  // the clamp and the value on to the next op (the convert is wiring, chaining.h).
  ir::InstrId fit(const Fx& x, ir::InstrId shifted, int bits);
  ir::InstrId narrow(Fx y, const ir::FixedFormat& to);

  ir::Module& m_;
  ir::CompId c_;
  std::function<void(const std::string&)> refuse_;
};

// Rewrites every float atan2 into ops with fixed-point forms (fixed_point_atan2.cc).
void expand_atan2(ir::Module& m);

}  // namespace hlsgym::rtl::fixed
