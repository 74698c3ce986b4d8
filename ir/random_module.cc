// The generator's elementwise and arithmetic patterns; the structural ones (data
// movement, reductions, dots, loops, calls) are in random_module_structure.cc.
#include "ir/random_module.h"

#include "ir/random_module_generator.h"

namespace hlsgym::ir {
namespace random_detail {

void Generator::step() {
  const int64_t r = rng_.below(100);
  if (r < 16) elementwise_binary();
  else if (r < 26) elementwise_unary();
  else if (r < 36) identity_pattern();
  else if (r < 42) duplicate_pattern();
  else if (r < 48) associative_chain();
  else if (r < 56) compare_select();
  else if (r < 70) movement();
  else if (r < 78) movement_chain();
  else if (r < 85) reduce();
  else if (r < 90) dot();
  else if (r < 94) dynamic_slicing();
  else if (r < 97 && o_.control_flow) while_loop();
  else if (o_.control_flow && o_.calls) call();
  else if (o_.control_flow) while_loop();
  else elementwise_binary();
}

void Generator::elementwise_unary() {
  InstrId v = any_value();
  const E t = m_.shape(v).element_type();
  std::vector<Opcode> ops{Opcode::kNegate, Opcode::kAbs, Opcode::kCopy};
  if (t == E::kPred) ops = {Opcode::kNot, Opcode::kCopy};
  if (is_floating(t))
    ops.insert(ops.end(), {Opcode::kExp, Opcode::kTanh, Opcode::kFloor, Opcode::kSqrt, Opcode::kSign});
  if (is_integral(t)) ops.insert(ops.end(), {Opcode::kNot, Opcode::kPopulationCount, Opcode::kClz});
  if (rng_.chance(20)) {  // a convert to another type (widening, narrowing or int<->float)
    static const std::vector<E> kTargets{E::kS8, E::kS16, E::kS64, E::kU8, E::kU32, E::kF16, E::kBF16, E::kF32, E::kS32};
    E to = rng_.pick(kTargets);
    if ((is_floating(to) && !o_.floats) || (!is_floating(to) && !o_.integers)) to = t;
    InstrId c = convert(v, to);
    if (to != t && rng_.chance(40)) convert(c, t);  // a round trip, for convert-mover & co.
    return;
  }
  emit(rng_.pick(ops), {v});
}

void Generator::elementwise_binary() {
  InstrId a = any_value();
  const Shape& s = m_.shape(a);
  InstrId b = value_like(Shape(s.element_type(), s.dims()));
  std::vector<Opcode> ops{Opcode::kAdd, Opcode::kSubtract, Opcode::kMultiply, Opcode::kMaximum, Opcode::kMinimum};
  if (is_floating(s.element_type())) ops.push_back(Opcode::kDivide);
  if (is_integral(s.element_type()))
    ops.insert(ops.end(), {Opcode::kAnd, Opcode::kOr, Opcode::kXor, Opcode::kDivide, Opcode::kRemainder,
                           Opcode::kShiftLeft, Opcode::kShiftRightArithmetic, Opcode::kShiftRightLogical});
  if (s.element_type() == E::kPred) ops = {Opcode::kAnd, Opcode::kOr, Opcode::kXor};
  Opcode op = rng_.pick(ops);
  emit(op, rng_.chance(50) ? std::vector<InstrId>{a, b} : std::vector<InstrId>{b, a});
}

// x op identity, x op absorbing element, x op power-of-two, and constants on the left.
void Generator::identity_pattern() {
  InstrId a = any_value();
  const Shape s(m_.shape(a).element_type(), m_.shape(a).dims());
  const E t = s.element_type();
  if (t == E::kPred) return;
  struct Case { Opcode op; int64_t c; };
  static const std::vector<Case> kCases{{Opcode::kAdd, 0}, {Opcode::kSubtract, 0}, {Opcode::kMultiply, 1},
                                        {Opcode::kMultiply, 0}, {Opcode::kMultiply, 2}, {Opcode::kMultiply, 8},
                                        {Opcode::kMultiply, 10}, {Opcode::kMultiply, 7}, {Opcode::kDivide, 1},
                                        {Opcode::kDivide, 4}, {Opcode::kRemainder, 8}, {Opcode::kMaximum, 0},
                                        {Opcode::kOr, 0}, {Opcode::kAnd, -1}, {Opcode::kXor, 0},
                                        {Opcode::kShiftLeft, 0}, {Opcode::kDivide, 2}};
  Case k = rng_.pick(kCases);
  const bool int_only = k.op == Opcode::kRemainder || k.op == Opcode::kOr || k.op == Opcode::kAnd ||
                        k.op == Opcode::kXor || k.op == Opcode::kShiftLeft;
  if (int_only && !is_integral(t)) k = {Opcode::kAdd, 0};
  InstrId c = scalar_constant(t, k.c);
  if (s.rank() > 0) c = rng_.chance(80) ? broadcast_scalar(c, s) : [&] {
    Literal l(s);
    for (int64_t e = 0; e < l.element_count(); ++e) l.set_int(e, k.c);
    InstrId full = m_.add_constant(entry_, std::move(l));
    remember(full);
    return full;
  }();
  if (rng_.chance(25) && ir::info(k.op).commutative) emit(k.op, {c, a});
  else emit(k.op, {a, c});
}

// The same expression twice (CSE), involutions (neg(neg x), not(not x)), and tuples
// taken apart again.
void Generator::duplicate_pattern() {
  InstrId a = any_value();
  if (rng_.chance(20)) {  // a tuple taken apart again (tuple-simplifier)
    InstrId t = emit(Opcode::kTuple, {a, any_value()});
    Attributes g;
    g.tuple_index = rng_.below(2);
    emit(Opcode::kGetTupleElement, {t}, g);
    return;
  }
  if (rng_.chance(40)) {
    Opcode op = is_integral(m_.shape(a).element_type()) && rng_.chance(50) ? Opcode::kNot : Opcode::kNegate;
    if (m_.shape(a).element_type() == E::kPred) op = Opcode::kNot;
    else if (op == Opcode::kNegate && is_unsigned_integral(m_.shape(a).element_type())) op = Opcode::kNot;
    emit(op, {emit(op, {a})});
    return;
  }
  InstrId b = value_like(Shape(m_.shape(a).element_type(), m_.shape(a).dims()));
  const Opcode op = m_.shape(a).element_type() == E::kPred ? Opcode::kAnd : Opcode::kAdd;
  InstrId x = emit(op, {a, b});
  InstrId y = emit(op, {a, b});
  emit(op == Opcode::kAnd ? Opcode::kOr : Opcode::kMultiply, {x, y});
}

// A long left-leaning chain of one associative op (tree-height reduction, reassociation).
void Generator::associative_chain() {
  InstrId acc = any_value();
  const Shape s(m_.shape(acc).element_type(), m_.shape(acc).dims());
  std::vector<Opcode> ops{Opcode::kAdd, Opcode::kMaximum, Opcode::kMinimum, Opcode::kMultiply};
  if (is_integral(s.element_type())) ops.insert(ops.end(), {Opcode::kAnd, Opcode::kOr, Opcode::kXor});
  if (s.element_type() == E::kPred) ops = {Opcode::kAnd, Opcode::kOr};
  const Opcode op = rng_.pick(ops);
  const int64_t n = 3 + rng_.below(6);
  for (int64_t k = 0; k < n; ++k) acc = emit(op, {acc, value_like(s)});
}

void Generator::compare_select() {
  InstrId a = any_value();
  const Shape s(m_.shape(a).element_type(), m_.shape(a).dims());
  InstrId b = value_like(s);
  Attributes ca;
  ca.direction = static_cast<ComparisonDirection>(rng_.below(6));
  InstrId p = emit(Opcode::kCompare, {a, rng_.chance(20) ? a : b}, ca);
  const int64_t r = rng_.below(4);
  if (r == 0) {  // select with a constant predicate
    InstrId k = broadcast_scalar(scalar_constant(E::kPred, rng_.below(2)), Shape(E::kPred, s.dims()));
    emit(Opcode::kSelect, {k, a, b});
  } else if (r == 1 && s.element_type() != E::kPred) {  // clamp, or max(lo, min(x, hi))
    InstrId lo = scalar_constant(s.element_type(), -2), hi = scalar_constant(s.element_type(), 5);
    if (rng_.chance(50)) emit(Opcode::kClamp, {lo, a, hi});
    else emit(Opcode::kMaximum, {broadcast_scalar(lo, s), emit(Opcode::kMinimum, {a, broadcast_scalar(hi, s)})});
  } else {
    emit(Opcode::kSelect, {rng_.chance(20) ? emit(Opcode::kNot, {p}) : p, a, rng_.chance(10) ? a : b});
  }
}

}  // namespace random_detail

Module random_module(const RandomModuleOptions& opts) { return random_detail::Generator(opts).run(); }

}  // namespace hlsgym::ir
