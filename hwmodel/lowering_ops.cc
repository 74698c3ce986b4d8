// Instruction -> Work: which form of task an op becomes and on which unit (lowering.h).
#include <algorithm>

#include "hwmodel/chaining.h"
#include "hwmodel/float_unit_key.h"
#include "hwmodel/lowering_internal.h"
#include "hwmodel/timing.h"

namespace hlsgym::hwmodel::lowering_detail {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {

bool float_like(ElementType t) { return ir::is_floating(t) || ir::is_complex(t); }

std::optional<UnitClass> float_unit(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kConvert: case Opcode::kStochasticConvert:
      return UnitClass::kFpAdd;
    case Opcode::kMultiply: return UnitClass::kFpMul;
    case Opcode::kDivide: case Opcode::kRemainder: case Opcode::kSqrt: case Opcode::kRsqrt: case Opcode::kCbrt:
      return UnitClass::kFpDiv;
    case Opcode::kCompare: case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kAbs: case Opcode::kNegate:
    case Opcode::kSign: case Opcode::kClamp: case Opcode::kSelect: case Opcode::kFloor: case Opcode::kCeil:
    case Opcode::kRoundNearestAfz: case Opcode::kRoundNearestEven: case Opcode::kIsFinite:
    case Opcode::kReducePrecision: case Opcode::kReal: case Opcode::kImag: case Opcode::kComplex:
      return UnitClass::kFpAlu;
    default:
      break;
  }
  const ir::OpcodeInfo& inf = ir::info(op);
  if (inf.elementwise && (inf.transcendental || inf.category == ir::OpCategory::kUnary ||
                          inf.category == ir::OpCategory::kBinary))
    return UnitClass::kFpSpecial;  // exp, log, tanh, sin, cos, atan2, erf, power, acos, ...
  return std::nullopt;
}

// The ops that are free because they only rename or regroup buffers.
bool is_alias_op(Opcode op) {
  switch (op) {
    case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kBitcastConvert: case Opcode::kTuple:
    case Opcode::kGetTupleElement: case Opcode::kOptimizationBarrier: case Opcode::kAddDependency:
    case Opcode::kDomain: case Opcode::kAfterAll: case Opcode::kCopyDone: case Opcode::kDynamicReshape:
    case Opcode::kSetDimensionSize:
      return true;
    default:
      return false;
  }
}

bool is_move_op(Opcode op) {
  switch (op) {
    case Opcode::kCopy: case Opcode::kTranspose: case Opcode::kReverse: case Opcode::kSlice:
    case Opcode::kDynamicSlice: case Opcode::kConcatenate: case Opcode::kPad: case Opcode::kBroadcast:
    case Opcode::kGather: case Opcode::kIota: case Opcode::kCopyStart:
      return true;
    default:
      return false;
  }
}

const ir::Shape& first_array(const ir::Shape& s) {
  const ir::Shape* p = &s;
  while (p->is_tuple() && !p->tuple_elements().empty()) p = &p->tuple_element(0);
  return *p;
}

ElementType array_type(const ir::Shape& s) {
  const ir::Shape& a = first_array(s);
  return a.is_array() ? a.element_type() : ElementType::kU8;
}

}  // namespace

std::optional<UnitClass> elementwise_unit(Opcode op, ElementType type) {
  if (float_like(type)) return float_unit(op);
  switch (op) {
    case Opcode::kMultiply: case Opcode::kMulhi: return UnitClass::kIntMul;
    case Opcode::kDivide: case Opcode::kRemainder: case Opcode::kPower: return UnitClass::kIntDiv;
    default: break;
  }
  const ir::OpcodeInfo& inf = ir::info(op);
  if (!inf.elementwise || inf.transcendental) return std::nullopt;
  return UnitClass::kIntAlu;
}

ElementType deciding_type(const ir::Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const ElementType out = array_type(m.shape(i));
  auto operand_type = [&](size_t k) { return array_type(m.shape(m.operand(i, k))); };
  if ((op == Opcode::kCompare || op == Opcode::kIsFinite) && !m.operands(i).empty()) return operand_type(0);
  if (op == Opcode::kSelect && m.operands(i).size() == 3) return operand_type(1);
  if ((op == Opcode::kConvert || op == Opcode::kStochasticConvert) && !m.operands(i).empty()) {
    const ElementType in = operand_type(0);
    const bool in_float = float_like(in), out_float = float_like(out);
    if (in_float != out_float) return in_float ? in : out;  // the float side decides the class
    return ir::bit_width(in) > ir::bit_width(out) ? in : out;
  }
  return out;
}

Work WorkModel::classify(InstrId i) {
  const Opcode op = m_.opcode(i);
  Work w;
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kPartitionId: case Opcode::kReplicaId:
    case Opcode::kGetDimensionSize:
      w.input = true;
      return w;
    // FPGA: rtl builds it out of place, one stream over the output taking each element from
    // the update inside the (clamped) window and from the operand elsewhere; a CPU updates
    // in place (the update's elements)
    case Opcode::kDynamicUpdateSlice:
      return move(i, t_.is_fpga() ? m_.shape(i).element_count() : m_.shape(m_.operand(i, 1)).element_count());
    case Opcode::kCall: w.form = Form::kCall; return w;
    case Opcode::kWhile: w.form = Form::kWhile; return w;
    case Opcode::kConditional: w.form = Form::kConditional; return w;
    case Opcode::kReducePrecision:  // a form that keeps every value: wiring (rtl: its operand's buffer)
      if (t_.is_fpga() && identity_reduce_precision(m_, i)) {
        w.alias = true;
        return w;
      }
      break;
    case Opcode::kConvert:
      if (t_.is_fpga() && chained_convert(m_, i)) {  // wiring inside its readers (chaining.h)
        w.alias = true;
        return w;
      }
      break;
    default: break;
  }
  // FPGA: an index mapping of a one-value constant is that constant, a literal in its
  // readers (rtl prints it so; synthesis folded the memory rtl used to fill with it)
  if (t_.is_fpga() && value_mapping(op) && !is_alias_op(op) && splat_source(m_, i)) {
    w.input = true;
    return w;
  }
  // FPGA: a broadcast of a smaller run-time value is index wiring inside its readers
  // (chaining.h): they read the operand through its index map, no copy is stored
  if (t_.is_fpga() && chained_broadcast(m_, i)) {
    w.alias = true;
    return w;
  }
  if (auto structured = classify_structured(i)) return *structured;
  if (is_alias_op(op)) {
    w.alias = true;
    return w;
  }
  if (is_move_op(op)) {
    Work w = move(i, m_.shape(i).element_count());
    // FPGA: an item's operand address depends on the start indices it reads first
    if (op == Opcode::kGather && t_.is_fpga()) w.lead = kMemoryReadLatency;
    return w;
  }
  if (ir::info(op).elementwise) {
    const ElementType type = deciding_type(m_, i);
    if (auto c = elementwise_unit(op, type)) return elementwise(i, *c, type);
  }
  w.form = Form::kUnknown;
  return w;
}

// Ops with a called body or a contraction: how many outputs, of how many terms.
std::optional<Work> WorkModel::classify_structured(InstrId i) {
  const ir::Shape& out = m_.shape(i);
  const auto& called = m_.called(i);
  switch (m_.opcode(i)) {
    case Opcode::kDot: case Opcode::kConvolution: return contraction(i, out.element_count(), contraction_terms(m_, i));
    case Opcode::kReduce: {
      if (called.empty()) break;
      const int64_t in = m_.shape(m_.operand(i, 0)).element_count();
      const int64_t res = first_array(out).element_count();
      return reduction(i, res, res > 0 ? in / res : 0, called[0]);
    }
    case Opcode::kReduceWindow: {
      if (called.empty() || !m_.attrs(i).window) break;
      int64_t window = 1;
      for (const auto& d : *m_.attrs(i).window) window *= d.size;
      return reduction(i, first_array(out).element_count(), window, called[0]);
    }
    case Opcode::kFusion: case Opcode::kMap: {
      if (called.empty()) break;
      const BodyInfo& b = body(called[0]);
      if (b.pipelineable) return through_body(i, Form::kStream, b, first_array(out).element_count(), 1);
      Work w;  // a fusion with reductions or dots inside: inline it like a call
      w.form = m_.opcode(i) == Opcode::kFusion ? Form::kCall : Form::kUnknown;
      return w;
    }
    case Opcode::kSort: {
      if (called.empty() || m_.attrs(i).dimensions.empty()) break;
      const ir::Shape& keys = m_.shape(m_.operand(i, 0));
      const int64_t n = keys.dim(m_.attrs(i).dimensions[0]);
      return through_body(i, Form::kSort, body(called[0]), n > 0 ? keys.element_count() / n : 0, n);
    }
    case Opcode::kScatter: {
      if (called.empty()) break;
      const size_t operands = (m_.operands(i).size() - 1) / 2;
      const int64_t updates = m_.shape(m_.operand(i, 1 + operands)).element_count();
      return through_body(i, Form::kScatter, body(called[0]), updates, 1);
    }
    default:
      break;
  }
  return std::nullopt;
}

const UnitCost& WorkModel::unit_cost(UnitClass c, ElementType type) {
  UnitCost& u = unit_costs_[static_cast<size_t>(c)][static_cast<size_t>(type) & 31];
  if (!u.known) u = {true, op_energy_pj(t_, c, type), lane_area(t_, c, type)};
  return u;
}

Area WorkModel::integer_lane_area(InstrId i, UnitClass c, ElementType type) const {
  const Opcode op = m_.opcode(i);
  const bool divide = c == UnitClass::kIntDiv && (op == Opcode::kDivide || op == Opcode::kRemainder);
  const int bits = divide && value_bits_ ? divider_bits(m_, i, *value_bits_) : 0;
  return op_lane_area(t_, c, op, type, has_literal_operand(m_, i), bits);
}

Work WorkModel::elementwise(InstrId i, UnitClass c, ElementType type) {
  const UnitCost& cost = unit_cost(c, type);
  Work w;
  w.form = Form::kStream;
  w.unit = c;
  w.type = type;
  w.n = m_.shape(i).element_count();
  w.depth = unit_depth(t_, c);
  w.energy_per_item = cost.energy_pj;
  w.lane_area = t_.alu_op_luts.empty() && t_.alu_literal_ops.luts.empty()
                    ? cost.lane_area
                    : integer_lane_area(i, c, type);
  w.cpu_cycles_per_vector = t_.unit(c).cycles_per_vector;
  w.ports = static_cast<int>(std::min<size_t>(3, m_.operands(i).size()));
  if (const FloatUnitCost* f = float_cost(i)) {  // the IEEE-754 unit rtl instantiates
    w.depth = f->latency;
    w.lane_area = float_lane_area(*f, datapath_bits(array_type(m_.shape(i))));
    w.float_unit = float_unit_id(f);
  }
  if (c == UnitClass::kIntMul && m_.opcode(i) == Opcode::kMultiply && t_.is_fpga())
    w.lane_area.dsp = multiply_dsp_slices(i, false);
  const Opcode op = m_.opcode(i);
  const bool shift = op == Opcode::kShiftLeft || op == Opcode::kShiftRightLogical || op == Opcode::kShiftRightArithmetic;
  // a shift by a literal (a constant or a broadcast of one) is wiring; by a run-time
  // amount, a barrel shifter
  if (shift && t_.is_fpga() && !splat_source(m_, m_.operand(i, 1)))
    w.lane_area.lut = std::max(w.lane_area.lut, t_.variable_shift.luts_for(datapath_bits(type)));
  return w;
}

int WorkModel::multiply_dsp_slices(InstrId i, bool in_fused_body) const {
  // A factor synthesis sees as a literal: a power of two is a shift (no DSP), any other
  // value keeps only its significant bits (Yosys synth_xilinx: x * 3 on 32 bits takes 2
  // slices, x * 12345 two, x * -7 three).
  const int w = datapath_bits(array_type(m_.shape(i)));
  for (size_t k = 0; k < 2; ++k)
    if (const auto c = splat_constant(m_, m_.operand(i, k))) {  // entry too: a literal (classify)
      const uint64_t bits = w >= 64 ? *c : *c & ((uint64_t{1} << w) - 1);
      if ((bits & (bits - 1)) == 0) return 0;
      return dsp_slices(t_, w, 64 - __builtin_clzll(bits), w);
    }
  return mac_dsp_slices(t_, multiplier_operand_type(m_, m_.operand(i, 0), in_fused_body),
                        multiplier_operand_type(m_, m_.operand(i, 1), in_fused_body), array_type(m_.shape(i)));
}

const FloatUnitCost* WorkModel::float_cost(InstrId i) {
  if (!t_.is_fpga() || t_.float_units.empty() || m_.operands(i).empty() || !m_.shape(i).is_array() ||
      !m_.shape(m_.operand(i, 0)).is_array())
    return nullptr;
  const ir::Attributes& a = m_.attrs(i);
  const auto key = std::make_tuple(m_.opcode(i), m_.shape(m_.operand(i, 0)).element_type(), m_.shape(i).element_type(),
                                   static_cast<int>(a.direction.value_or(ir::ComparisonDirection::kEq)),
                                   a.comparison_type == "TOTALORDER", power_exponent(m_, i).value_or(0),
                                   static_cast<int>(a.exponent_bits), static_cast<int>(a.mantissa_bits));
  if (auto it = float_costs_.find(key); it != float_costs_.end()) return it->second;
  return float_costs_[key] = float_unit_cost(t_, m_, i);
}

int16_t WorkModel::float_unit_id(const FloatUnitCost* f) {
  return float_ids_.try_emplace(f, static_cast<int16_t>(float_ids_.size())).first->second;
}

Work WorkModel::move(InstrId i, int64_t elements) {
  Work w = elementwise(i, UnitClass::kMem, array_type(m_.shape(i)));
  w.n = elements;
  w.depth = t_.is_fpga() ? std::max(1, t_.memory[0].latency) : 0;
  w.ports = 1;
  return w;
}

Work WorkModel::reduction(InstrId i, int64_t outputs, int64_t terms, ir::CompId combiner) {
  return through_body(i, Form::kAccumulate, body(combiner), outputs, terms);
}

Work WorkModel::contraction(InstrId i, int64_t outputs, int64_t terms) {
  const ElementType type = array_type(m_.shape(m_.operand(i, 0)));
  const UnitClass mac = float_like(type) ? UnitClass::kFpMac : UnitClass::kIntMac;
  Work w = elementwise(i, mac, type);
  w.form = Form::kAccumulate;
  w.n = outputs;
  w.k = terms;
  w.mul_depth = t_.unit(mac_multiplier(mac)).latency;
  w.depth = t_.unit(mac_adder(mac)).latency;
  w.ports = 2;
  // FPGA float MAC: rtl's IEEE-754 multiplier and adder in the result type (the operands
  // converted to it, as ir's hardware accumulation order computes)
  const ElementType result = array_type(m_.shape(i));
  const auto mul = float_unit_key(Opcode::kMultiply, result, result), add = float_unit_key(Opcode::kAdd, result, result);
  const FloatUnitCost* fm = mac == UnitClass::kFpMac && t_.is_fpga() && mul ? t_.float_unit(mul->unit, mul->format) : nullptr;
  const FloatUnitCost* fa = fm && add ? t_.float_unit(add->unit, add->format) : nullptr;
  if (fm && fa) {
    w.mul_depth = fm->latency;
    w.depth = fa->latency;
    w.lane_area = float_lane_area(*fm, datapath_bits(result));
    w.lane_area += float_lane_area(*fa, datapath_bits(result));
  }
  if (mac == UnitClass::kIntMac && t_.is_fpga() && m_.operands(i).size() >= 2) {
    w.lane_area.dsp = mac_dsp_slices(t_, stored_type(m_, m_.operand(i, 0)), stored_type(m_, m_.operand(i, 1)),
                                     array_type(m_.shape(i)));
    w.lane_area.lut = int_mac_luts(t_, w.lane_area.dsp, type);
  }
  return w;
}

Work WorkModel::through_body(InstrId i, Form f, const BodyInfo& b, int64_t n, int64_t k) {
  Work w;
  w.form = f;
  w.n = n;
  w.k = k;
  w.type = b.type;
  if (b.ops == 0) {  // only index mapping: a memory move
    w = move(i, n);
    w.form = f;
    w.n = n;
    w.k = k;
    return w;
  }
  w.unit = f == Form::kScatter ? UnitClass::kMem : b.unit;
  w.depth = b.depth;
  w.ops_per_item = b.ops;
  w.energy_per_item = b.energy_pj;
  w.lane_area = b.lane_area;
  w.cpu_cycles_per_vector = b.cpu_cycles_per_vector;
  if (b.float_unit && f != Form::kScatter) w.float_unit = float_unit_id(b.float_unit);  // rtl shares it as an op's
  w.ports = static_cast<int>(std::clamp<size_t>(m_.operands(i).size(), 1, 4));
  if (f == Form::kAccumulate) w.ports = 1;  // the init value is loaded once
  if (f == Form::kScatter) {
    w.lane_area += lane_area(t_, UnitClass::kMem, b.type);
    w.depth += t_.is_fpga() ? t_.memory[0].latency : 0;
  }
  return w;
}

}  // namespace hlsgym::hwmodel::lowering_detail

namespace hlsgym::hwmodel {

int64_t contraction_terms(const ir::Module& m, ir::InstrId i) {
  int64_t terms = 1;
  if (m.opcode(i) == ir::Opcode::kDot) {
    const ir::Shape& lhs = m.shape(m.operand(i, 0));
    if (const auto& d = m.attrs(i).dot_dims)
      for (int64_t k : d->lhs_contracting) terms *= lhs.dim(k);
  } else if (m.opcode(i) == ir::Opcode::kConvolution) {
    const ir::Shape& rhs = m.shape(m.operand(i, 1));
    if (const auto& d = m.attrs(i).conv_dims) {
      terms = rhs.dim(d->kernel_input_feature);
      for (int64_t k : d->kernel_spatial) terms *= rhs.dim(k);
    }
  }
  return terms;
}

}  // namespace hlsgym::hwmodel
