#include "rtl/float_unit_parts.h"

#include <bit>
#include <functional>
#include <limits>
#include <vector>

#include "ir/float_formats.h"

namespace hlsgym::rtl::float_detail {

std::string zext(const std::string& e, int from, int to) {
  if (to < from) throw std::logic_error("float unit: zext narrows " + e);
  return to == from ? e : fmt::format("{{{}'d0, {}}}", to - from, e);
}

int bits_for(int64_t max) {
  int b = 1;
  while (b < 63 && (int64_t{1} << b) <= max) ++b;
  return b;
}

// ---- operand fields ----

// Each field is built once: its expression is only written when the field does not exist
// yet.
Sig Operand::field(const std::string& what, int width, const std::function<std::string()>& expr) {
  if (auto it = made_.find(what); it != made_.end()) return it->second;
  // in the operand's own stage, so a later stage carries the field, not the whole operand
  const Pipeline::Rewind at_operand(p_, bits_.stage);
  Sig s = p_.wire(prefix_ + "_" + what, width, expr());
  made_.emplace(what, s);
  return s;
}

Sig Operand::sign() {
  return field("sign", 1, [&] { return p_.bit(bits_, f_.width() - 1); });
}
Sig Operand::exponent() {
  return field("exp", f_.exponent_bits, [&] { return p_.bits(bits_, f_.width() - 2, f_.fraction_bits); });
}
Sig Operand::fraction() {
  return field("frac", f_.fraction_bits, [&] { return p_.bits(bits_, f_.fraction_bits - 1, 0); });
}
Sig Operand::magnitude() {
  return field("mag", f_.width() - 1, [&] { return p_.bits(bits_, f_.width() - 2, 0); });
}
Sig Operand::is_nan() {
  return field("nan", 1, [&] { return fmt::format("(&{}) & (|{})", p_.at(exponent()), p_.at(fraction())); });
}
Sig Operand::is_inf() {
  return field("inf", 1, [&] { return fmt::format("(&{}) & ~(|{})", p_.at(exponent()), p_.at(fraction())); });
}
Sig Operand::is_zero() {
  return field("zero", 1, [&] { return fmt::format("~(|{})", p_.at(magnitude())); });
}
Sig Operand::significand() {
  return field("sig", f_.precision(), [&] { return fmt::format("{{|{}, {}}}", p_.at(exponent()), p_.at(fraction())); });
}
Sig Operand::effective_exponent() {
  return field("eexp", f_.exponent_bits, [&] {
    const Sig e = exponent();
    return fmt::format("{{{}, {} | ~(|{})}}", p_.bits(e, f_.exponent_bits - 1, 1), p_.bit(e, 0), p_.at(e));
  });
}

std::string Operand::quieted(const std::string& sign) {
  const int m = f_.fraction_bits;
  const std::string payload = f_.nan_keeps_payload ? p_.bits(fraction(), m - 2, 0) : constant(m - 1, 0);
  return fmt::format("{{{}, {}, 1'b1, {}}}", sign, replicate(f_.exponent_bits, "1'b1"), payload);
}

std::string narrowed_nan(const FloatFormat& f, uint32_t f32_bits) {
  return constant(f.width(), ir::double_to_float_bits(f.type, std::bit_cast<float>(f32_bits)));
}

std::string quiet_nan_of_min_max(const FloatFormat& f) {
  return narrowed_nan(f, std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN()));
}

std::string infinity(const FloatFormat& f, const std::string& sign) {
  return fmt::format("{{{}, {}, {}}}", sign, replicate(f.exponent_bits, "1'b1"), constant(f.fraction_bits, 0));
}

// ---- leading zeros ----

Sig leading_zeros(Pipeline& p, const std::string& prefix, const Sig& x) {
  const int levels = bits_for(x.width);  // 2^levels > x.width: room for the padding one
  const int padded = 1 << levels;
  const std::string xs = p.at(x);
  // Level 0: one node per bit, most significant first; below the value a one, then zeros.
  std::vector<std::string> valid;
  for (int i = 0; i < padded; ++i) {
    const int bit = x.width - 1 - i;
    valid.push_back(bit >= 0 ? fmt::format("{}[{}]", xs, bit) : i == x.width ? "1'b1" : "1'b0");
  }
  std::vector<std::string> count(padded);  // no count bits at level 0
  for (int k = 1; k <= levels; ++k) {
    const int nodes = padded >> k;
    std::vector<std::string> v, c;
    for (int j = 0; j < nodes; ++j) {
      const std::string& hi_v = valid[2 * j];
      v.push_back(fmt::format("({} | {})", hi_v, valid[2 * j + 1]));
      c.push_back(k == 1 ? fmt::format("~{}", hi_v)
                         : fmt::format("({} ? {{1'b0, {}}} : {{1'b1, {}}})", hi_v, count[2 * j], count[2 * j + 1]));
    }
    // Every node of a level is one wire (its bits node by node, node 0 on top), so the
    // next level reads selects of it instead of the growing expressions.
    std::string vcat = "{", ccat = "{";
    for (int j = 0; j < nodes; ++j) vcat += (j ? ", " : "") + v[j], ccat += (j ? ", " : "") + c[j];
    const Sig cw = p.wire(fmt::format("{}_c{}", prefix, k), nodes * k, ccat + "}");
    count.assign(nodes, "");
    for (int j = 0; j < nodes; ++j) {
      const int lo = (nodes - 1 - j) * k;
      count[j] = k == 1 ? fmt::format("{}[{}]", cw.name, lo) : fmt::format("{}[{}:{}]", cw.name, lo + k - 1, lo);
    }
    if (k == levels) return cw;
    const Sig vw = p.wire(fmt::format("{}_v{}", prefix, k), nodes, vcat + "}");
    if (k == levels - 1) p.unused(fmt::format("{}[0]", vw.name));  // the root reads the upper half's only
    valid.assign(nodes, "");
    for (int j = 0; j < nodes; ++j) valid[j] = fmt::format("{}[{}]", vw.name, nodes - 1 - j);
  }
  throw std::logic_error("leading_zeros: no levels");
}

// ---- shifts and rounding ----

Shifted shift_right_sticky(Pipeline& p, const std::string& prefix, const Sig& x, const Sig& amount) {
  const std::string xs = p.at(x);
  std::string a = p.at(amount);
  // An amount of x.width or more clears x: clamped to x.width, the shifter has only the
  // stages that can move a bit.
  const int bits = bits_for(x.width);
  if (amount.width > bits)
    a = p.wire(prefix + "_amount", bits,
               fmt::format("({} >= {}) ? {} : {}[{}:0]", a, constant(amount.width, static_cast<uint64_t>(x.width)),
                           constant(bits, static_cast<uint64_t>(x.width)), a, bits - 1))
            .name;
  return {p.wire(prefix + "_shr", x.width, fmt::format("{} >> {}", xs, a)),
          p.wire(prefix + "_lost", 1, fmt::format("|({} & ~({} << {}))", xs, replicate(x.width, "1'b1"), a))};
}

Normalized normalize(Pipeline& p, const FloatFormat& f, const std::string& prefix, const Unnormalized& u) {
  const int k = u.sig.width, ew = u.top.width;
  const Sig lz = leading_zeros(p, prefix + "_lz", u.sig);
  if (ew <= lz.width) throw std::logic_error("normalize: exponent narrower than the shift");
  const std::string top = p.at(u.top), sig = p.at(u.sig);
  const Sig after = p.wire(prefix + "_after", ew, fmt::format("{} - {}", top, zext(p.at(lz), lz.width, ew)));
  // top - lz >= 1 (and a one to normalize): the result is normal
  const Sig normal = p.wire(prefix + "_normal", 1, fmt::format("~{}[{}] & (|{}) & (|{})", after.name, ew - 1,
                                                                 after.name, sig));
  // Else a subnormal's scale is exponent 1: shift left by top - 1 (< lz) when top >= 1.
  const Sig below = p.wire(prefix + "_top_m1", ew, fmt::format("{} - {}", top, constant(ew, 1)));
  p.unused(fmt::format("{}[{}:{}]", below.name, ew - 1, lz.width));
  const std::string top_positive = fmt::format("(~{}[{}] & (|{}))", top, ew - 1, top);
  const std::string left_sub = u.may_underflow ? fmt::format("({} ? {} : {})", top_positive,
                                                             p.bits(below, lz.width - 1, 0), constant(lz.width, 0))
                                               : p.bits(below, lz.width - 1, 0);
  const Sig left = p.wire(prefix + "_left", lz.width, fmt::format("{} ? {} : {}", normal.name, p.at(lz), left_sub));
  const Sig shifted = p.wire(prefix + "_shl", k, fmt::format("{} << {}", sig, left.name));
  // Rounding reads the precision + 1 top bits (a guard bit) and whether any bit below is
  // set: only those leave this stage.
  const int window = f.precision() + 1, below_window = k - window;
  auto low_bits_set = [&](const std::string& x) {
    return below_window > 0 ? fmt::format("(|{}[{}:0])", x, below_window - 1) : std::string("1'b0");
  };
  Normalized n;
  n.field = p.wire(prefix + "_field", ew, fmt::format("{} ? {} : {}", normal.name, after.name, constant(ew, 0)));
  std::string sticky = u.has_sticky ? p.at(u.sticky) + " | " : "";
  const std::string left_window = fmt::format("{}[{}:{}]", shifted.name, k - 1, below_window);
  if (!u.may_underflow) {
    n.sig = p.wire(prefix + "_sig", window, left_window);
    sticky += low_bits_set(shifted.name);
  } else {
    // top < 1: the window right by 1 - top, collecting what falls off with the bits
    // already below it
    const Sig amount = p.wire(prefix + "_right", ew, fmt::format("{} - {}", constant(ew, 1), top));
    const Sig top_bits = p.wire(prefix + "_window", window, fmt::format("{}[{}:{}]", sig, k - 1, below_window));
    const Shifted r = shift_right_sticky(p, prefix, top_bits, amount);
    n.sig = p.wire(prefix + "_sig", window, fmt::format("{} ? {} : {}", top_positive, left_window, r.value.name));
    sticky += fmt::format("({} ? {} : ({} | {}))", top_positive, low_bits_set(shifted.name), r.sticky.name,
                          low_bits_set(sig));
  }
  n.sticky = p.wire(prefix + "_sticky", 1, sticky);
  return n;
}

Sig round_and_pack(Pipeline& p, const FloatFormat& f, const std::string& prefix, const std::string& sign,
                   const Normalized& n) {
  const int k = n.sig.width, prec = f.precision(), m = f.fraction_bits, e = f.exponent_bits, ew = n.field.width;
  if (k < prec + 1) throw std::logic_error("round_and_pack: no guard bit");
  const std::string sig = p.at(n.sig), field = p.at(n.field);
  std::string rest = p.at(n.sticky);
  if (k - prec - 2 >= 0) rest = fmt::format("(|{}[{}:0]) | {}", sig, k - prec - 2, rest);
  // the hidden bit is implied by the field: 0 exactly for a subnormal (or zero)
  p.unused(fmt::format("{}[{}]", sig, k - 1));
  const Sig inc = p.wire(prefix + "_inc", 1, fmt::format("{}[{}] & ({} | {}[{}])", sig, k - prec - 1, rest, sig, k - prec));
  const Sig packed = p.wire(prefix + "_packed", e + m,
                            fmt::format("{{{}, {}[{}:{}]}} + {}", p.bits(n.field, e - 1, 0), sig, k - 2, k - prec,
                                        zext(inc.name, 1, e + m)));
  const std::string overflow = fmt::format("({} >= {})", field, constant(ew, static_cast<uint64_t>(f.max_exponent_field())));
  return p.wire(prefix + "_rounded", f.width(),
                fmt::format("{} ? {} : {{{}, {}}}", overflow, infinity(f, sign), sign, packed.name));
}

}  // namespace hlsgym::rtl::float_detail
