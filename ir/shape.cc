#include "ir/shape.h"

#include <fmt/format.h>

#include <limits>

namespace hlsgym::ir {

Shape Shape::tuple(std::vector<Shape> elements) {
  Shape s;
  s.type_ = ElementType::kTuple;
  s.tuple_ = std::move(elements);
  return s;
}

void Shape::set_dynamic(int64_t i, bool dyn) {
  if (dynamic_.size() < dims_.size()) dynamic_.resize(dims_.size(), false);
  dynamic_[static_cast<size_t>(i)] = dyn;
  bool any = false;
  for (bool b : dynamic_) any |= b;
  if (!any) dynamic_.clear();
}

bool Shape::is_static() const {
  if (is_tuple()) {
    for (const auto& e : tuple_)
      if (!e.is_static()) return false;
    return true;
  }
  for (int64_t d : dims_)
    if (d == kUnboundedDim) return false;
  return dynamic_.empty();
}

// Counts that do not fit in 64 bits saturate at INT64_MAX: a wrapped product (f32[2^63-1,8]
// is -8 elements) would slip past every "too large" check and reach an allocation.
int64_t Shape::element_count() const {
  if (!is_array()) return 0;
  for (int64_t d : dims_)
    if (d <= 0) return 0;
  int64_t n = 1;
  for (int64_t d : dims_)
    if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<int64_t>::max();
  return n;
}

int64_t Shape::byte_size() const {
  int64_t n = 0;
  if (is_tuple()) {
    for (const auto& e : tuple_)
      if (__builtin_add_overflow(n, e.byte_size(), &n)) return std::numeric_limits<int64_t>::max();
    return n;
  }
  if (!is_array()) return 0;
  if (__builtin_mul_overflow(element_count(), static_cast<int64_t>(byte_width(type_)), &n))
    return std::numeric_limits<int64_t>::max();
  return n;
}

void Shape::clear_layout() {
  layout_ = Layout{};
  for (auto& e : tuple_) e.clear_layout();
}

bool Shape::compatible(const Shape& o) const {
  if (type_ != o.type_) return false;
  if (is_tuple()) {
    if (tuple_.size() != o.tuple_.size()) return false;
    for (size_t i = 0; i < tuple_.size(); ++i)
      if (!tuple_[i].compatible(o.tuple_[i])) return false;
    return true;
  }
  return dims_ == o.dims_;
}

void Shape::append_to(std::string& out, bool with_layout) const {
  if (is_tuple()) {
    out += '(';
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i) out += ", ";
      tuple_[i].append_to(out, with_layout);
    }
    out += ')';
    return;
  }
  out += element_type_name(type_);
  if (type_ == ElementType::kToken || type_ == ElementType::kOpaque) {
    out += "[]";
    return;
  }
  out += '[';
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ',';
    if (dims_[i] == kUnboundedDim) {
      out += '?';
      continue;
    }
    if (i < dynamic_.size() && dynamic_[i]) out += "<=";
    out += std::to_string(dims_[i]);
  }
  out += ']';
  if (with_layout && layout_.present) {
    out += '{';
    for (size_t i = 0; i < layout_.minor_to_major.size(); ++i) {
      if (i) out += ',';
      out += std::to_string(layout_.minor_to_major[i]);
    }
    if (!layout_.extra.empty()) {
      out += ':';
      out += layout_.extra;
    }
    out += '}';
  }
}

std::string Shape::to_string(bool with_layout) const {
  std::string s;
  append_to(s, with_layout);
  return s;
}

std::vector<int64_t> row_major_strides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1];
  return strides;
}

}  // namespace hlsgym::ir
