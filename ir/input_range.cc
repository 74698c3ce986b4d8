#include "ir/input_range.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdlib>

#include "ir/error.h"
#include "ir/float_formats.h"
#include "ir/frontend_attributes.h"

namespace hlsgym::ir {
namespace {

constexpr std::string_view kKey = "range";

// The largest finite value of float type t.
double largest_finite(ElementType t) {
  if (t == ElementType::kF64) return std::numeric_limits<double>::max();
  // the value below infinity: the bits of +inf minus one (every format but the f8/f4 ones
  // without infinities, where the bits of the largest value are found by search)
  double best = 0;
  const int w = bit_width(t);
  for (uint64_t bits = 0; bits < (uint64_t{1} << std::min(w - 1, 16)); ++bits) {
    const double v = float_bits_to_double(t, bits);
    if (std::isfinite(v)) best = std::max(best, v);
  }
  if (w > 17) best = static_cast<double>(std::numeric_limits<float>::max());  // f32
  return best;
}

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string input_range_problem(ElementType t, double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "range bounds must be finite numbers";
  if (lo > hi) return fmt::format("range [{:g}, {:g}] is empty (lo > hi)", lo, hi);
  const std::string type(element_type_name(t));
  if (t == ElementType::kPred) {
    if (lo < 0 || hi > 1 || lo != std::floor(lo) || hi != std::floor(hi)) return "a pred range must be within [0, 1]";
    return "";
  }
  if (is_integral(t)) {
    if (lo != std::floor(lo) || hi != std::floor(hi)) return "range bounds of " + type + " must be integers";
    const int w = bit_width(t);
    const double min = is_signed_integral(t) ? -std::ldexp(1.0, w - 1) : 0;
    const double max = std::ldexp(1.0, is_signed_integral(t) ? w - 1 : w) - 1;
    if (lo < min || hi > max) return fmt::format("range [{:g}, {:g}] is beyond {} ([{:g}, {:g}])", lo, hi, type, min, max);
    return "";
  }
  if (is_floating(t)) {
    const double max = largest_finite(t);
    if (lo < -max || hi > max) return fmt::format("range [{:g}, {:g}] is beyond the finite values of {} (+-{:g})", lo, hi, type, max);
    return "";
  }
  return "a range needs a numeric type, not " + type;
}

std::optional<InputRange> input_range(const Module& m, InstrId i) {
  const std::optional<std::string> text = frontend_attribute(m.attrs(i), kKey);
  if (!text) return std::nullopt;
  const size_t comma = text->find(',');
  const std::optional<double> lo = comma == std::string::npos ? std::nullopt : number(text->substr(0, comma));
  const std::optional<double> hi = comma == std::string::npos ? std::nullopt : number(text->substr(comma + 1));
  const std::string where = fmt::format("parameter {}", m.name(i));
  const SourceLocation at{m.source_file(), m.payload(i).line, m.payload(i).column};
  if (!lo || !hi) throw Error(fmt::format("{}: range \"{}\" is not \"lo,hi\" (two numbers)", where, *text), at);
  const std::string problem = m.shape(i).is_array() ? input_range_problem(m.shape(i).element_type(), *lo, *hi)
                                                     : "a range needs an array or scalar input, not a tuple";
  if (!problem.empty()) throw Error(where + ": " + problem, at);
  return InputRange{*lo, *hi};
}

void set_input_range(Module& m, InstrId i, const InputRange& r) {
  set_frontend_attribute(m.mutable_payload(i).attrs, kKey, fmt::format("{:.17g},{:.17g}", r.lo, r.hi));
}

}  // namespace hlsgym::ir
