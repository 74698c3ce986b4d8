// Literal: a dense array value (or a tuple of them) in the element type's native
// representation. Integers are stored in their own width, pred as one byte (0/1),
// f32/f64 as float/double, f16/bf16/f8/f4 as their raw bits (uint16_t or uint8_t),
// c64/c128 as std::complex<float/double>.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "ir/shape.h"

namespace hlsgym::ir {

class Literal {
 public:
  Literal() = default;
  // Zero-filled literal of an array or tuple shape.
  explicit Literal(Shape shape);

  const Shape& shape() const { return shape_; }
  bool is_tuple() const { return shape_.is_tuple(); }
  int64_t element_count() const { return shape_.element_count(); }
  int element_bytes() const { return byte_width(shape_.element_type()); }

  // `constant({...})` in HLO text: the values were not printed. Such a literal is zero
  // filled; evaluation treats it as a placeholder (see ir::evaluate).
  bool elided() const { return elided_; }
  // An elided literal of `shape` that holds no storage (its values are unknown anyway).
  static Literal elided_of(Shape shape) {
    Literal l;
    l.shape_ = std::move(shape);
    l.elided_ = true;
    return l;
  }
  void set_elided(bool e) { elided_ = e; }
  // What the interpreter fills an elided literal from. The parser derives it from the
  // constant's name as written, and it travels with the literal, so a pass that clones or
  // renames the constant (call-inliner) does not change the values it stands for. 0: the
  // interpreter uses the instruction's current name instead.
  uint64_t elided_seed() const { return elided_seed_; }
  void set_elided_seed(uint64_t s) { elided_seed_ = s; }

  std::span<std::byte> bytes() { return {data_.data(), data_.size()}; }
  std::span<const std::byte> bytes() const { return {data_.data(), data_.size()}; }
  template <typename T>
  std::span<T> data() {
    return {reinterpret_cast<T*>(data_.data()), data_.size() / sizeof(T)};
  }
  template <typename T>
  std::span<const T> data() const {
    return {reinterpret_cast<const T*>(data_.data()), data_.size() / sizeof(T)};
  }

  std::vector<Literal>& tuple_elements() { return tuple_; }
  const std::vector<Literal>& tuple_elements() const { return tuple_; }

  // Element i (row-major linear index) as double / int64 / uint64, any array type.
  double get_double(int64_t i) const;
  int64_t get_int(int64_t i) const;       // integers and pred; floats truncate
  uint64_t get_bits(int64_t i) const;     // raw bits, zero-extended
  void set_double(int64_t i, double v);   // floats round to nearest even; ints convert
  void set_int(int64_t i, int64_t v);     // ints wrap to width; floats convert
  void set_bits(int64_t i, uint64_t bits);

  // Bitwise equality of shape (ignoring layout) and contents.
  bool operator==(const Literal& o) const;

  // HLO text of the value: "1.5", "{ {1, 2}, {3, 4} }", "(1, {2})". Floats print the
  // shortest text that reads back to the same bits.
  std::string to_string() const;
  void append_element(std::string& out, int64_t i) const;

  static Literal scalar_int(ElementType t, int64_t v);
  static Literal scalar_double(ElementType t, double v);

 private:
  void append_empty(std::string& out, size_t dim) const;  // to_string of an empty array

  Shape shape_;
  std::vector<std::byte> data_;
  std::vector<Literal> tuple_;
  bool elided_ = false;
  uint64_t elided_seed_ = 0;
};

}  // namespace hlsgym::ir
