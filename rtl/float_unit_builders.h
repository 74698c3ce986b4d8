// Private to float_unit*.cc: the datapath of each unit, from its operand ports to its
// result. Each returns the result in its last stage; float_units.cc registers it once
// more into the output port, so a unit's latency is that stage + 1.
#pragma once
#include "ir/attributes.h"
#include "ir/element_type.h"
#include "rtl/float_unit_pipeline.h"
#include "rtl/float_units.h"

namespace hlsgym::rtl::float_detail {

Sig build_add(Pipeline& p, const FloatFormat& f, const Sig& a, const Sig& b, const Sig& sub);
Sig build_multiply(Pipeline& p, const FloatFormat& f, const Sig& a, const Sig& b);
Sig build_divide(Pipeline& p, const FloatFormat& f, const Sig& a, const Sig& b);
Sig build_sqrt(Pipeline& p, const FloatFormat& f, const Sig& a);
Sig build_compare(Pipeline& p, const FloatFormat& f, ir::ComparisonDirection d, const Sig& a, const Sig& b);
Sig build_total_order_compare(Pipeline& p, const FloatFormat& f, ir::ComparisonDirection d, const Sig& a, const Sig& b);
Sig build_min_max(Pipeline& p, const FloatFormat& f, bool maximum, const Sig& a, const Sig& b);
Sig build_abs_negate(Pipeline& p, const FloatFormat& f, bool negate, const Sig& a);
Sig build_float_to_float(Pipeline& p, const FloatFormat& from, const FloatFormat& to, const Sig& a);
Sig build_int_to_float(Pipeline& p, ir::ElementType from, const FloatFormat& to, const Sig& a);
Sig build_float_to_int(Pipeline& p, const FloatFormat& from, ir::ElementType to, const Sig& a);
Sig build_transcendental(Pipeline& p, ir::TranscendentalOp op, const FloatFormat& f, const Sig& a);
// Any fixed-point datapath of ir/fixed_point_datapath.h on operand a (the transcendentals',
// the integer power's), node by node.
Sig build_fx_datapath(Pipeline& p, const ir::FxProgram& program, const FloatFormat& f, const Sig& a);

// Iterations of a digit recurrence (divide, square root) done in one pipeline stage:
// two conditional subtracts of about 25 bits fit a 100 MHz cycle on a 7-series part.
inline constexpr int kRecurrenceStepsPerStage = 2;

}  // namespace hlsgym::rtl::float_detail
