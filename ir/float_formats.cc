#include "ir/float_formats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

namespace hlsgym::ir {

float f16_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t float_to_f16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return sign | 0x7e00u;  // NaN
  if (a >= 0x477ff000u) return sign | 0x7c00u;  // overflow (>= 65520) -> inf
  if (a < 0x38800000u) {                        // subnormal or zero in f16
    float v = std::bit_cast<float>(a);
    // v * 2^24 rounded to nearest even gives the subnormal mantissa.
    float scaled = v * 16777216.0f;
    uint32_t m = static_cast<uint32_t>(std::nearbyint(scaled));
    return sign | static_cast<uint16_t>(m);
  }
  uint32_t exp = (a >> 23) - 112;
  uint32_t man = a & 0x7fffffu;
  uint32_t half = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return sign | static_cast<uint16_t>(half);
}

namespace {

struct MiniFloat {
  int exp_bits, man_bits, bias;
  bool has_inf, has_sign, nan_is_0x80;  // fnuz: 0x80 is NaN, no -0, no inf
  bool all_ones_nan;                    // fn: S.1111.111 is NaN; ieee: exp all ones
  bool ieee;
};

MiniFloat format_of(ElementType t) {
  using enum ElementType;
  switch (t) {
    case kF8E5M2: return {5, 2, 15, true, true, false, false, true};
    case kF8E4M3: return {4, 3, 7, true, true, false, false, true};
    case kF8E3M4: return {3, 4, 3, true, true, false, false, true};
    case kF8E4M3FN: return {4, 3, 7, false, true, false, true, false};
    case kF8E4M3FNUZ: return {4, 3, 8, false, true, true, false, false};
    case kF8E5M2FNUZ: return {5, 2, 16, false, true, true, false, false};
    case kF8E4M3B11FNUZ: return {4, 3, 11, false, true, true, false, false};
    case kF4E2M1FN: return {2, 1, 1, false, true, false, false, false};
    case kF8E8M0FNU: return {8, 0, 127, false, false, false, true, false};
    default: return {0, 0, 0, false, false, false, false, false};
  }
}

double decode_mini(const MiniFloat& f, uint32_t bits) {
  const int total = f.exp_bits + f.man_bits + (f.has_sign ? 1 : 0);
  const uint32_t mask = (1u << total) - 1;
  bits &= mask;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.nan_is_0x80 && bits == (1u << (total - 1))) return nan;
  const bool neg = f.has_sign && (bits >> (total - 1));
  const uint32_t mag = f.has_sign ? bits & (mask >> 1) : bits;
  const uint32_t exp = mag >> f.man_bits;
  const uint32_t man = mag & ((1u << f.man_bits) - 1);
  const uint32_t exp_max = (1u << f.exp_bits) - 1;
  if (f.ieee && exp == exp_max)
    return man ? nan : (neg ? -INFINITY : INFINITY);
  if (f.all_ones_nan && mag == (f.has_sign ? (mask >> 1) : mask)) return nan;
  double v = exp == 0 ? std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits)
                      : std::ldexp(1.0 + std::ldexp(static_cast<double>(man), -f.man_bits),
                                   static_cast<int>(exp) - f.bias);
  if (f.man_bits == 0) v = std::ldexp(1.0, static_cast<int>(exp) - f.bias);  // e8m0: 2^(e-127)
  return neg ? -v : v;
}

// Encodes by nearest-value search over the format's finite values (ties to even code).
struct MiniTable {
  std::vector<std::pair<double, uint32_t>> finite;  // sorted by value, non-negative only
  uint32_t nan_bits = 0, inf_bits = 0, sign_bit = 0;
  bool has_inf = false, has_sign = false, nan_is_0x80 = false;
};

const MiniTable& table_of(ElementType t) {
  static std::array<MiniTable, 40> tables;
  static std::array<std::once_flag, 40> once;
  const int idx = static_cast<int>(t);
  std::call_once(once[idx], [&] {
    MiniFloat f = format_of(t);
    MiniTable& tab = tables[idx];
    const int total = f.exp_bits + f.man_bits + (f.has_sign ? 1 : 0);
    tab.has_inf = f.has_inf;
    tab.has_sign = f.has_sign;
    tab.nan_is_0x80 = f.nan_is_0x80;
    tab.sign_bit = f.has_sign ? 1u << (total - 1) : 0;
    for (uint32_t b = 0; b < (1u << total); ++b) {
      if (f.has_sign && (b & tab.sign_bit)) continue;
      double v = decode_mini(f, b);
      if (std::isnan(v)) tab.nan_bits = b;
      else if (std::isinf(v)) tab.inf_bits = b;
      else tab.finite.push_back({v, b});
    }
    if (f.nan_is_0x80) tab.nan_bits = tab.sign_bit;
    std::sort(tab.finite.begin(), tab.finite.end());
  });
  return tables[idx];
}

uint32_t encode_mini(ElementType t, double v) {
  const MiniTable& tab = table_of(t);
  if (std::isnan(v)) return tab.nan_bits | (tab.nan_is_0x80 ? 0 : 0);
  const bool neg = std::signbit(v);
  if (neg && !tab.has_sign) return tab.nan_bits;  // e8m0 has no negatives
  double a = std::fabs(v);
  const auto& fin = tab.finite;
  uint32_t code;
  const double max = fin.back().first;
  const double ulp_top = max - fin[fin.size() - 2].first;
  if (a > max + ulp_top / 2 || (a == max + ulp_top / 2 && (fin.back().second & 1u))) {
    code = tab.has_inf ? tab.inf_bits : tab.nan_bits;
    if (!tab.has_inf) return tab.nan_bits | (tab.nan_is_0x80 ? 0 : (neg ? tab.sign_bit : 0));
  } else {
    auto it = std::lower_bound(fin.begin(), fin.end(), std::make_pair(a, 0u));
    if (it == fin.end()) it = fin.end() - 1;
    if (it != fin.begin()) {
      auto lo = it - 1;
      double dlo = a - lo->first, dhi = it->first - a;
      if (dlo < dhi || (dlo == dhi && (lo->second & 1u) == 0)) it = lo;
    }
    code = it->second;
  }
  if (neg && !(tab.nan_is_0x80 && code == 0)) code |= tab.sign_bit;  // fnuz has no -0
  return code;
}

}  // namespace

double float_bits_to_double(ElementType t, uint64_t bits) {
  using enum ElementType;
  switch (t) {
    case kF64: return std::bit_cast<double>(bits);
    case kF32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case kBF16: return bf16_to_float(static_cast<uint16_t>(bits));
    case kF16: return f16_to_float(static_cast<uint16_t>(bits));
    default: return decode_mini(format_of(t), static_cast<uint32_t>(bits));
  }
}

uint64_t double_to_float_bits(ElementType t, double v) {
  using enum ElementType;
  switch (t) {
    case kF64: return std::bit_cast<uint64_t>(v);
    case kF32: return std::bit_cast<uint32_t>(static_cast<float>(v));
    case kBF16: return float_to_bf16(static_cast<float>(v));
    case kF16: return float_to_f16(static_cast<float>(v));
    default: return encode_mini(t, v);
  }
}

}  // namespace hlsgym::ir
