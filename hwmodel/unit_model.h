// Per-unit costs on a target for one element type: pipeline depth, area of one lane,
// energy of one operation, CPU throughput.
//
// Width scaling (documented in README.md):
// - LUT and FF of a lane scale linearly with the datapath width w: spec x w / 32.
// - DSPs of a multiplier: dsp_slices() below, the decomposition synthesis uses, for an
//   a x b product; for integers a = b = w kept to w bits, for floats the mantissa width
//   with its hidden bit (f16 11, bf16 8, f32 24, f64 53), the whole 2m-bit product.
//   Other DSP users (fp_add, fp_special) take spec.dsp x ceil(w / 32).
// - Energy: multiplier-like units (int/fp mul, div, special) scale with (w / 32)^2,
//   the rest with w / 32 -- Horowitz's 8/16-bit column comes out within ~20 %.
//   On the FPGA a unit that uses DSPs pays the hard-block factor, one built from LUTs
//   the fabric factor.
// - A MAC is its multiplier plus its adder (int_alu or fp_add): depths, areas and
//   energies add.
#pragma once
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"
#include "ir/element_type.h"

namespace hlsgym::hwmodel {

// Bits of the datapath for one element (pred is 1 bit).
int datapath_bits(ir::ElementType t);
// Mantissa bits including the hidden bit (0 for non-floats).
int mantissa_bits(ir::ElementType t);

// DSP slices of an a x b product kept to `out` bits (unit_model.cc), unsigned or signed.
int dsp_slices(const Target& t, int a, int b, int out, bool is_signed = false);

// The integer multiplier of a MAC lane whose products keep `out` bits, as rtl builds it:
// operands are read at their stored width (a chained widening convert is not a pass over
// memory, chaining.h), so when every operand is narrower than the product they are
// multiplied signed at the widest operand's width, an unsigned one with a zero bit on
// top (an s16 x s16 -> s32 product is one DSP48E1, not three); otherwise both are taken
// at `out` bits, unsigned, as before. Only the low `out` bits of a product are used, so
// both are exact.
int mac_operand_bits(ir::ElementType operand, int out);  // min(width, out) + (unsigned ? 1 : 0)
int mac_multiplier_bits(int widest_operand_bits, int out);  // == out: the unsigned form
int mac_dsp_slices(const Target& t, ir::ElementType a, ir::ElementType b, ir::ElementType out);

// Pipeline depth in cycles on an FPGA (a MAC: multiplier + adder).
int unit_depth(const Target& t, UnitClass c);
// The adder class a MAC of this class accumulates with, and its multiplier class.
UnitClass mac_adder(UnitClass mac);
UnitClass mac_multiplier(UnitClass mac);

// Area of one lane of the unit for elements of type `e` (FPGA; zero on a CPU).
Area lane_area(const Target& t, UnitClass c, ir::ElementType e);
// An int_mac lane's LUTs when its product takes `dsp` slices (at e's width), as the RTL
// builds it: int_alu's adder accumulating, plus the target's split_product_lut when the
// product is cut over several slices; int_mul + int_alu where the target has no such row.
double int_mac_luts(const Target& t, double dsp, ir::ElementType e);
// The lane area of operation `op` on class `c`: lane_area, with an int_alu lane's LUTs
// those the target measured for `op` when it lists it (Target::alu_op_luts), or, when
// `literal_operand` (one of its operands is a literal in the Verilog) or the op is one rtl
// writes against a literal (negate, not), those measured for that form
// (Target::alu_literal_ops).
// An int_div lane is the target's int_divide_luts at `divider_bits` (value_bits.h
// divider_bits, the width rtl builds the divider at; 0: the type's).
Area op_lane_area(const Target& t, UnitClass c, ir::Opcode op, ir::ElementType e, bool literal_operand = false,
                  int divider_bits = 0);
// One lane of an IEEE-754 unit of the target's float_units table (Yosys' count of it).
inline Area float_lane_area(const FloatUnitCost& f, int result_bits) { return {f.dsp, f.lut, std::max(0.0, f.ff - result_bits), 0}; }
// Energy of one operation in pJ, target factors applied.
double op_energy_pj(const Target& t, UnitClass c, ir::ElementType e);

}  // namespace hlsgym::hwmodel
