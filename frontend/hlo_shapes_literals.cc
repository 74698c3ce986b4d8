// Shapes and literals in HLO text.
#include <charconv>
#include <cmath>
#include <complex>
#include <algorithm>
#include <limits>

#include "frontend/hlo_syntax.h"

namespace hlsgym::frontend {
namespace {
constexpr int kMaxNesting = 64;  // tuples inside tuples; deeper input is rejected, not recursed

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

void read_layout(TextCursor& c, ir::Shape& s) {
  // `{` after a shape is a layout only if an integer, ':' or '}' follows.
  const size_t save = c.pos();
  if (!c.consume('{')) return;
  c.skip_space();
  if (!(is_digit(c.peek()) || c.peek() == ':' || c.peek() == '}')) {
    c.set_pos(save);
    return;
  }
  ir::Layout& l = s.mutable_layout();
  l.present = true;
  while (true) {
    c.skip_space();
    if (c.peek() == '}' || c.peek() == ':') break;
    int64_t v;
    if (!c.integer(v)) c.fail("expected a dimension number in the layout");
    l.minor_to_major.push_back(v);
    if (!c.consume(',')) break;
  }
  if (c.consume(':')) {
    const size_t start = c.pos();
    int depth = 0;
    while (!c.at_end() && !(c.peek() == '}' && depth == 0)) {
      if (c.peek() == '(' || c.peek() == '{') ++depth;
      if (c.peek() == ')' || c.peek() == '}') --depth;
      c.set_pos(c.pos() + 1);
    }
    l.extra = std::string(c.text().substr(start, c.pos() - start));
  }
  c.expect('}', "to close the layout");
}

ir::Shape read_shape_at(TextCursor& c, int depth) {
  if (depth > kMaxNesting) c.fail("shape nested too deeply");
  c.skip_space();
  if (c.peek() == '(') {
    c.consume('(');
    std::vector<ir::Shape> elements;
    if (!c.consume(')')) {
      do elements.push_back(read_shape_at(c, depth + 1));
      while (c.consume(','));
      c.expect(')', "to close the tuple shape");
    }
    return ir::Shape::tuple(std::move(elements));
  }
  const size_t start = c.pos();
  std::string_view type_name = c.name();
  auto type = ir::element_type_from_name(type_name);
  if (!type) {
    c.fail_at(start, type_name.empty() ? "expected a shape"
                                       : "unknown element type '" + std::string(type_name) + "'");
  }
  ir::Shape s(*type, {});
  c.expect('[', "after the element type");
  if (!c.consume(']')) {
    do {
      c.skip_space();
      if (c.consume('?')) {
        s.mutable_dims().push_back(ir::kUnboundedDim);
        continue;
      }
      const bool bounded = c.consume("<=");
      int64_t d;
      if (!c.integer(d) || d < 0) c.fail("expected a non-negative dimension size");
      s.mutable_dims().push_back(d);
      if (bounded) s.set_dynamic(s.rank() - 1, true);
    } while (c.consume(','));
    c.expect(']', "to close the dimensions");
  }
  read_layout(c, s);
  return s;
}

// ---- literals ----

double read_real(TextCursor& c) {
  c.skip_space();
  bool neg = false;
  if (c.peek() == '-') neg = true, c.set_pos(c.pos() + 1);
  else if (c.peek() == '+') c.set_pos(c.pos() + 1);
  std::string_view rest = c.rest();
  if (rest.substr(0, 3) == "inf") {
    c.set_pos(c.pos() + 3);
    return neg ? -INFINITY : INFINITY;
  }
  if (rest.substr(0, 3) == "nan") {
    c.set_pos(c.pos() + 3);
    if (c.peek() == '(') c.balanced();  // nan(0x...) payload: value stays NaN
    return neg ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
  }
  double v = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  if (ec == std::errc::result_out_of_range) {
    // Overflowing text means +-inf or 0 like strtod; find the end of the number.
    char* end = nullptr;
    std::string tmp(rest.substr(0, std::min<size_t>(rest.size(), 64)));
    v = std::strtod(tmp.c_str(), &end);
    c.set_pos(c.pos() + static_cast<size_t>(end - tmp.c_str()));
    return neg ? -v : v;
  }
  if (ec != std::errc()) c.fail("expected a number");
  c.set_pos(c.pos() + static_cast<size_t>(p - rest.data()));
  return neg ? -v : v;
}

void read_element(TextCursor& c, ir::Literal& l, int64_t i) {
  const ir::ElementType t = l.shape().element_type();
  c.skip_space();
  if (t == ir::ElementType::kPred) {
    if (c.consume("true")) return l.set_int(i, 1);
    if (c.consume("false")) return l.set_int(i, 0);
    int64_t v;
    if (!c.integer(v)) c.fail("expected true, false, 0 or 1");
    return l.set_int(i, v != 0);
  }
  if (ir::is_integral(t)) {
    if (ir::is_unsigned_integral(t) && c.peek() != '-') {
      uint64_t v = 0;
      std::string_view rest = c.rest();
      auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
      if (ec != std::errc()) c.fail("expected an unsigned integer");
      c.set_pos(c.pos() + static_cast<size_t>(p - rest.data()));
      return l.set_bits(i, v);
    }
    int64_t v;
    if (!c.integer(v)) c.fail("expected an integer");
    return l.set_int(i, v);
  }
  if (ir::is_complex(t)) {
    c.expect('(', "to open a complex value");
    double re = read_real(c);
    c.expect(',', "between real and imaginary parts");
    double im = read_real(c);
    c.expect(')', "to close a complex value");
    if (t == ir::ElementType::kC64) l.data<std::complex<float>>()[i] = {float(re), float(im)};
    else l.data<std::complex<double>>()[i] = {re, im};
    return;
  }
  l.set_double(i, read_real(c));
}

void read_dense(TextCursor& c, ir::Literal& l, size_t dim, int64_t& next) {
  const auto& dims = l.shape().dims();
  if (dim == dims.size()) return read_element(c, l, next++);
  const size_t open = c.pos();
  c.expect('{', "to open a literal dimension");
  int64_t count = 0;
  if (!c.consume('}')) {
    do {
      if (count == dims[dim]) {
        c.fail("literal has more than " + std::to_string(dims[dim]) + " elements in dimension " +
               std::to_string(dim) + " of " + l.shape().to_string(false));
      }
      read_dense(c, l, dim + 1, next);
      ++count;
    } while (c.consume(','));
    c.expect('}', "to close a literal dimension");
  }
  if (count != dims[dim])
    c.fail_at(open, "literal has " + std::to_string(count) + " elements in dimension " +
                        std::to_string(dim) + " but the shape " + l.shape().to_string(false) +
                        " needs " + std::to_string(dims[dim]));
}

ir::Literal read_literal_at(TextCursor& c, const ir::Shape& shape, int depth) {
  if (depth > kMaxNesting) c.fail("literal nested too deeply");
  c.skip_space();
  if (shape.is_array() && c.rest().substr(0, 5) == "{...}") {
    c.set_pos(c.pos() + 5);
    return ir::Literal::elided_of(shape);
  }
  // Every element takes at least one character, so a shape with more elements than the
  // remaining text cannot be filled: say so before allocating it.
  if (shape.is_array() && shape.element_count() > std::max<int64_t>(1, static_cast<int64_t>(c.rest().size())))
    c.fail("the literal has fewer values than " + shape.to_string(false) + " needs");
  if (shape.is_array() && shape.element_count() > kMaxConstantElements)
    c.fail("constant " + shape.to_string(false) + " is too large");
  ir::Literal l(shape);
  if (shape.is_tuple()) {
    c.expect('(', "to open a tuple literal");
    auto& elems = l.tuple_elements();
    for (size_t k = 0; k < elems.size(); ++k) {
      if (k) c.expect(',', "between tuple literal elements");
      elems[k] = read_literal_at(c, shape.tuple_element(static_cast<int64_t>(k)), depth + 1);
    }
    c.expect(')', "to close a tuple literal");
    return l;
  }
  if (!shape.is_array()) c.fail("a constant must have an array or tuple shape");
  int64_t next = 0;
  if (shape.rank() == 0) {
    // A scalar may be written bare or in braces.
    if (c.consume('{')) {
      read_element(c, l, 0);
      c.expect('}', "to close the scalar literal");
    } else {
      read_element(c, l, 0);
    }
    return l;
  }
  read_dense(c, l, 0, next);
  return l;
}
}  // namespace

bool at_shape(const TextCursor& c) {
  std::string_view rest = c.rest();
  if (!rest.empty() && rest[0] == '(') return true;
  size_t n = 0;
  while (n < rest.size() && is_name_char(rest[n])) ++n;
  return n < rest.size() && rest[n] == '[' && ir::element_type_from_name(rest.substr(0, n));
}

ir::Shape read_shape(TextCursor& c) { return read_shape_at(c, 0); }

ir::Literal read_literal(TextCursor& c, const ir::Shape& shape) {
  return read_literal_at(c, shape, 0);
}

}  // namespace hlsgym::frontend
