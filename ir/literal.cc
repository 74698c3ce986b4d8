#include "ir/literal.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "ir/float_formats.h"

namespace hlsgym::ir {

Literal::Literal(Shape shape) : shape_(std::move(shape)) {
  if (shape_.is_tuple()) {
    tuple_.reserve(shape_.tuple_elements().size());
    for (const auto& e : shape_.tuple_elements()) tuple_.emplace_back(e);
  } else if (shape_.is_array()) {
    data_.assign(static_cast<size_t>(shape_.byte_size()), std::byte{0});
  }
}

uint64_t Literal::get_bits(int64_t i) const {
  const int w = element_bytes();
  uint64_t v = 0;
  std::memcpy(&v, data_.data() + i * w, static_cast<size_t>(std::min(w, 8)));
  return v;
}

void Literal::set_bits(int64_t i, uint64_t bits) {
  const int w = element_bytes();
  // Sub-byte types (u2/u4/s2/s4, f4) keep only their own bits: every reader (get_bits,
  // bitwise comparison of literals, the checker) may then trust the stored byte.
  if (const int b = bit_width(shape_.element_type()); b > 0 && b < 8 * w) bits &= (uint64_t{1} << b) - 1;
  std::memcpy(data_.data() + i * w, &bits, static_cast<size_t>(std::min(w, 8)));
}

namespace {
int64_t sign_extend(uint64_t bits, int width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t m = uint64_t{1} << (width - 1);
  bits &= (uint64_t{1} << width) - 1;
  return static_cast<int64_t>((bits ^ m) - m);
}
uint64_t truncate(uint64_t bits, int width) {
  return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
}
}  // namespace

int64_t Literal::get_int(int64_t i) const {
  const ElementType t = shape_.element_type();
  if (t == ElementType::kPred) return get_bits(i) != 0;
  if (is_signed_integral(t)) return sign_extend(get_bits(i), bit_width(t));
  if (is_unsigned_integral(t)) return static_cast<int64_t>(truncate(get_bits(i), bit_width(t)));
  return static_cast<int64_t>(get_double(i));
}

double Literal::get_double(int64_t i) const {
  const ElementType t = shape_.element_type();
  if (is_floating(t)) return float_bits_to_double(t, get_bits(i));
  if (t == ElementType::kC64) return data<std::complex<float>>()[i].real();
  if (t == ElementType::kC128) return data<std::complex<double>>()[i].real();
  if (is_unsigned_integral(t)) return static_cast<double>(truncate(get_bits(i), bit_width(t)));
  return static_cast<double>(get_int(i));
}

void Literal::set_int(int64_t i, int64_t v) {
  const ElementType t = shape_.element_type();
  if (t == ElementType::kPred) return set_bits(i, v != 0);
  if (is_integral(t)) return set_bits(i, truncate(static_cast<uint64_t>(v), bit_width(t)));
  set_double(i, static_cast<double>(v));
}

void Literal::set_double(int64_t i, double v) {
  const ElementType t = shape_.element_type();
  if (is_floating(t)) return set_bits(i, double_to_float_bits(t, v));
  if (t == ElementType::kC64) {
    data<std::complex<float>>()[i] = {static_cast<float>(v), 0.0f};
    return;
  }
  if (t == ElementType::kC128) {
    data<std::complex<double>>()[i] = {v, 0.0};
    return;
  }
  if (t == ElementType::kPred) return set_bits(i, v != 0.0);
  if (is_unsigned_integral(t)) return set_bits(i, truncate(static_cast<uint64_t>(v), bit_width(t)));
  set_int(i, static_cast<int64_t>(v));
}

bool Literal::operator==(const Literal& o) const {
  return shape_.compatible(o.shape_) && data_ == o.data_ && tuple_ == o.tuple_;
}

Literal Literal::scalar_int(ElementType t, int64_t v) {
  Literal l(Shape::scalar(t));
  l.set_int(0, v);
  return l;
}

Literal Literal::scalar_double(ElementType t, double v) {
  Literal l(Shape::scalar(t));
  l.set_double(0, v);
  return l;
}

namespace {
void append_real(std::string& out, double v, ElementType t) {
  if (std::isnan(v)) {
    out += std::signbit(v) ? "-nan" : "nan";
  } else if (std::isinf(v)) {
    out += v < 0 ? "-inf" : "inf";
  } else if (t == ElementType::kF64) {
    fmt::format_to(std::back_inserter(out), "{}", v);
  } else {
    // Every narrower format is exactly representable as float; shortest float text
    // reads back to the same float and therefore the same narrow bits.
    fmt::format_to(std::back_inserter(out), "{}", static_cast<float>(v));
  }
}
}  // namespace

void Literal::append_element(std::string& out, int64_t i) const {
  const ElementType t = shape_.element_type();
  if (t == ElementType::kPred) {
    out += get_bits(i) ? "true" : "false";
  } else if (is_signed_integral(t)) {
    out += std::to_string(get_int(i));
  } else if (is_unsigned_integral(t)) {
    out += std::to_string(static_cast<uint64_t>(get_int(i)));
  } else if (t == ElementType::kC64 || t == ElementType::kC128) {
    std::complex<double> c = t == ElementType::kC64
                                 ? std::complex<double>(data<std::complex<float>>()[i])
                                 : data<std::complex<double>>()[i];
    const ElementType part = t == ElementType::kC64 ? ElementType::kF32 : ElementType::kF64;
    out += '(';
    append_real(out, c.real(), part);
    out += ", ";
    append_real(out, c.imag(), part);
    out += ')';
  } else {
    append_real(out, get_double(i), t);
  }
}

void Literal::append_empty(std::string& out, size_t dim) const {
  const auto& dims = shape_.dims();
  if (dim == dims.size() || dims[dim] == 0) {
    out += "{}";
    return;
  }
  out += "{ ";
  for (int64_t k = 0; k < dims[dim]; ++k) {
    if (k) out += ", ";
    append_empty(out, dim + 1);
  }
  out += " }";
}

std::string Literal::to_string() const {
  std::string out;
  if (is_tuple()) {
    out += '(';
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i) out += ", ";
      out += tuple_[i].to_string();
    }
    out += ')';
    return out;
  }
  if (elided_) return "{...}";
  const auto& dims = shape_.dims();
  if (dims.empty()) {
    append_element(out, 0);
    return out;
  }
  // Nested braces, one level per dimension, as XLA prints them.
  const auto strides = row_major_strides(dims);
  const int64_t n = element_count();
  const int64_t rank = shape_.rank();
  if (n == 0) {  // one list per index down to the first empty dimension, as the parser reads it
    append_empty(out, 0);
    return out;
  }
  for (int64_t i = 0; i < n; ++i) {
    int opens = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (i % (strides[d] * dims[d]) == 0) ++opens;
    if (i > 0) out += opens ? ", " : ", ";
    for (int k = 0; k < opens; ++k) out += rank > 1 && k < opens - 1 ? "{ " : "{";
    append_element(out, i);
    int closes = 0;
    for (int64_t d = 0; d < rank; ++d)
      if ((i + 1) % (strides[d] * dims[d]) == 0) ++closes;
    for (int k = 0; k < closes; ++k) out += (closes > 1 && k > 0) ? " }" : "}";
  }
  return out;
}

}  // namespace hlsgym::ir
