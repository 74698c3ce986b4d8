// Operand values for the float unit tests: a stratified set of a format's values (both
// signs of every exponent, specials, subnormals, edge and tie-making fractions) whose
// pairs are tried exhaustively, and random floats and integers weighted toward the cases
// rounding, overflow and NaN handling get wrong.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "rtl/float_units.h"

namespace hlsgym::testing {

struct FloatBits {
  const rtl::FloatFormat& f;
  uint64_t pack(uint64_t sign, uint64_t exp, uint64_t frac) const {
    return (sign << (f.width() - 1)) | (exp << f.fraction_bits) | (frac & frac_mask());
  }
  uint64_t frac_mask() const { return (uint64_t{1} << f.fraction_bits) - 1; }
  uint64_t max_exp() const { return static_cast<uint64_t>(f.max_exponent_field()); }
  // Fractions that make exact results, ties and carries: 0, all ones, 1, one half, one
  // half + 1, all ones - 1, alternating bits, one half - 1.
  std::vector<uint64_t> edge_fractions() const {
    const uint64_t m = frac_mask(), half = uint64_t{1} << (f.fraction_bits - 1);
    return {0, m, 1, half, half + 1, m - 1, m / 3, half - 1};
  }
};

// `count` distinct values of format f: the specials of both signs (zeros, infinities,
// quiet and signaling NaNs, the smallest and largest subnormal and normal, one), then
// round after round over every exponent -- the extremes first -- and both signs, with
// the edge fractions and then random ones.
inline std::vector<uint64_t> stratified_values(const rtl::FloatFormat& f, size_t count, uint64_t seed) {
  const FloatBits fb{f};
  const uint64_t m = fb.frac_mask(), top = fb.max_exp(), quiet = uint64_t{1} << (f.fraction_bits - 1);
  std::vector<uint64_t> out;
  std::set<uint64_t> seen;
  auto add = [&](uint64_t v) {
    if (out.size() < count && seen.insert(v).second) out.push_back(v);
  };
  for (uint64_t s : {0, 1}) {
    for (uint64_t v : {fb.pack(s, 0, 0), fb.pack(s, top, 0), fb.pack(s, top, quiet), fb.pack(s, top, quiet | 1), fb.pack(s, top, 1),
                       fb.pack(s, top, m), fb.pack(s, 0, 1), fb.pack(s, 0, m), fb.pack(s, 1, 0), fb.pack(s, top - 1, m),
                       fb.pack(s, static_cast<uint64_t>(f.bias()), 0)})
      add(v);
  }
  std::vector<uint64_t> exponents;
  for (uint64_t lo = 0, hi = top; lo <= hi; ++lo, --hi) {
    exponents.push_back(lo);
    if (hi != lo) exponents.push_back(hi);
  }
  std::mt19937_64 rng(seed);
  const std::vector<uint64_t> edges = fb.edge_fractions();
  for (size_t round = 0; out.size() < count; ++round)
    for (uint64_t e : exponents)
      for (uint64_t s : {0, 1}) add(fb.pack(s, e, round < edges.size() ? edges[round] : rng()));
  return out;
}

// A random value of format f: specials, subnormals, the ends of the exponent range,
// integers and halves (converts), short fractions (exact or tie products), values near
// `other` (cancellation and ties in a sum), else uniform bits.
inline uint64_t weighted_float(const rtl::FloatFormat& f, std::mt19937_64& rng, uint64_t other) {
  const FloatBits fb{f};
  const uint64_t top = fb.max_exp(), s = rng() & 1, bias = static_cast<uint64_t>(f.bias());
  const uint64_t r = rng();
  switch (rng() % 16) {
    case 0: {
      const uint64_t frac = (rng() & 3) == 0 ? 0 : rng() & fb.frac_mask();
      return fb.pack(s, (rng() & 1) ? top : 0, frac);  // zero, infinity, NaN, subnormal
    }
    case 1: return fb.pack(s, 0, r);
    case 2: return fb.pack(s, top - 1 - r % 3, rng());
    case 3: return fb.pack(s, 1 + r % 3, rng());
    case 4: {  // |v| in [1/2, 2^64]: trailing fraction bits cleared, so integers and halves come up
      const uint64_t e = std::min<uint64_t>(top - 1, bias - 1 + r % 66);
      return fb.pack(s, e, rng() & ~((uint64_t{1} << (rng() % (f.fraction_bits + 1))) - 1));
    }
    case 5: return fb.pack(s, r % top, fb.edge_fractions()[rng() % 8]);
    case 6: return fb.pack(s, r % (top + 1), rng() & ~(fb.frac_mask() >> (1 + rng() % 4)));
    case 7: case 8: {
      const uint64_t oe = (other >> f.fraction_bits) & top;
      const uint64_t e = std::clamp<int64_t>(static_cast<int64_t>(oe) + static_cast<int64_t>(r % 5) - 2, 0,
                                             static_cast<int64_t>(top));
      return fb.pack(s, e, (other & fb.frac_mask()) + rng() % 7 - 3);
    }
    default: return r & ((uint64_t{1} << f.width()) - 1);
  }
}

// A random 64-bit integer (a narrower source takes its low bits): small values, powers of
// two and their neighbours, values an odd distance past a rounding tie at 8, 11, 24 or 53
// bits (where rounding once or twice differ), else random bit lengths, sign-extended or not.
inline uint64_t weighted_int(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const int len = 1 + static_cast<int>(rng() % 64);
  auto negate_maybe = [&](uint64_t v) { return (rng() & 1) ? ~v + 1 : v; };
  switch (rng() % 8) {
    case 0: return negate_maybe(r % 17);
    case 1: return negate_maybe((uint64_t{1} << (len - 1)) + r % 3 - 1);
    case 2: case 3: {
      const int precisions[] = {8, 11, 24, 53};
      const int p = precisions[rng() % 4];
      const int k = p + static_cast<int>(rng() % (64 - p));
      const uint64_t v = (uint64_t{1} << k) + (uint64_t{1} << (k - p)) + r % 3 - 1;
      return negate_maybe(v);
    }
    default: {
      const uint64_t v = len == 64 ? r : r & ((uint64_t{1} << len) - 1);
      return (rng() & 1) && len < 64 && ((v >> (len - 1)) & 1) ? v | (~uint64_t{0} << len) : v;
    }
  }
}

}  // namespace hlsgym::testing
