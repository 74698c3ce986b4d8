// Shapes: an element type with dimensions (and a layout kept for printing), or a tuple.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace hlsgym::ir {

inline constexpr int64_t kUnboundedDim = -1;  // `?` in HLO text

// Layouts change no values (literals are row-major), except a bitcast's: ir/bitcast_layout.h
struct Layout {
  bool present = false;
  std::vector<int64_t> minor_to_major;
  std::string extra;  // everything after ':' inside the braces, verbatim (tiles, memory space)
  bool operator==(const Layout&) const = default;
};

class Shape {
 public:
  Shape() = default;
  Shape(ElementType type, std::vector<int64_t> dims) : type_(type), dims_(std::move(dims)) {}
  static Shape scalar(ElementType type) { return Shape(type, {}); }
  static Shape tuple(std::vector<Shape> elements);

  ElementType element_type() const { return type_; }
  void set_element_type(ElementType t) { type_ = t; }
  bool is_tuple() const { return type_ == ElementType::kTuple; }
  bool is_array() const { return is_array_type(type_); }
  bool is_token() const { return type_ == ElementType::kToken; }

  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  const std::vector<int64_t>& dims() const { return dims_; }
  std::vector<int64_t>& mutable_dims() { return dims_; }
  int64_t dim(int64_t i) const { return dims_[static_cast<size_t>(i)]; }
  // Dimensions written `<=N` (bounded dynamic); empty when the shape is static.
  const std::vector<bool>& dynamic_dims() const { return dynamic_; }
  void set_dynamic(int64_t i, bool dyn);
  bool is_static() const;

  // Element count of an array shape (1 for a scalar; 0 for tuples).
  int64_t element_count() const;
  // Dense byte size of an array, or the sum over tuple elements.
  int64_t byte_size() const;

  const std::vector<Shape>& tuple_elements() const { return tuple_; }
  std::vector<Shape>& mutable_tuple_elements() { return tuple_; }
  const Shape& tuple_element(int64_t i) const { return tuple_[static_cast<size_t>(i)]; }

  const Layout& layout() const { return layout_; }
  Layout& mutable_layout() { return layout_; }
  void clear_layout();  // recursively

  // Same element type and dimensions (and tuple structure); layouts ignored.
  bool compatible(const Shape& other) const;
  bool operator==(const Shape& other) const = default;

  // HLO text, e.g. "f32[2,3]{1,0}" or "(s32[], f32[4]{0})". Layouts printed when present.
  std::string to_string(bool with_layout = true) const;
  void append_to(std::string& out, bool with_layout = true) const;

 private:
  ElementType type_ = ElementType::kInvalid;
  std::vector<int64_t> dims_;
  std::vector<bool> dynamic_;
  std::vector<Shape> tuple_;
  Layout layout_;
};

// Row-major strides of `dims` (in elements).
std::vector<int64_t> row_major_strides(std::span<const int64_t> dims);

}  // namespace hlsgym::ir
