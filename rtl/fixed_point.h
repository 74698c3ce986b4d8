// --fixed SPEC and YAML `precision:`: a float design turned into an integer module in
// two's-complement fixed point, as hls4ml's ap_fixed<W, I, Q, O> (ir/fixed_format.h: any
// W in 2..64, rounding AP_TRN / AP_RND / AP_RND_CONV, overflow AP_WRAP / AP_SAT). The
// quantized module is an ordinary integer module: the interpreter runs it, the RTL
// implements it, and the cosimulation compares the two bit for bit; how close it stays
// to the float design is a question about the format, not about the hardware.
//
// Formats: the design-level default applies to every float value; an op's own
// `precision` frontend attribute (YAML: `precision: "ap_fixed<18,8,AP_RND,AP_SAT>"` on
// the op) overrides it for that op's result. Every op computes its exact result from its
// operands' values (whatever their formats) and puts it into its result's format once:
//   a + b, a - b  -> operands aligned to the finer binary point, summed exactly
//   a * b         -> the full 2W-bit product;  dot, convolution: exact sum of products
//   a / b         -> the quotient with one guard bit and a sticky remainder (so every
//                    rounding mode rounds the exact quotient)
//   -a, |a|       -> exact;   int -> float: the integer;   constants: their real value
//   float -> int  -> the value rounded toward zero (then the integer type's conversion)
// max, min, select, clamp and data movement requantize their operands to the result's
// format (an op without its own precision takes its first float operand's); compare
// compares exactly. Computations called by an op (reduce combiners, fusions, loop
// bodies) compute in the default format: their operands are requantized to it, and an
// override on such an op applies to its result. Intermediates stay exact up to 64 bits
// (an AP_WRAP format may go further while the bits that survive fit); beyond that the op
// is refused, naming it. Unary transcendentals (exp, log, tanh, logistic, rsqrt, sqrt,
// erf, ...) and power with a constant exponent are tables read by a gather, indexed by
// the operand's top bits and interpolated linearly (rtl/fixed_point_internal.h,
// Builder::function_table), as hls4ml computes them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/fixed_format.h"
#include "ir/module.h"

namespace hlsgym::rtl {

using ir::FixedFormat;

// ir::parse_fixed_format, its error prefixed with --fixed.
FixedFormat parse_fixed(const std::string& spec);

// The frontend attribute an op's own format is in.
inline constexpr const char* kPrecisionAttribute = "precision";

struct QuantizedModule {
  ir::Module module;
  // Per entry parameter, and per output element (a tuple root's elements in order; one
  // entry for an array root): the format of a float value, nullopt for an integer one.
  std::vector<std::optional<FixedFormat>> inputs, outputs;
  // Every computation's float ops (the entry's and those of the computations ops call:
  // combiners, loop bodies, branches, fusions), with their result formats: what the
  // overflow check of rtl/fixed_accuracy.h compares the float design's values with.
  struct Value {
    std::string computation, op;
    FixedFormat format;
  };
  std::vector<Value> values;
};

// The quantized copy (verified). A module without floats comes back unchanged.
QuantizedModule quantize_module(const ir::Module& m, FixedFormat default_format);
inline ir::Module quantize(const ir::Module& m, FixedFormat f) { return quantize_module(m, f).module; }

}  // namespace hlsgym::rtl
