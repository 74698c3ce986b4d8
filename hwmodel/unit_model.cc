#include "hwmodel/unit_model.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace hlsgym::hwmodel {
using ir::ElementType;

int datapath_bits(ElementType t) {
  if (t == ElementType::kPred) return 1;
  return std::max(1, ir::bit_width(t));
}

int mantissa_bits(ElementType t) {
  switch (t) {
    case ElementType::kF16: return 11;
    case ElementType::kBF16: return 8;
    case ElementType::kF32: case ElementType::kC64: return 24;
    case ElementType::kF64: case ElementType::kC128: return 53;
    case ElementType::kF8E5M2: case ElementType::kF8E5M2FNUZ: return 3;
    case ElementType::kF8E4M3FN: case ElementType::kF8E4M3B11FNUZ: case ElementType::kF8E4M3FNUZ:
    case ElementType::kF8E4M3: return 4;
    case ElementType::kF8E3M4: return 5;
    case ElementType::kF4E2M1FN: return 2;
    case ElementType::kF8E8M0FNU: return 1;
    default: return 0;
  }
}

UnitClass mac_adder(UnitClass mac) { return mac == UnitClass::kFpMac ? UnitClass::kFpAdd : UnitClass::kIntAlu; }
UnitClass mac_multiplier(UnitClass mac) { return mac == UnitClass::kFpMac ? UnitClass::kFpMul : UnitClass::kIntMul; }

int unit_depth(const Target& t, UnitClass c) {
  if (is_mac(c)) return t.unit(mac_multiplier(c)).latency + t.unit(mac_adder(c)).latency;
  return t.unit(c).latency;
}

namespace {

// Offsets of the slices an operand of `bits` is cut into: `partial`-bit slices while the
// rest exceeds `full`, then the rest unless it is narrower than `min_slice` (LUTs).
std::vector<int> slice_offsets(int bits, int full, int partial, int min_slice) {
  std::vector<int> off;
  int at = 0;
  while (bits - at > full) off.push_back(at), at += partial;
  if (off.empty() || bits - at >= min_slice) off.push_back(at);
  return off;
}

}  // namespace

// An a x b product kept to `out` bits on signed a_bits x b_bits DSP slices, cut as
// synthesis cuts it (Yosys mul2dsp, measured by scripts/calibrate_dsp.sh): the wider
// operand in slices of b_bits - 1 while more than a_bits - 1 bits remain (a_bits for a
// signed product, whose top slice keeps the sign), the other in slices of b_bits - 1
// while more than b_bits - 1 (signed: b_bits) remain; one slice per pair of slices whose
// partial product lands below `out` (a truncated product drops the rest); products
// narrower than dsp_min_out_bits use LUTs. A DSP that multiplies unsigned operands
// (dsp_signed_only false, iCE40) loses no sign bit: slices of b_bits, top slices a_bits.
int dsp_slices(const Target& t, int a, int b, int out, bool is_signed) {
  if (out < t.dsp_min_out_bits || a < 2 || b < 2) return 0;
  if (b > a) std::swap(a, b);
  const int lost = t.dsp_signed_only ? 1 : 0;  // the sign bit an unsigned slice cannot use
  const int partial = t.dsp_b_bits - lost, sign = is_signed ? lost : 0;
  const auto oa = slice_offsets(a, t.dsp_a_bits - lost + sign, partial, t.dsp_min_slice_bits);
  const auto ob = slice_offsets(b, t.dsp_b_bits - lost + sign, partial, t.dsp_min_slice_bits);
  int n = 0;
  for (int x : oa)
    for (int y : ob) n += x + y < out;
  return n;
}

int mac_operand_bits(ElementType operand, int out) {
  return std::min(datapath_bits(operand), out) + (ir::is_unsigned_integral(operand) ? 1 : 0);
}

int mac_multiplier_bits(int widest_operand_bits, int out) { return std::min(widest_operand_bits, out); }

int mac_dsp_slices(const Target& t, ElementType a, ElementType b, ElementType out) {
  const int o = datapath_bits(out);
  const int w = mac_multiplier_bits(std::max(mac_operand_bits(a, o), mac_operand_bits(b, o)), o);
  return w < o ? dsp_slices(t, w, w, o, true) : dsp_slices(t, o, o, o);
}

namespace {

double packed_dsps(const Target& t, int bits, int out) { return dsp_slices(t, bits, bits, out); }

double dsps(const Target& t, UnitClass c, ElementType e) {
  const UnitSpec& u = t.unit(c);
  const int w = datapath_bits(e);
  if (u.dsp_packed) {
    // a float multiplier keeps the whole mantissa product; an integer one the element width
    const int m = c == UnitClass::kFpMul ? std::max(1, mantissa_bits(e)) : w;
    return packed_dsps(t, m, c == UnitClass::kFpMul ? 2 * m : w);
  }
  return u.dsp * ((w + 31) / 32);
}

bool multiplier_like(UnitClass c) {
  return c == UnitClass::kIntMul || c == UnitClass::kFpMul || c == UnitClass::kIntDiv ||
         c == UnitClass::kFpDiv || c == UnitClass::kFpSpecial;
}

}  // namespace

Area lane_area(const Target& t, UnitClass c, ElementType e) {
  if (!t.is_fpga()) return {};
  if (is_mac(c)) {
    Area a = lane_area(t, mac_multiplier(c), e);
    a += lane_area(t, mac_adder(c), e);
    if (c == UnitClass::kIntMac) a.lut = int_mac_luts(t, a.dsp, e);
    return a;
  }
  const UnitSpec& u = t.unit(c);
  const double scale = datapath_bits(e) / 32.0;
  return {dsps(t, c, e), u.lut * scale, u.ff * scale, 0};
}

double int_mac_luts(const Target& t, double dsp, ElementType e) {
  const double scale = datapath_bits(e) / 32.0, adder = t.unit(UnitClass::kIntAlu).lut * scale;
  const std::optional<double> split = t.unit(UnitClass::kIntMac).split_product_lut;
  if (!split) return t.unit(UnitClass::kIntMul).lut * scale + adder;
  return adder + (dsp > 1 ? *split * scale : 0);
}

Area op_lane_area(const Target& t, UnitClass c, ir::Opcode op, ElementType e, bool literal_operand, int divider_bits) {
  Area a = lane_area(t, c, e);
  if (c == UnitClass::kIntDiv && !t.int_divide.bits.empty())
    a.lut = t.int_divide.luts_for(divider_bits > 0 ? divider_bits : datapath_bits(e));
  if (c != UnitClass::kIntAlu) return a;
  // rtl/verilog_ops.cc: negate is `0 - a`, not is `~a`
  if (literal_operand || op == ir::Opcode::kNegate || op == ir::Opcode::kNot)
    if (const std::optional<double> luts = t.alu_literal_ops.luts_for(op, datapath_bits(e))) {
      a.lut = *luts;
      return a;
    }
  if (const auto it = t.alu_op_luts.find(op); it != t.alu_op_luts.end()) a.lut = it->second * datapath_bits(e) / 32.0;
  return a;
}

double op_energy_pj(const Target& t, UnitClass c, ElementType e) {
  if (is_mac(c)) return op_energy_pj(t, mac_multiplier(c), e) + op_energy_pj(t, mac_adder(c), e);
  const double s = datapath_bits(e) / 32.0;
  const double asic = t.unit(c).energy_pj * (multiplier_like(c) ? s * s : s);
  if (!t.is_fpga()) return asic;
  return asic * (dsps(t, c, e) > 0 ? t.hard_block_energy_factor : t.fabric_energy_factor);
}

}  // namespace hlsgym::hwmodel
