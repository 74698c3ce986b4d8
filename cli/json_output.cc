#include "cli/json_output.h"

#include <cmath>
#include <complex>

#include "frontend/source_text.h"
#include "ir/error.h"

namespace hlsgym::cli {
namespace {
using nlohmann::json;
using ir::ElementType;

json element_to_json(const ir::Literal& v, int64_t i) {
  const ElementType t = v.shape().element_type();
  if (t == ElementType::kPred) return v.get_int(i) != 0;
  if (ir::is_signed_integral(t)) return v.get_int(i);
  if (ir::is_unsigned_integral(t)) return static_cast<uint64_t>(v.get_int(i));
  auto real = [](double d) -> json {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    return d;
  };
  if (t == ElementType::kC64) {
    auto c = v.data<std::complex<float>>()[i];
    return json::array({real(c.real()), real(c.imag())});
  }
  if (t == ElementType::kC128) {
    auto c = v.data<std::complex<double>>()[i];
    return json::array({real(c.real()), real(c.imag())});
  }
  return real(v.get_double(i));
}

json nest(const ir::Literal& v, size_t dim, int64_t& next) {
  const auto& dims = v.shape().dims();
  if (dim == dims.size()) return element_to_json(v, next++);
  json arr = json::array();
  for (int64_t k = 0; k < dims[dim]; ++k) arr.push_back(nest(v, dim + 1, next));
  return arr;
}

double number_of(const json& j, const std::string& what) {
  if (j.is_number()) return j.get<double>();
  if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "nan") return NAN;
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
  }
  throw Error(what + ": expected a number, got " + j.dump());
}

void fill(const json& j, const ir::Shape& shape, size_t dim, int64_t& next, ir::Literal& out,
          const std::string& what) {
  const auto& dims = shape.dims();
  if (dim == dims.size()) {
    const ElementType t = shape.element_type();
    if (ir::is_integral(t) || t == ElementType::kPred) {
      if (!j.is_number_integer() && !j.is_boolean()) throw Error(what + ": expected an integer, got " + j.dump());
      // A value the type cannot hold is refused, not wrapped (40000 is not an s16).
      const int bits = t == ElementType::kPred ? 1 : ir::bit_width(t);
      const bool fits = j.is_boolean() ? true
                        : j.is_number_unsigned()
                            ? (ir::is_signed_integral(t) ? j.get<uint64_t>() <= (uint64_t{1} << (bits - 1)) - 1
                                                         : bits >= 64 || j.get<uint64_t>() <= (uint64_t{1} << bits) - 1)
                            : (ir::is_signed_integral(t) ? bits >= 64 || (j.get<int64_t>() >= -(int64_t{1} << (bits - 1)) &&
                                                                          j.get<int64_t>() <= (int64_t{1} << (bits - 1)) - 1)
                                                         : j.get<int64_t>() >= 0 &&
                                                               (bits >= 64 || j.get<int64_t>() <= (int64_t{1} << bits) - 1));
      if (!fits)
        throw Error(what + ": " + j.dump() + " is out of range for " + std::string(ir::element_type_name(t)));
      if (j.is_boolean()) out.set_int(next++, j.get<bool>());
      else if (j.is_number_unsigned()) out.set_bits(next++, j.get<uint64_t>());
      else out.set_int(next++, j.get<int64_t>());
    } else {
      const double v = number_of(j, what);
      out.set_double(next, v);
      // A finite number beyond the type's range would silently become infinity.
      if (std::isfinite(v) && ir::is_floating(t) && !std::isfinite(out.get_double(next)))
        throw Error(what + ": " + j.dump() + " is out of range for " + std::string(ir::element_type_name(t)));
      ++next;
    }
    return;
  }
  if (!j.is_array() || static_cast<int64_t>(j.size()) != dims[dim])
    throw Error(what + ": expected a list of " + std::to_string(dims[dim]) + " at depth " +
                std::to_string(dim) + " for " + shape.to_string(false));
  for (const auto& e : j) fill(e, shape, dim + 1, next, out, what);
}
}  // namespace

json literal_to_json(const ir::Literal& v, int64_t max_elements) {
  if (v.is_tuple()) {
    json arr = json::array();
    for (const auto& e : v.tuple_elements()) arr.push_back(literal_to_json(e, max_elements));
    return arr;
  }
  if (max_elements > 0 && v.element_count() > max_elements) {
    json first = json::array();
    for (int64_t i = 0; i < max_elements; ++i) first.push_back(element_to_json(v, i));
    return {{"shape", v.shape().to_string(false)}, {"truncated", true}, {"first", first}};
  }
  int64_t next = 0;
  return nest(v, 0, next);
}

ir::Literal literal_from_json(const json& j, const ir::Shape& shape, const std::string& what) {
  if (!shape.is_array()) throw Error(what + ": only array-shaped inputs can be given");
  ir::Literal out(shape);
  int64_t next = 0;
  fill(j, shape, 0, next, out, what);
  return out;
}

// Inputs from a JSON file: an object {parameter name: value} or a list in parameter order.
std::vector<ir::Literal> inputs_from_json_file(const ir::Module& m, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(frontend::read_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(std::string("invalid JSON: ") + e.what(), {path});
  }
  const auto& params = m.computation(m.entry()).params;
  std::vector<ir::Literal> args;
  for (size_t k = 0; k < params.size(); ++k) {
    const std::string& name = m.name(params[k]);
    const nlohmann::json* v = nullptr;
    if (j.is_object() && j.contains(name)) v = &j[name];
    if (j.is_array() && k < j.size()) v = &j[k];
    if (!v) throw Error("no value given for parameter '" + name + "'", {path});
    args.push_back(literal_from_json(*v, m.shape(params[k]), path + ": " + name));
  }
  return args;
}

}  // namespace hlsgym::cli
