#include "ir/integer_power_unit.h"

#include <string>

#include "ir/error.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using V = FxBuilder::V;

FxProgram build(const Format& f, int n) {
  FxBuilder b(f.width());
  const Decoded d = transcendental::decode(b, f);
  const int p = f.p();
  // x = m 2^(e - bias - (p - 1)) with m normalized (its top bit set) and e = eexp - lz,
  // two's complement (a subnormal's e is below 1)
  const V lz = b.leading_zeros(d.sig);
  const V m = b.shl_var(d.sig, lz, p);
  const int64_t top_bound = int64_t{n} * (f.max_field() + p + f.bias()) + n;
  const int ew = fx_bits_for(static_cast<u128>(top_bound)) + 1;
  const V e = b.sub(b.resize(d.eexp, ew), b.resize(lz, ew), ew);
  // x^n = m^n 2^(n (e - bias - (p - 1))). round_pack reads a significand of K bits as
  // sig 2^(top - bias - (K - 1)); m^n's top K bits are m^n / 2^(n p - K), so for any K
  // top = n e - (n - 1) bias + n - 1.
  const V ne = b.mul_signed(e, b.constant(fx_bits_for(static_cast<u128>(n)) + 1, static_cast<u128>(n)), ew);
  const int64_t offset = int64_t{n - 1} * (1 - f.bias());
  const V top = b.add(ne, b.constant(ew, static_cast<u128>(offset)), ew);
  V power = m;
  for (int k = 2; k <= n; ++k) {
    b.next_stage();
    power = b.mul(power, m);  // exact: k p bits
  }
  b.next_stage();
  // m^n is in [2^(n (p - 1)), 2^(n p)): its leading one in the top n bits; keep it and p + 1
  // bits below (the significand and the round bit), the rest a sticky bit
  const int w = n * p, kept = p + n + 1;
  const V high = b.slice(power, w - 1, w - kept);
  const V sticky = b.not_(b.is(b.slice(power, w - kept - 1, 0), 0));
  const V sign = n % 2 ? d.sign : b.constant(1, 0);
  const V rounded = b.round_pack(sign, high, top, sticky, f.e, f.f);
  const V inf = b.mux(sign, transcendental::infinity(b, f, true), transcendental::infinity(b, f, false));
  return b.finish(b.mux(d.nan, transcendental::quiet_nan(b, f), b.mux(d.inf, inf, rounded)));
}

}  // namespace

int max_integer_power_exponent(ElementType t) {
  if (t != ElementType::kF32 && t != ElementType::kF16 && t != ElementType::kBF16) return 0;
  return 128 / transcendental::format_of(t).p();
}

std::optional<int> integer_power_exponent(ElementType t, double y) {
  if (!(y >= 2) || y > max_integer_power_exponent(t) || y != static_cast<double>(static_cast<int>(y))) return std::nullopt;
  return static_cast<int>(y);
}

const FxProgram& integer_power_program(ElementType t, int n) {
  const Format f = transcendental::format_of(t);
  if (n < 2 || n > max_integer_power_exponent(t))
    throw Error("integer power unit: no unit for exponent " + std::to_string(n) + " on " +
                std::string(element_type_name(t)) + " (2.." + std::to_string(max_integer_power_exponent(t)) + ")");
  return transcendental::cached_program("powi" + std::to_string(n) + " " + std::string(element_type_name(t)),
                                        [&] { return build(f, n); });
}

uint64_t integer_power_unit(ElementType t, int n, uint64_t bits) {
  return transcendental::run_unit(integer_power_program(t, n), bits);
}

}  // namespace hlsgym::ir
