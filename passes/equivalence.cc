#include "passes/equivalence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ir/cost_analysis.h"
#include "ir/error.h"
#include "ir/evaluate.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::Literal;

bool floats_equal(double a, double b, ElementType t, bool tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // also -0 == +0 and equal infinities
  if (!tolerance || std::isinf(a) || std::isinf(b)) return false;
  const double tol = float_tolerance_for(t);
  return std::fabs(a - b) <= tol * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// Compares two array leaves; on a mismatch returns its description (index as given by
// `index_of`, which maps a position in the leaf to the element's index in the output).
template <typename IndexOf>
std::string compare_leaf(const Literal& x, const Literal& y, bool tolerance, int64_t& compared,
                         IndexOf index_of) {
  const ElementType t = x.shape().element_type();
  if (y.shape().element_type() != t || x.element_count() != y.element_count())
    return fmt::format("output shapes differ: {} before, {} after", x.shape().to_string(false),
                       y.shape().to_string(false));
  const bool is_float = ir::is_floating(t);
  const int width = ir::byte_width(t);
  for (int64_t k = 0; k < x.element_count(); ++k) {
    ++compared;
    bool same;
    if (is_float) same = floats_equal(x.get_double(k), y.get_double(k), t, tolerance);
    else if (ir::is_complex(t)) same = std::memcmp(x.bytes().data() + k * width, y.bytes().data() + k * width, width) == 0;
    else same = x.get_bits(k) == y.get_bits(k);
    if (!same) {
      std::string a, b;
      x.append_element(a, k);
      y.append_element(b, k);
      return fmt::format("element {}: {} before, {} after", index_of(k), a, b);
    }
  }
  return {};
}

void leaves(const Literal& l, std::vector<const Literal*>& out) {
  if (l.is_tuple())
    for (const auto& e : l.tuple_elements()) leaves(e, out);
  else out.push_back(&l);
}

std::string compare_whole(const ir::Module& before, const ir::Module& after,
                          std::span<const Literal> args, const EquivalenceOptions& o,
                          EquivalenceResult& r) {
  const ir::EvalResult x = ir::evaluate(before, args);  // an Error here means "skipped"
  ir::EvalResult y;
  try {
    y = ir::evaluate(after, args);
  } catch (const Error& e) {
    return std::string("the optimized module cannot be interpreted: ") + e.what();
  }
  r.uses_placeholders |= x.uses_placeholders || y.uses_placeholders;
  std::vector<const Literal*> lx, ly;
  leaves(x.value, lx);
  leaves(y.value, ly);
  if (lx.size() != ly.size())
    return fmt::format("{} output arrays before, {} after", lx.size(), ly.size());
  for (size_t k = 0; k < lx.size(); ++k) {
    std::string d = compare_leaf(*lx[k], *ly[k], o.float_tolerance, r.compared,
                                 [](int64_t i) { return i; });
    if (!d.empty()) return fmt::format("output {} {}", k, d);
  }
  return {};
}

std::string compare_sampled(const ir::Module& before, const ir::Module& after,
                            std::span<const Literal> args, uint64_t seed,
                            const EquivalenceOptions& o, EquivalenceResult& r) {
  const ir::SampledResult x = ir::evaluate_sampled(before, args, o.samples, seed);
  ir::SampledResult y;
  try {
    y = ir::evaluate_sampled(after, args, o.samples, seed);
  } catch (const Error& e) {
    return std::string("the optimized module cannot be interpreted: ") + e.what();
  }
  r.uses_placeholders |= x.uses_placeholders || y.uses_placeholders;
  if (x.values.size() != y.values.size())
    return fmt::format("{} output arrays before, {} after", x.values.size(), y.values.size());
  for (size_t k = 0; k < x.values.size(); ++k) {
    if (x.indices[k] != y.indices[k]) return fmt::format("output {}: sampled indices differ", k);
    const auto& idx = x.indices[k];
    std::string d = compare_leaf(x.values[k], y.values[k], o.float_tolerance, r.compared,
                                 [&](int64_t i) { return idx[static_cast<size_t>(i)]; });
    if (!d.empty()) return fmt::format("output {} {}", k, d);
  }
  return {};
}

}  // namespace

std::string_view status_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::kPassed: return "passed";
    case CheckStatus::kFailed: return "failed";
    case CheckStatus::kSkipped: return "skipped";
  }
  return "?";
}

double float_tolerance_for(ElementType t) {
  switch (t) {
    case ElementType::kF64: return 1e-9;
    case ElementType::kF32: return 1e-4;
    case ElementType::kF16: return 1e-2;
    case ElementType::kBF16: return 5e-2;
    default: return 0.25;  // f8 and f4 formats: a couple of ulps of a 2-4 bit mantissa
  }
}

double evaluation_work(const ir::Module& m) {
  double elements = 0;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.computation(c).order)
      if (m.is_live(i) && m.shape(i).is_array()) elements += static_cast<double>(m.shape(i).element_count());
  return elements + ir::module_cost(m).flops;
}

EquivalenceResult check_equivalence(const ir::Module& before, const ir::Module& after,
                                    const EquivalenceOptions& o) {
  EquivalenceResult r;
  double input_bytes = 0;
  for (ir::InstrId p : before.computation(before.entry()).params)
    input_bytes += static_cast<double>(before.shape(p).byte_size());
  if (input_bytes > o.max_input_bytes) {
    r.detail = fmt::format("the inputs take {:.1f} GB, more than the {:.1f} GB the checker materializes",
                           input_bytes / 1e9, o.max_input_bytes / 1e9);
    return r;
  }
  r.sampled = o.force_sampled || evaluation_work(before) > o.whole_budget ||
              evaluation_work(after) > o.whole_budget;
  try {
    for (int k = 0; k < o.input_sets; ++k) {
      const uint64_t seed = o.seed + static_cast<uint64_t>(k);
      const std::vector<Literal> args = ir::random_inputs(before, seed);
      std::string d = r.sampled ? compare_sampled(before, after, args, seed, o, r)
                                : compare_whole(before, after, args, o, r);
      if (!d.empty()) {
        r.status = CheckStatus::kFailed;
        r.detail = fmt::format("input set {} (seed {}): {}", k, seed, d);
        return r;
      }
    }
  } catch (const Error& e) {
    r.status = CheckStatus::kSkipped;
    r.detail = std::string("cannot interpret: ") + e.what();
    return r;
  }
  r.status = CheckStatus::kPassed;
  return r;
}

}  // namespace hlsgym::passes
