#include "ir/fixed_format.h"

#include <cctype>
#include <cmath>
#include <string_view>
#include <vector>

#include "ir/error.h"

namespace hlsgym::ir {
namespace {

std::string without_spaces(const std::string& s) {
  std::string r;
  for (char ch : s)
    if (!std::isspace(static_cast<unsigned char>(ch))) r += ch;
  return r;
}

bool parse_int(std::string_view s, int& v) {
  if (s.empty() || s.size() > 6) return false;
  size_t k = s[0] == '-' ? 1 : 0;
  if (k == s.size()) return false;
  int r = 0;
  for (; k < s.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
    r = r * 10 + (s[k] - '0');
  }
  v = s[0] == '-' ? -r : r;
  return true;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts(1);
  for (char ch : s) {
    if (ch == ',') parts.emplace_back();
    else parts.back() += ch;
  }
  return parts;
}

[[noreturn]] void refuse(const std::string& spec, const std::string& why) {
  throw Error("precision '" + spec + "': " + why + "; supported: " + fixed_formats_supported());
}

// floor(x / 2^s) for s >= 0.
i128 floor_shift(i128 x, int s) { return s >= 127 ? (x < 0 ? -1 : 0) : x >> s; }

}  // namespace

const char* fixed_formats_supported() {
  return "ap_fixed<W,I[,Q[,O]]> or W,I with 2 <= W <= 64 and -64 < W-I < 64, Q one of AP_TRN, AP_RND, "
         "AP_RND_CONV (default AP_TRN), O one of AP_WRAP, AP_SAT (default AP_WRAP)";
}

FixedFormat parse_fixed_format(const std::string& spec) {
  std::string s = without_spaces(spec);
  const std::string prefix = "ap_fixed<";
  const bool templated = s.rfind(prefix, 0) == 0;
  if (templated) {
    if (s.back() != '>') refuse(spec, "expected a closing '>'");
    s = s.substr(prefix.size(), s.size() - prefix.size() - 1);
  } else if (s.find_first_of("<>") != std::string::npos) {
    refuse(spec, "only ap_fixed is supported (ap_ufixed, ap_int and others are not)");
  }
  const std::vector<std::string> p = split_commas(s);
  if (p.size() < 2 || p.size() > 5 || (!templated && p.size() != 2)) refuse(spec, "expected W,I");
  FixedFormat f;
  if (!parse_int(p[0], f.width) || !parse_int(p[1], f.integer_bits)) refuse(spec, "W and I must be integers");
  if (f.width < 2 || f.width > 64) refuse(spec, "width " + p[0] + " is outside 2..64");
  if (f.fraction_bits() <= -64 || f.fraction_bits() >= 64)
    refuse(spec, "W - I = " + std::to_string(f.fraction_bits()) + " fraction bits is outside -63..63");
  if (p.size() >= 3) {
    if (p[2] == "AP_TRN") f.rounding = FixedRounding::kTruncate;
    else if (p[2] == "AP_RND") f.rounding = FixedRounding::kRound;
    else if (p[2] == "AP_RND_CONV") f.rounding = FixedRounding::kRoundConvergent;
    else refuse(spec, "quantization mode " + p[2] + " is not supported");
  }
  if (p.size() >= 4) {
    if (p[3] == "AP_WRAP") f.overflow = FixedOverflow::kWrap;
    else if (p[3] == "AP_SAT") f.overflow = FixedOverflow::kSaturate;
    else refuse(spec, "overflow mode " + p[3] + " is not supported");
  }
  if (p.size() == 5) refuse(spec, "the saturation-bits parameter N is not supported");
  return f;
}

std::string to_string(const FixedFormat& f) {
  static const char* kQ[] = {"AP_TRN", "AP_RND", "AP_RND_CONV"};
  static const char* kO[] = {"AP_WRAP", "AP_SAT"};
  return "ap_fixed<" + std::to_string(f.width) + "," + std::to_string(f.integer_bits) + "," +
         kQ[static_cast<int>(f.rounding)] + "," + kO[static_cast<int>(f.overflow)] + ">";
}

ElementType fixed_container(int bits) {
  if (bits <= 8) return ElementType::kS8;
  if (bits <= 16) return ElementType::kS16;
  if (bits <= 32) return ElementType::kS32;
  if (bits <= 64) return ElementType::kS64;
  return ElementType::kInvalid;
}

int64_t fixed_max(const FixedFormat& f) { return static_cast<int64_t>((i128{1} << (f.width - 1)) - 1); }
int64_t fixed_min(const FixedFormat& f) { return static_cast<int64_t>(-(i128{1} << (f.width - 1))); }

int64_t requantize(i128 x, int from_fraction_bits, const FixedFormat& f) {
  return requantize(x, from_fraction_bits, false, f);
}

int64_t requantize(i128 x, int from_fraction_bits, bool sticky, const FixedFormat& f) {
  const int s = from_fraction_bits - f.fraction_bits();
  i128 y;
  if (s <= 0) {
    y = x << -s;  // callers keep |x| below 2^(127 + s)
  } else {
    y = floor_shift(x, s);
    const i128 low = x - (y << s);  // in [0, 2^s)
    const i128 half = i128{1} << (s - 1);
    if (f.rounding == FixedRounding::kRound && low >= half) ++y;
    if (f.rounding == FixedRounding::kRoundConvergent && (low > half || (low == half && (sticky || (y & 1))))) ++y;
  }
  if (f.overflow == FixedOverflow::kSaturate) {
    if (y > fixed_max(f)) return fixed_max(f);
    if (y < fixed_min(f)) return fixed_min(f);
    return static_cast<int64_t>(y);
  }
  const int drop = 128 - f.width;
  return static_cast<int64_t>(static_cast<i128>(static_cast<unsigned __int128>(y) << drop) >> drop);
}

int64_t quantize_real(long double v, const FixedFormat& f) {
  if (std::isnan(v)) return 0;
  if (std::isinf(v)) return v > 0 ? fixed_max(f) : fixed_min(f);  // (a max-reduction's -inf start, in any mode)
  // v as an integer with 20 guard bits below the format's lowest bit, then requantized
  // (ties and stickiness decided exactly for the doubles a design holds)
  const long double limit = std::ldexp(1.0L, 100);
  const long double scaled = std::ldexp(std::fmax(std::fmin(v, limit), -limit), f.fraction_bits() + 20);
  const long double floor_scaled = std::floor(std::fmax(std::fmin(scaled, std::ldexp(1.0L, 125)), -std::ldexp(1.0L, 125)));
  return requantize(static_cast<i128>(floor_scaled), f.fraction_bits() + 20, floor_scaled != scaled, f);
}

long double fixed_value(int64_t x, const FixedFormat& f) { return std::ldexp(static_cast<long double>(x), -f.fraction_bits()); }

}  // namespace hlsgym::ir
