// Private to random_module*.cc: the generator's state and its pattern emitters.
#pragma once
#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/random_module.h"
#include "ir/shape_inference.h"

namespace hlsgym::ir::random_detail {

using E = ElementType;

// splitmix64: tiny, fast and good enough to drive a generator deterministically.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t n) { return n <= 1 ? 0 : static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<size_t>(below(static_cast<int64_t>(v.size())))]; }
};

// Emits a random module instruction by instruction (see random_module.h).
class Generator {
 public:
  Generator(const RandomModuleOptions& o) : o_(o), rng_{o.seed * 0x2545f4914f6cdd1dull + 7} {
    m_.set_name("random_" + std::to_string(o.seed));
    entry_ = m_.add_computation("main");
    m_.set_entry(entry_);
    if (o_.integers) types_.push_back(E::kS32);
    if (o_.floats) types_.push_back(E::kF32);
    if (types_.empty()) types_.push_back(E::kS32);
  }

  Module run() {
    for (int k = 0; k < 3; ++k) parameter(random_shape(rng_.pick(types_)));
    // The generator never removes instructions, so the entry's definition order is its
    // live count (instruction_count(c) walks the order: quadratic over a 100k-graph build).
    while (static_cast<int>(m_.computation(entry_).order.size()) < o_.instructions) step();
    finish();
    return std::move(m_);
  }

 private:
  // ---- values by shape, so finding an operand of a given shape is O(1) ----
  static std::string key(const Shape& s) {
    std::string k(element_type_name(s.element_type()));
    for (int64_t d : s.dims()) k += "," + std::to_string(d);
    return k;
  }
  void remember(InstrId i) {
    if (!m_.shape(i).is_array()) return;
    values_.push_back(i);
    by_shape_[key(m_.shape(i))].push_back(i);
  }
  // A recent value (recent ones make deep graphs, old ones wide graphs).
  InstrId any_value() {
    const size_t n = values_.size();
    if (rng_.chance(70)) return values_[n - 1 - static_cast<size_t>(rng_.below(std::min<int64_t>(8, n)))];
    return values_[n - 1 - static_cast<size_t>(rng_.below(std::min<int64_t>(64, n)))];
  }
  InstrId value_of(E t) {
    for (int tries = 0; tries < 6; ++tries) {
      InstrId v = any_value();
      if (m_.shape(v).element_type() == t) return v;
    }
    return convert(any_value(), t);
  }
  // A value of exactly `s`: an existing one, a new parameter, a converted or broadcast one.
  InstrId value_like(const Shape& s) {
    auto it = by_shape_.find(key(s));
    if (it != by_shape_.end() && rng_.chance(80)) {
      const auto& v = it->second;
      return v[v.size() - 1 - static_cast<size_t>(rng_.below(std::min<int64_t>(16, v.size())))];
    }
    if (rng_.chance(30)) return parameter(Shape(s.element_type(), s.dims()));
    if (rng_.chance(50)) return broadcast_scalar(scalar_constant(s.element_type(), small_value()), s);
    auto same_dims = by_shape_.end();
    for (E t : types_) {
      if (t == s.element_type()) continue;
      auto f = by_shape_.find(key(Shape(t, s.dims())));
      if (f != by_shape_.end()) same_dims = f;
    }
    if (same_dims != by_shape_.end()) return convert(same_dims->second.back(), s.element_type());
    return parameter(Shape(s.element_type(), s.dims()));
  }

  // ---- emission ----
  InstrId emit(Opcode op, std::vector<InstrId> operands, Attributes a = {},
               std::vector<CompId> called = {}, CompId c = kNoId) {
    if (c == kNoId) c = entry_;
    Shape s = infer_shape(m_, op, operands, a, called);
    InstrId i = m_.add_instruction(c, op, std::move(s), operands, std::move(a));
    if (!called.empty()) m_.mutable_payload(i).called = std::move(called);
    if (c == entry_) remember(i);
    return i;
  }
  InstrId parameter(Shape s) {
    const int64_t number = next_param_++;
    InstrId p = m_.add_parameter(entry_, number, std::move(s), "p" + std::to_string(number));
    remember(p);
    return p;
  }
  InstrId scalar_constant(E t, int64_t v, CompId c = kNoId) {
    Literal l = is_floating(t) ? Literal::scalar_double(t, static_cast<double>(v)) : Literal::scalar_int(t, v);
    InstrId i = m_.add_constant(c == kNoId ? entry_ : c, std::move(l));
    if (c == kNoId || c == entry_) remember(i);
    return i;
  }
  InstrId broadcast_scalar(InstrId scalar, const Shape& s) {
    if (s.rank() == 0) return scalar;
    Attributes a;
    return emit_shaped(Opcode::kBroadcast, {scalar}, Shape(m_.shape(scalar).element_type(), s.dims()), a);
  }
  InstrId emit_shaped(Opcode op, std::vector<InstrId> operands, Shape s, Attributes a) {
    InstrId i = m_.add_instruction(entry_, op, std::move(s), operands, std::move(a));
    remember(i);
    return i;
  }
  InstrId convert(InstrId v, E t) {
    return emit_shaped(Opcode::kConvert, {v}, Shape(t, m_.shape(v).dims()), {});
  }
  int64_t small_value() {
    static constexpr std::array<int64_t, 12> kValues{0, 1, 1, 2, 3, -1, 4, 5, 7, 8, 10, -3};
    return kValues[static_cast<size_t>(rng_.below(kValues.size()))];
  }
  Shape random_shape(E t) {
    const int64_t rank = rng_.chance(10) ? 0 : 1 + rng_.below(o_.max_rank);
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    for (auto& d : dims) d = 1 + rng_.below(o_.max_dim);
    return Shape(t, dims);
  }

  void step();
  void elementwise_unary();
  void elementwise_binary();
  void identity_pattern();
  void duplicate_pattern();
  void associative_chain();
  void compare_select();
  void movement();
  void movement_chain();
  void reduce();
  void dot();
  void dynamic_slicing();
  void gather();
  void while_loop();
  void call();
  InstrId broadcast_to_rank_plus_one(InstrId v);
  InstrId reshape_randomly(InstrId v);
  InstrId transpose_randomly(InstrId v);
  InstrId slice_randomly(InstrId v);
  CompId scalar_computation(Opcode op, E t);
  void finish();

  RandomModuleOptions o_;
  Rng rng_;
  Module m_;
  CompId entry_ = kNoId;
  int64_t next_param_ = 0;
  int loops_ = 0, calls_ = 0;
  std::vector<E> types_;
  std::vector<InstrId> values_;
  std::unordered_map<std::string, std::vector<InstrId>> by_shape_;
  std::unordered_map<std::string, CompId> scalar_comps_;
};

}  // namespace hlsgym::ir::random_detail
