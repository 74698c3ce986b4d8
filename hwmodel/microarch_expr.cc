// ExprBuilder: one task's element computation as a scalar expression over leaves.
// Index-mapping ops (broadcast, transpose, slice, reverse, reshape, iota, pad,
// concatenate) vanish into the leaves' index expressions: a leaf says which buffer
// element it reads as a function of the task's loop counters, so the hardware computes
// the address (index_expr.h) and the Verilog does not grow with the tensors.
#include <fmt/core.h>

#include "hwmodel/chaining.h"
#include "hwmodel/float_unit_key.h"
#include "ir/float_formats.h"
#include "ir/transcendental_units.h"
#include "hwmodel/microarch_internal.h"

namespace hlsgym::hwmodel::plan_detail {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

uint64_t literal_bits(const ir::Literal& l, int64_t k) {
  const int w = datapath_width(l.shape().element_type());
  const uint64_t bits = l.get_bits(k);
  return w >= 64 ? bits : bits & ((uint64_t{1} << w) - 1);
}

// Element-wise ops the ExprBuilder turns into Verilog expressions.
bool supported_elementwise(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMultiply: case Opcode::kDivide:
    case Opcode::kRemainder: case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kAnd: case Opcode::kOr:
    case Opcode::kXor: case Opcode::kNot: case Opcode::kNegate: case Opcode::kAbs: case Opcode::kSign:
    case Opcode::kShiftLeft: case Opcode::kShiftRightLogical: case Opcode::kShiftRightArithmetic:
    case Opcode::kCompare: case Opcode::kSelect: case Opcode::kClamp: case Opcode::kConvert:
    case Opcode::kPopulationCount: case Opcode::kClz:
    case Opcode::kSqrt:  // floats only: an IEEE-754 unit (check_float_unit)
    case Opcode::kPower:  // floats only (check_float_unit)
    case Opcode::kFloor: case Opcode::kCeil: case Opcode::kRoundNearestEven: case Opcode::kRoundNearestAfz:  // floats
    case Opcode::kReducePrecision: case Opcode::kAtan2:  // floats (check_float_unit)
      return true;
    default:  // exp, log, tanh, logistic, rsqrt, erf: floats only, a transcendental unit
      return ir::transcendental_op(op).has_value();
  }
}


void check_float_unit(const PlanContext& c, InstrId i) {
  const ir::Module& m = c.m;
  bool floating = ir::is_floating(m.shape(i).element_type());
  for (InstrId a : m.operands(i)) floating |= ir::is_floating(m.shape(a).element_type());
  if (!floating) return;
  const Opcode o = m.opcode(i);
  // a select moves float bits as they are (its predicate decides); a same-width bitcast and
  // a reduce-precision that keeps every value too
  if (hwmodel::float_wiring(m, i)) return;
  const std::string type(ir::element_type_name(m.shape(m.operand(i, 0)).element_type()));
  const auto key = hwmodel::float_unit_key(m, i);
  if (!key)
    c.refuse(i, fmt::format("no IEEE-754 unit computes it on {}{} (the RTL emitter has units for add, subtract, "
                            "multiply, divide, sqrt, compare, minimum, maximum, clamp, abs, negate, convert, exponential, log, tanh, "
                            "logistic, rsqrt, erf, log-plus-one, exponential-minus-one, sine, cosine, power, floor, ceil, "
                            "round-nearest-even, round-nearest-afz, remainder, atan2 and reduce-precision on f32, f16 and bf16; select moves float data)",
                            type, o == Opcode::kConvert ? " -> " + std::string(ir::element_type_name(m.shape(i).element_type())) : ""));
  const hwmodel::FloatUnitCost* cost = c.t.float_unit(key->unit, key->format);
  if (!cost)
    c.refuse(i, fmt::format("target '{}' lists no float unit {}.{} (its `float_units:` table, written by "
                            "scripts/calibrate_float_units.sh)", c.t.name, key->unit, ir::element_type_name(key->format)));
}

ExprBuilder::Index ExprBuilder::output_index() {
  Index idx;
  for (size_t d = 0; d < tp_.loops.out_dims.size(); ++d)
    idx.push_back(tp_.ix.var(static_cast<int>(d), tp_.loops.out_dims[d]));
  return idx;
}

int ExprBuilder::leaf(Leaf l) {
  tp_.leaves.push_back(std::move(l));
  Node n;
  n.kind = Node::kLeaf;
  n.type = tp_.leaves.back().type;
  n.leaf = static_cast<int>(tp_.leaves.size()) - 1;
  return tp_.expr.add(n);
}

int ExprBuilder::read_alt_leaf(ElementType type, int buffer, int flat) {
  auto key = std::make_tuple(buffer, type, flat);
  if (auto it = reads_.find(key); it != reads_.end()) return it->second;
  Leaf l;
  l.type = type;
  Alt a;
  a.kind = Alt::kRead;
  a.buffer = buffer;
  a.index = flat;
  l.alts.push_back(std::move(a));
  const int n = leaf(std::move(l));
  reads_.emplace(std::move(key), n);
  return n;
}

int ExprBuilder::read_leaf(InstrId value, const Index& idx) {
  const ir::Shape& s = c_.m.shape(value);
  return read_alt_leaf(s.element_type(), c_.buffer_of(value), tp_.ix.ravel(idx, s.dims()));
}

int ExprBuilder::constant(ElementType type, uint64_t bits) {
  Node n;
  n.kind = Node::kConst;
  n.type = type;
  n.bits = bits;
  return tp_.expr.add(n);
}

int ExprBuilder::op(Opcode o, ElementType type, std::vector<int> args) {
  Node n;
  n.kind = Node::kOp;
  n.op = o;
  n.type = type;
  n.args = std::move(args);
  return tp_.expr.add(std::move(n));
}

// Where element `idx` of the op's result lies in operand 0, for the ops that only move
// elements.
ExprBuilder::Index ExprBuilder::remap(InstrId i, const Index& o) {
  const ir::Module& m = c_.m;
  const ir::Attributes& a = m.attrs(i);
  const std::vector<int64_t>& od = m.shape(i).dims();
  const std::vector<int64_t>& id = m.shape(m.operand(i, 0)).dims();
  IxPool& ix = tp_.ix;
  Index s(id.size(), -1);
  switch (m.opcode(i)) {
    case Opcode::kBroadcast:
      for (size_t k = 0; k < a.dimensions.size(); ++k) s[k] = o[a.dimensions[k]];
      return s;
    case Opcode::kTranspose:
      for (size_t k = 0; k < a.dimensions.size(); ++k) s[a.dimensions[k]] = o[k];
      return s;
    case Opcode::kSlice:
      for (size_t k = 0; k < o.size(); ++k) s[k] = ix.add_const(ix.scale(o[k], a.slice[k].stride), a.slice[k].start);
      return s;
    case Opcode::kReverse:
      s = o;
      for (int64_t d : a.dimensions) s[d] = ix.linear({{o[d], -1}}, id[d] - 1);
      return s;
    default:  // reshape, bitcast, copy: the same row-major element
      if (od == id) return o;
      return ix.unravel(ix.ravel(o, od), id);
  }
}

// pad, concatenate and iota choose among operands and constants by the output index:
// one leaf whose guarded alternatives say which (their operands must be buffers, i.e.
// outside any fused body).
int ExprBuilder::movement(InstrId i, const Index& o) {
  const ir::Module& m = c_.m;
  const ir::Shape& out = m.shape(i);
  IxPool& ix = tp_.ix;
  Leaf l;
  l.type = out.element_type();
  if (m.opcode(i) == Opcode::kIota) {
    if (ir::is_floating(l.type))
      c_.refuse(i, fmt::format("an iota of {} has no unit (the index is an integer): iota an integer type and "
                               "convert it", ir::element_type_name(l.type)));
    Alt a;
    a.kind = Alt::kIndex;
    a.index = o[m.attrs(i).iota_dimension];
    l.alts.push_back(a);
    return leaf(std::move(l));
  }
  if (m.opcode(i) == Opcode::kPad) {
    const auto& pads = m.attrs(i).padding;
    const ir::Shape& in = m.shape(m.operand(i, 0));
    Alt inside;
    inside.kind = Alt::kRead;
    inside.buffer = c_.buffer_of(m.operand(i, 0));
    Index s(o.size());
    for (size_t d = 0; d < o.size(); ++d) {
      const int64_t step = pads[d].interior + 1;
      const int u = ix.add_const(o[d], -pads[d].low);
      ix.require(inside.guard, u, 0, (in.dim(static_cast<int64_t>(d)) - 1) * step, step);
      s[d] = ix.div(u, step);
    }
    inside.index = ix.ravel(s, in.dims());
    if (!inside.guard.never) l.alts.push_back(std::move(inside));
    Alt value;
    value.kind = Alt::kRead;
    value.buffer = c_.buffer_of(m.operand(i, 1));
    value.index = ix.constant(0);
    l.alts.push_back(std::move(value));
    return leaf(std::move(l));
  }
  const int64_t cd = m.attrs(i).dimensions.at(0);  // concatenate
  int64_t offset = 0;
  for (InstrId part : m.operands(i)) {
    const ir::Shape& ps = m.shape(part);
    Alt a;
    a.kind = Alt::kRead;
    a.buffer = c_.buffer_of(part);
    ix.require(a.guard, o[cd], offset, offset + ps.dim(cd) - 1);
    Index s = o;
    s[cd] = ix.add_const(o[cd], -offset);
    a.index = ix.ravel(s, ps.dims());
    offset += ps.dim(cd);
    if (!a.guard.never) l.alts.push_back(std::move(a));
  }
  return leaf(std::move(l));
}

int ExprBuilder::elementwise(InstrId i, const Index& idx) {
  const ir::Module& m = c_.m;
  const Opcode o = m.opcode(i);
  check_float_unit(c_, i);
  // float power: the unit check_float_unit found (fpowi<n> or fpow); no integer power
  const bool float_power = o == Opcode::kPower && ir::is_floating(m.shape(i).element_type());
  if (!supported_elementwise(o) || (o == Opcode::kPower && !float_power))
    c_.refuse(i, "not supported by the RTL emitter (it handles integer elementwise arithmetic, logic, shifts, "
                 "compare, select, clamp, convert, popcnt, clz; broadcast, reshape, transpose, slice, "
                 "concatenate, pad, iota, reverse, copy; dot, convolution, reduce, reduce-window; loop fusions "
                 "and maps of these)");
  const int64_t n = m.shape(i).element_count();
  const std::optional<int> power_exponent = float_power ? hwmodel::power_exponent(m, i) : std::nullopt;
  std::vector<int> args;
  for (size_t k = 0; k < m.operands(i).size(); ++k) {
    const InstrId a = m.operand(i, k);
    if (float_power && k == 1 && power_exponent) {  // fpowi's exponent is its own: a literal, no read
      args.push_back(constant(m.shape(i).element_type(), ir::double_to_float_bits(m.shape(i).element_type(), *power_exponent)));
      continue;
    }
    // select's predicate and clamp's bounds may be scalars broadcast to every element
    const bool scalar = m.shape(a).rank() == 0 && m.shape(i).rank() != 0;
    args.push_back(node(a, scalar ? Index{} : idx));
  }
  (void)n;
  const int r = op(o, m.shape(i).element_type(), std::move(args));
  if (o == Opcode::kCompare) {
    tp_.expr.nodes[r].direction = m.attrs(i).direction.value_or(ir::ComparisonDirection::kEq);
    tp_.expr.nodes[r].total_order = m.attrs(i).comparison_type == "TOTALORDER";
  }
  if (float_power) tp_.expr.nodes[r].power_exponent = power_exponent.value_or(0);
  if ((o == Opcode::kDivide || o == Opcode::kRemainder) && ir::is_integral(m.shape(i).element_type()))
    tp_.expr.nodes[r].divider_bits = hwmodel::divider_bits(m, i, c_.value_bits);
  if (o == Opcode::kReducePrecision) {
    tp_.expr.nodes[r].reduce_exponent_bits = static_cast<int>(m.attrs(i).exponent_bits);
    tp_.expr.nodes[r].reduce_mantissa_bits = static_cast<int>(m.attrs(i).mantissa_bits);
  }
  return r;
}

int ExprBuilder::node(InstrId i, const Index& idx) {
  const ir::Module& m = c_.m;
  if (i != root_ && m.computation_of(i) == c_.comp && !c_.chained[i]) return read_leaf(i, idx);
  const auto key = std::make_pair(i, idx);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  int r = -1;
  const Opcode o = m.opcode(i);
  switch (o) {
    case Opcode::kParameter:
      if (!params_) c_.refuse(i, "unexpected parameter");
      r = params_(m.attrs(i).parameter_number, idx);
      break;
    case Opcode::kConstant: {
      const ir::Literal& l = m.literal(i);
      if (l.is_tuple()) c_.refuse(i, "tuple constants are not supported");
      if (m.shape(i).element_count() == 1) r = constant(m.shape(i).element_type(), literal_bits(l, 0));
      else r = read_alt_leaf(m.shape(i).element_type(), c_.rom_of(i), tp_.ix.ravel(idx, m.shape(i).dims()));
      break;
    }
    case Opcode::kFusion: case Opcode::kMap: {
      const ir::Computation& body = m.computation(m.called(i).at(0));
      // A fusion's parameters have its operands' shapes; a map's body is scalar, so its
      // parameters take the map's element as it is. Either way: operand k at `at`.
      set_params([this, i](int64_t k, const Index& at) { return node(c_.m.operand(i, k), at); });
      r = node(body.root, idx);
      break;
    }
    case Opcode::kIota: case Opcode::kPad: case Opcode::kConcatenate:
      if (i != root_ && o != Opcode::kIota) c_.refuse(i, "pad and concatenate inside a fused body are not supported");
      r = movement(i, idx);
      break;
    case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kReverse:
    case Opcode::kCopy: case Opcode::kReshape: case Opcode::kOptimizationBarrier:
      r = node(m.operand(i, 0), remap(i, idx));
      break;
    case Opcode::kReducePrecision:  // a form that keeps every value is its operand; the others a unit
      r = hwmodel::identity_reduce_precision(m, i) ? node(m.operand(i, 0), idx) : elementwise(i, idx);
      break;
    case Opcode::kBitcast: case Opcode::kBitcastConvert: {
      const ElementType from = m.shape(m.operand(i, 0)).element_type(), to = m.shape(i).element_type();
      if (ir::bit_width(from) != ir::bit_width(to) || (from != to && (from == ElementType::kPred || to == ElementType::kPred)))
        c_.refuse(i, "a bitcast that changes the element width inside a fused body is not supported");
      r = op(Opcode::kBitcastConvert, to, {node(m.operand(i, 0), o == Opcode::kBitcast ? remap(i, idx) : idx)});
      break;
    }
    default:
      r = elementwise(i, idx);
      break;
  }
  memo_.emplace(key, r);
  return r;
}

}  // namespace hlsgym::hwmodel::plan_detail
