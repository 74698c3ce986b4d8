// Private to float_unit*.cc: the datapath pieces the float units share -- operand
// fields, NaN results, leading-zero count, shifts that keep a sticky bit, and the one
// normalize / round-to-nearest-even / pack every rounding unit ends with.
//
// Exponents inside a unit are two's complement bit vectors of a width the unit picks
// (wide enough for its range), compared through their sign bit, so the Verilog has no
// `signed` arithmetic to get wrong.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "rtl/float_unit_pipeline.h"
#include "rtl/float_units.h"

namespace hlsgym::rtl::float_detail {

// `e` (of `from` bits) zero-extended to `to` bits.
std::string zext(const std::string& e, int from, int to);
// Bits to hold 0..max.
int bits_for(int64_t max);

// The fields and classes of one float operand, made on first use (so a unit declares
// only what it reads) in the stage current at that use.
class Operand {
 public:
  Operand(Pipeline& p, const FloatFormat& f, std::string prefix, Sig bits)
      : p_(p), f_(f), prefix_(std::move(prefix)), bits_(std::move(bits)) {}
  const Sig& bits() const { return bits_; }
  const FloatFormat& format() const { return f_; }
  Sig sign();
  Sig exponent();     // the biased exponent field
  Sig fraction();
  Sig magnitude();    // all bits but the sign: ordered like the magnitudes
  Sig is_nan();
  Sig is_inf();
  Sig is_zero();
  Sig significand();  // precision() bits: the hidden bit (0 for subnormals) and the fraction
  // The exponent the significand is scaled by, biased: the field, or 1 for subnormals.
  Sig effective_exponent();
  // This NaN as a result (quiet bit set; payload kept or not, by the format) with sign `sign`.
  std::string quieted(const std::string& sign);

 private:
  Sig field(const std::string& what, int width, const std::function<std::string()>& expr);
  Pipeline& p_;
  FloatFormat f_;
  std::string prefix_;
  Sig bits_;
  std::map<std::string, Sig> made_;
};

// An f32 NaN as the interpreter narrows it to format `f` (ir::double_to_float_bits), as a
// sized constant: x86's default NaN 0xffc00000 of an invalid operation (inf - inf, 0 x
// inf, 0 / 0, sqrt(-1)) and std::numeric_limits<float>::quiet_NaN() 0x7fc00000 of min/max.
std::string narrowed_nan(const FloatFormat& f, uint32_t f32_bits);
inline constexpr uint32_t kX86DefaultNaN = 0xffc00000u;
std::string quiet_nan_of_min_max(const FloatFormat& f);

// Leading zeros of `x` (x.width when x is 0), in bits_for(x.width) bits: a tree of
// halves, padded to a power of two with a one below the value.
Sig leading_zeros(Pipeline& p, const std::string& prefix, const Sig& x);

struct Shifted {
  Sig value, sticky;  // sticky: some one bit was shifted out
};
// `x` shifted right by `amount` (any width; shifts of x.width or more give 0).
Shifted shift_right_sticky(Pipeline& p, const std::string& prefix, const Sig& x, const Sig& amount);

// A rounding unit's exact result before normalization: value = sig x 2^(top - bias -
// (sig.width - 1)) plus, when `has_sticky` and `sticky` is set, something less than the
// lowest bit of sig; `top` (two's complement) is the biased exponent the top bit of sig
// stands for.
struct Unnormalized {
  Sig sig, top;
  Sig sticky = {};
  bool has_sticky = false;
  // Whether `top` may be below 1 (a result under the subnormal range's scale, shifted
  // right); a sum's never is (an addend's exponent is at least 1), nor a widening convert's.
  bool may_underflow = true;
};
struct Normalized {
  Sig sig;          // the significand's leading one at the top, or a subnormal's scale
  Sig sticky;       // bits below sig were nonzero
  Sig field;        // the biased exponent field (0: subnormal or zero), unclamped
};
// Shifts left by the leading zeros while the exponent stays >= 1 (a subnormal stops at
// exponent 1 with field 0), or right when `top` < 1. The result keeps precision + 1 bits
// (a guard bit): every bit below them, and any shifted out, goes into the sticky bit. A
// zero significand gives field 0. Needs sig.width >= precision + 1.
Normalized normalize(Pipeline& p, const FloatFormat& f, const std::string& prefix, const Unnormalized& u);

// Round to nearest even and pack {sign, field, fraction}: the rounding carry may make a
// subnormal normal or a normal infinite; a field at or above the maximum is infinity.
// Needs sig.width >= precision + 1 (a guard bit).
Sig round_and_pack(Pipeline& p, const FloatFormat& f, const std::string& prefix, const std::string& sign,
                   const Normalized& n);

// {sign, infinity} of the format.
std::string infinity(const FloatFormat& f, const std::string& sign);

}  // namespace hlsgym::rtl::float_detail
