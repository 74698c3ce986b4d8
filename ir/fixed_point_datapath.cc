#include "ir/fixed_point_datapath.h"

#include <algorithm>
#include <stdexcept>

namespace hlsgym::ir {
namespace {

u128 mask(int w) { return w >= 128 ? ~u128{0} : (u128{1} << w) - 1; }

// x (of width w) read as two's complement, extended to 128 bits.
u128 sign_extend(u128 x, int w) {
  x &= mask(w);
  if (w < 128 && ((x >> (w - 1)) & 1)) x |= ~mask(w);
  return x;
}

u128 shift_right(u128 x, u128 k) { return k >= 128 ? 0 : x >> static_cast<int>(k); }
u128 shift_left(u128 x, u128 k) { return k >= 128 ? 0 : x << static_cast<int>(k); }

int leading_zeros(u128 x, int w) {
  for (int i = w - 1; i >= 0; --i)
    if ((x >> i) & 1) return w - 1 - i;
  return w;
}

}  // namespace

int fx_bits_for(u128 max) {
  int b = 1;
  while (b < 127 && (u128{1} << b) <= max) ++b;
  return b;
}

uint64_t round_pack(bool sign, u128 sig, int sig_width, int64_t top, bool sticky, int exponent_bits, int fraction_bits) {
  const int prec = fraction_bits + 1;
  const int64_t max_field = (int64_t{1} << exponent_bits) - 1;
  const uint64_t sign_bit = uint64_t{sign} << (exponent_bits + fraction_bits);
  sig &= mask(sig_width);
  if (sig == 0) return sign_bit;  // (a sticky alone is below every subnormal: rounds to zero)
  const int lz = leading_zeros(sig, sig_width);
  const int64_t lead = top - lz;                     // biased exponent of the leading one
  const int64_t kept = std::max<int64_t>(lead, 1);   // exponent of the result's top bit
  // sig's bit i stands for biased exponent top - (sig_width - 1) + i; the result's lowest
  // bit for kept - (prec - 1)
  const int64_t s = (kept - (prec - 1)) - (top - (sig_width - 1));
  u128 m;
  bool round = false, rest = sticky;
  if (s <= 0) {
    m = sig << static_cast<int>(-s);  // exact (fits: the leading one stays below prec bits)
  } else {
    m = shift_right(sig, static_cast<u128>(s));
    round = s <= 128 && ((sig >> (s - 1)) & 1);
    rest = rest || (s >= 2 && (sig & mask(static_cast<int>(std::min<int64_t>(s - 1, 128)))) != 0);
  }
  if (round && (rest || (m & 1))) ++m;
  // normal: field (kept - 1) plus the significand with its hidden bit, so a carry out of
  // the significand raises the field; subnormal: the significand alone (a carry makes it
  // the smallest normal)
  const u128 packed = lead >= 1 ? (static_cast<u128>(kept - 1) << fraction_bits) + m : m;
  if (lead >= max_field || packed >= static_cast<u128>(max_field) << fraction_bits)
    return sign_bit | (static_cast<uint64_t>(max_field) << fraction_bits);
  return sign_bit | static_cast<uint64_t>(packed);
}

u128 run(const FxProgram& p, u128 x) {
  std::vector<u128> v(p.nodes.size());
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    const FxNode& n = p.nodes[i];
    auto arg = [&](int k) { return v[static_cast<size_t>(k)]; };
    auto w = [&](int k) { return p.nodes[static_cast<size_t>(k)].width; };
    u128 r = 0;
    switch (n.op) {
      case FxOp::kInput: r = x; break;
      case FxOp::kConst: r = n.value; break;
      case FxOp::kAdd: r = arg(n.a) + arg(n.b); break;
      case FxOp::kSub: r = arg(n.a) - arg(n.b); break;
      case FxOp::kMul: r = arg(n.a) * arg(n.b); break;
      case FxOp::kMulSigned: r = sign_extend(arg(n.a), w(n.a)) * sign_extend(arg(n.b), w(n.b)); break;
      case FxOp::kShr: r = arg(n.a) >> n.shift; break;
      case FxOp::kShl: r = arg(n.a) << n.shift; break;
      case FxOp::kShrVar: r = shift_right(arg(n.a), arg(n.b)); break;
      case FxOp::kShlVar: r = shift_left(arg(n.a), arg(n.b)); break;
      case FxOp::kSext: r = sign_extend(arg(n.a), w(n.a)); break;
      case FxOp::kSlice: r = arg(n.a) >> n.shift; break;
      case FxOp::kConcat: r = (arg(n.a) << w(n.b)) | arg(n.b); break;
      case FxOp::kLess: r = arg(n.a) < arg(n.b); break;
      case FxOp::kEq: r = arg(n.a) == arg(n.b); break;
      case FxOp::kMux: r = arg(n.a) ? arg(n.b) : arg(n.c); break;
      case FxOp::kAnd: r = arg(n.a) & arg(n.b); break;
      case FxOp::kOr: r = arg(n.a) | arg(n.b); break;
      case FxOp::kNot: r = ~arg(n.a); break;
      case FxOp::kTable: {
        const std::vector<u128>& t = p.tables[static_cast<size_t>(n.table)];
        r = arg(n.a) < t.size() ? t[static_cast<size_t>(arg(n.a))] : 0;
        break;
      }
      case FxOp::kLeadingZeros: r = static_cast<u128>(leading_zeros(arg(n.a), w(n.a))); break;
      case FxOp::kRoundPack: {
        const int64_t top = static_cast<int64_t>(sign_extend(arg(n.c), w(n.c)));
        r = round_pack(arg(n.a) & 1, arg(n.b), w(n.b), top, arg(n.d) & 1, n.exponent_bits, n.fraction_bits);
        break;
      }
    }
    v[i] = r & mask(n.width);
  }
  return v[static_cast<size_t>(p.output)];
}

// ---- builder ----

FxBuilder::FxBuilder(int input_width) {
  p_.input_width = input_width;
  push({.op = FxOp::kInput, .width = input_width});
}

FxBuilder::V FxBuilder::push(FxNode n) {
  if (n.width < 1 || n.width > 128) throw std::logic_error("fixed-point datapath: node of width " + std::to_string(n.width));
  n.stage = stage_;
  p_.nodes.push_back(n);
  return static_cast<V>(p_.nodes.size() - 1);
}

FxBuilder::V FxBuilder::constant(int w, u128 value) { return push({.op = FxOp::kConst, .width = w, .value = value & mask(w)}); }
FxBuilder::V FxBuilder::add(V a, V b, int w) {
  return push({.op = FxOp::kAdd, .width = w ? w : std::max(width(a), width(b)) + 1, .a = a, .b = b});
}
FxBuilder::V FxBuilder::sub(V a, V b, int w) {
  return push({.op = FxOp::kSub, .width = w ? w : std::max(width(a), width(b)), .a = a, .b = b});
}
FxBuilder::V FxBuilder::mul(V a, V b, int w) {
  return push({.op = FxOp::kMul, .width = w ? w : width(a) + width(b), .a = a, .b = b});
}
FxBuilder::V FxBuilder::mul_signed(V a, V b, int w) {
  return push({.op = FxOp::kMulSigned, .width = w ? w : width(a) + width(b), .a = a, .b = b});
}
FxBuilder::V FxBuilder::shr(V a, int k) { return push({.op = FxOp::kShr, .width = width(a) - k, .a = a, .shift = k}); }
FxBuilder::V FxBuilder::shl(V a, int k) { return push({.op = FxOp::kShl, .width = width(a) + k, .a = a, .shift = k}); }
FxBuilder::V FxBuilder::shr_var(V a, V amount) { return push({.op = FxOp::kShrVar, .width = width(a), .a = a, .b = amount}); }
FxBuilder::V FxBuilder::shl_var(V a, V amount, int w) { return push({.op = FxOp::kShlVar, .width = w, .a = a, .b = amount}); }
FxBuilder::V FxBuilder::resize(V a, int w) {
  if (w == width(a)) return a;
  return w < width(a) ? slice(a, w - 1, 0) : concat(constant(w - width(a), 0), a);
}
FxBuilder::V FxBuilder::sext(V a, int w) { return push({.op = FxOp::kSext, .width = w, .a = a}); }
FxBuilder::V FxBuilder::slice(V a, int hi, int lo) {
  return push({.op = FxOp::kSlice, .width = hi - lo + 1, .a = a, .shift = lo});
}
FxBuilder::V FxBuilder::concat(V hi, V lo) { return push({.op = FxOp::kConcat, .width = width(hi) + width(lo), .a = hi, .b = lo}); }
FxBuilder::V FxBuilder::less(V a, V b) { return push({.op = FxOp::kLess, .width = 1, .a = a, .b = b}); }
FxBuilder::V FxBuilder::eq(V a, V b) { return push({.op = FxOp::kEq, .width = 1, .a = a, .b = b}); }
FxBuilder::V FxBuilder::mux(V sel, V one, V zero, int w) {
  return push({.op = FxOp::kMux, .width = w ? w : std::max(width(one), width(zero)), .a = sel, .b = one, .c = zero});
}
FxBuilder::V FxBuilder::and_(V a, V b) { return push({.op = FxOp::kAnd, .width = std::max(width(a), width(b)), .a = a, .b = b}); }
FxBuilder::V FxBuilder::or_(V a, V b) { return push({.op = FxOp::kOr, .width = std::max(width(a), width(b)), .a = a, .b = b}); }
FxBuilder::V FxBuilder::not_(V a) { return push({.op = FxOp::kNot, .width = width(a), .a = a}); }
FxBuilder::V FxBuilder::table(V index, std::vector<u128> entries, int w) {
  for (u128& e : entries) e &= mask(w);
  p_.tables.push_back(std::move(entries));
  return push({.op = FxOp::kTable, .width = w, .a = index, .table = static_cast<int>(p_.tables.size() - 1)});
}
FxBuilder::V FxBuilder::leading_zeros(V a) {
  return push({.op = FxOp::kLeadingZeros, .width = fx_bits_for(static_cast<u128>(width(a))), .a = a});
}
FxBuilder::V FxBuilder::round_pack(V sign, V sig, V top, V sticky, int exponent_bits, int fraction_bits) {
  return push({.op = FxOp::kRoundPack, .width = 1 + exponent_bits + fraction_bits, .a = sign, .b = sig, .c = top, .d = sticky,
               .exponent_bits = exponent_bits, .fraction_bits = fraction_bits});
}

FxProgram FxBuilder::finish(V output) {
  p_.output = output;
  return p_;
}

}  // namespace hlsgym::ir
