#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/error.h"
#include "ir/float_formats.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir::transcendental {

Format format_of(ElementType t) {
  switch (t) {
    case ElementType::kF32: return {t, 8, 23};
    case ElementType::kBF16: return {t, 8, 7};
    case ElementType::kF16: return {t, 5, 10};
    default:
      throw Error("transcendental units: no unit for element type " + std::string(element_type_name(t)) +
                  " (f32, f16 and bf16 have them)");
  }
}

Decoded decode(FxBuilder& b, const Format& f, V x) {
  Decoded d;
  d.bits = x;
  d.sign = b.bit(x, f.width() - 1);
  d.field = b.slice(x, f.width() - 2, f.f);
  d.frac = b.slice(x, f.f - 1, 0);
  const V field_zero = b.is(d.field, 0), field_max = b.is(d.field, static_cast<u128>(f.max_field()));
  const V frac_zero = b.is(d.frac, 0);
  d.nan = b.and_(field_max, b.not_(frac_zero));
  d.inf = b.and_(field_max, frac_zero);
  d.zero = b.and_(field_zero, frac_zero);
  d.sig = b.concat(b.not_(field_zero), d.frac);
  d.eexp = b.mux(field_zero, b.constant(f.e, 1), d.field);
  return d;
}

V quiet_nan(FxBuilder& b, const Format& f, V x) {
  const u128 quiet = u128{1} << (f.f - 1);
  if (f.type != ElementType::kF16) return b.or_(x, b.constant(f.width(), quiet));
  const u128 sign_and_exponent = ((u128{1} << (1 + f.e)) - 1) << f.f;
  return b.or_(b.and_(x, b.constant(f.width(), sign_and_exponent)), b.constant(f.width(), quiet));
}

V default_nan(FxBuilder& b, const Format& f) {
  return b.constant(f.width(), double_to_float_bits(f.type, std::bit_cast<float>(0xffc00000u)));
}

V infinity(FxBuilder& b, const Format& f, bool negative) {
  return b.constant(f.width(), (u128{negative} << (f.width() - 1)) | (static_cast<u128>(f.max_field()) << f.f));
}

V float_constant(FxBuilder& b, const Format& f, long double v) {
  return b.constant(f.width(), double_to_float_bits(f.type, static_cast<double>(v)));
}

V at_least(FxBuilder& b, V e, int64_t k) {
  if (k >= (int64_t{1} << b.width(e))) return b.constant(1, 0);
  return b.not_(b.less(e, b.constant(b.width(e), static_cast<u128>(k))));
}

V fixed_magnitude(FxBuilder& b, const Format& f, const Decoded& d, int int_bits, int frac_bits) {
  // the significand's top bit at the top of int_bits + frac_bits stands for 2^(int_bits - 1);
  // it stands for 2^(eexp - bias): shift right by the difference
  const V top = b.shl(d.sig, int_bits + frac_bits - f.p());
  const V amount = b.sub(b.constant(f.e + 1, static_cast<u128>(f.bias() + int_bits - 1)), d.eexp, f.e + 1);
  return b.shr_var(top, amount);
}

const FxProgram& cached_program(const std::string& name, const std::function<FxProgram()>& build) {
  static std::mutex mutex;
  static std::map<std::string, FxProgram> built;  // a map: references stay valid as it grows
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = built.find(name);
  if (it == built.end()) it = built.emplace(name, build()).first;
  return it->second;
}

Normalized normalize(FxBuilder& b, const Format& f, const Decoded& d, int exponent_bits) {
  const V lz = b.leading_zeros(d.sig);
  return {b.shl_var(d.sig, lz, f.p()), b.sub(b.resize(d.eexp, exponent_bits), b.resize(lz, exponent_bits), exponent_bits)};
}

V with_pair_nan(FxBuilder& b, const Format& f, const Decoded& first, const Decoded& second, V value) {
  const V nan = b.mux(first.nan, quiet_nan(b, f, first.bits), quiet_nan(b, f, second.bits));
  return b.mux(b.or_(first.nan, second.nan), nan, value);
}

uint64_t run_pair_unit(const FxProgram& p, const Format& f, uint64_t low_bits, uint64_t high_bits) {
  const uint64_t m = (uint64_t{1} << f.width()) - 1;
  return run_unit(p, ((high_bits & m) << f.width()) | (low_bits & m));
}

uint64_t run_unit(const FxProgram& p, uint64_t bits) {
  return static_cast<uint64_t>(run(p, bits & ((u128{1} << p.input_width) - 1)));
}

int ceil_log2(long double x) {
  int n = 0;
  while (std::ldexp(1.0L, n) < x) ++n;
  return n;
}

namespace {

// The degree-d polynomial (coefficients of t^0..t^d) through g at d + 1 Chebyshev nodes of [0, 1].
std::vector<long double> chebyshev_fit(const std::function<long double(long double)>& g, int d) {
  const int n = d + 1;
  std::vector<std::vector<long double>> a(static_cast<size_t>(n), std::vector<long double>(static_cast<size_t>(n + 1)));
  for (int i = 0; i < n; ++i) {
    const long double t = (1 - std::cos(std::acos(-1.0L) * (2 * i + 1) / (2 * n))) / 2;
    long double pw = 1;
    for (int k = 0; k < n; ++k, pw *= t) a[i][k] = pw;
    a[i][n] = g(t);
  }
  for (int c = 0; c < n; ++c) {  // Gauss-Jordan with partial pivoting
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
    std::swap(a[c], a[piv]);
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const long double m = a[r][c] / a[c][c];
      for (int k = c; k <= n; ++k) a[r][k] -= m * a[c][k];
    }
  }
  std::vector<long double> coef(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) coef[k] = a[k][n] / a[k][k];
  return coef;
}

// The worst error of the rounded coefficients on 65 points of the segment, relative to g's
// smallest magnitude there.
long double relative_error(const std::function<long double(long double)>& g, const std::vector<int64_t>& q, int fraction) {
  long double worst = 0, smallest = INFINITY;
  for (int s = 0; s <= 64; ++s) {
    const long double t = s / 64.0L, want = g(t);
    long double got = 0;
    for (size_t k = q.size(); k-- > 0;) got = got * t + std::ldexp(static_cast<long double>(q[k]), -fraction);
    worst = std::max(worst, std::fabs(got - want));
    smallest = std::min(smallest, std::fabs(want));
  }
  return smallest > 0 ? worst / smallest : worst;
}

}  // namespace

Polynomial segment_polynomial(FxBuilder& b, V index, V t, const SegmentFn& g, int fraction, int target_bits,
                              const char* what) {
  const int64_t segments = int64_t{1} << b.width(index);
  const long double target = std::ldexp(1.0L, -target_bits);
  for (int d = 1; d <= 7; ++d) {
    std::vector<std::vector<int64_t>> coef(static_cast<size_t>(segments));  // empty: segment unused
    bool ok = true;
    for (int64_t j = 0; j < segments && ok; ++j) {
      if (!g(j, 0.5L)) continue;
      auto gj = [&](long double tt) { return *g(j, tt); };
      for (long double c : chebyshev_fit(gj, d)) coef[j].push_back(std::llround(std::ldexp(c, fraction)));
      ok = relative_error(gj, coef[j], fraction) < target;
    }
    if (!ok) continue;
    // h = c_d; h = c_k + h t, from the top coefficient down; each table read in its stage
    const int w = fraction + 3, tb = b.width(t);
    auto table_of = [&](int k) {
      std::vector<u128> entries(static_cast<size_t>(segments));
      for (int64_t j = 0; j < segments; ++j)
        if (!coef[j].empty()) entries[j] = static_cast<u128>(static_cast<__int128>(coef[j][static_cast<size_t>(k)]));
      return b.table(index, std::move(entries), w);
    };
    // |h| < 2^e before the step that adds c_k: the higher coefficients' magnitudes (t < 1)
    // and the truncations'. The multiply then needs h's low fraction + e + 2 bits and t's
    // top fraction + e + 1 (what it drops is below 2^-(fraction + 1)): the high terms,
    // small on a short segment, take narrow multipliers.
    auto magnitude_bits = [&](int k) {
      long double m = std::ldexp(static_cast<long double>(d + 1), -fraction);
      for (const std::vector<int64_t>& cj : coef) {
        long double s = 0;
        for (size_t i = static_cast<size_t>(k + 1); i < cj.size(); ++i) s += std::fabs(std::ldexp(static_cast<long double>(cj[i]), -fraction));
        m = std::max(m, s + std::ldexp(static_cast<long double>(d + 1), -fraction));
      }
      int e = -fraction;
      while (std::ldexp(1.0L, e) <= m) ++e;
      return e;
    };
    V h = table_of(d);
    for (int k = d - 1; k >= 0; --k) {
      b.next_stage();
      const int e = magnitude_bits(k);
      const int wh = std::clamp(fraction + e + 2, 2, w), tk = std::clamp(fraction + e + 1, 1, tb);
      const V t_top = b.concat(b.constant(1, 0), b.slice(t, tb - 1, tb - tk));
      const V product = b.mul_signed(b.resize(h, wh), t_top, wh + tk + 1);
      h = b.add(table_of(k), b.sext(b.slice(product, tk + wh - 1, tk), w), w);
    }
    return {h, fraction, d};
  }
  throw std::logic_error(std::string("transcendental units: no polynomial of degree <= 7 meets the precision of ") + what);
}

}  // namespace hlsgym::ir::transcendental
