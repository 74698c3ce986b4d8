#include "passes/equivalence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <vector>

#include "ir/cost_analysis.h"
#include "ir/error.h"
#include "ir/evaluate.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::Literal;

// The accumulation the tolerance allows for (longest_float_accumulation of `before`).
struct Accumulation {
  ElementType type = ElementType::kInvalid;
  double terms = 1;
};

bool floats_equal(double a, double b, ElementType t, bool tolerance, const Accumulation& acc) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // also -0 == +0 and equal infinities
  if (!tolerance || std::isinf(a) || std::isinf(b)) return false;
  const FloatTolerance tol = float_tolerance_for(t, acc.type, acc.terms);
  return std::fabs(a - b) <= std::max(tol.relative * std::max(std::fabs(a), std::fabs(b)), tol.absolute);
}

// Compares two array leaves; on a mismatch returns its description (index as given by
// `index_of`, which maps a position in the leaf to the element's index in the output).
template <typename IndexOf>
std::string compare_leaf(const Literal& x, const Literal& y, bool tolerance, const Accumulation& acc,
                         int64_t& compared, IndexOf index_of) {
  const ElementType t = x.shape().element_type();
  if (y.shape().element_type() != t || x.element_count() != y.element_count())
    return fmt::format("output shapes differ: {} before, {} after", x.shape().to_string(false),
                       y.shape().to_string(false));
  const bool is_float = ir::is_floating(t);
  const int width = ir::byte_width(t);
  for (int64_t k = 0; k < x.element_count(); ++k) {
    ++compared;
    bool same;
    if (is_float) same = floats_equal(x.get_double(k), y.get_double(k), t, tolerance, acc);
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
                          const Accumulation& acc, EquivalenceResult& r, double& spent) {
  ir::EvalOptions eo;
  eo.max_steps = o.max_steps;
  eo.max_bytes = o.max_bytes;
  eo.steps_spent = &spent;
  const ir::EvalResult x = ir::evaluate(before, args, eo);  // an Error here means "skipped"
  ir::EvalResult y;
  try {
    y = ir::evaluate(after, args, eo);
  } catch (const ir::EvalBudgetExceeded&) {
    throw;  // inconclusive, not a difference
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
    std::string d = compare_leaf(*lx[k], *ly[k], o.float_tolerance, acc, r.compared,
                                 [](int64_t i) { return i; });
    if (!d.empty()) return fmt::format("output {} {}", k, d);
  }
  return {};
}

std::string compare_sampled(const ir::Module& before, const ir::Module& after,
                            std::span<const Literal> args, uint64_t seed,
                            const EquivalenceOptions& o, const Accumulation& acc, EquivalenceResult& r,
                            double& spent) {
  ir::EvalOptions eo;
  eo.max_steps = o.max_steps;
  eo.max_bytes = o.max_bytes;
  eo.steps_spent = &spent;
  const ir::SampledResult x = ir::evaluate_sampled(before, args, o.samples, seed, eo);
  ir::SampledResult y;
  try {
    y = ir::evaluate_sampled(after, args, o.samples, seed, eo);
  } catch (const ir::EvalBudgetExceeded&) {
    throw;
  } catch (const Error& e) {
    return std::string("the optimized module cannot be interpreted: ") + e.what();
  }
  r.uses_placeholders |= x.uses_placeholders || y.uses_placeholders;
  if (x.values.size() != y.values.size())
    return fmt::format("{} output arrays before, {} after", x.values.size(), y.values.size());
  for (size_t k = 0; k < x.values.size(); ++k) {
    if (x.indices[k] != y.indices[k]) return fmt::format("output {}: sampled indices differ", k);
    const auto& idx = x.indices[k];
    std::string d = compare_leaf(x.values[k], y.values[k], o.float_tolerance, acc, r.compared,
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
    case CheckStatus::kInconclusive: return "inconclusive";
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

namespace {
// Significand bits (the implicit one included) of a real float type.
int significand_bits(ElementType t) {
  switch (t) {
    case ElementType::kF64: return 53;
    case ElementType::kF32: return 24;
    case ElementType::kF16: return 11;
    case ElementType::kBF16: return 8;
    case ElementType::kF8E3M4: return 5;
    case ElementType::kF8E4M3FN: case ElementType::kF8E4M3B11FNUZ: case ElementType::kF8E4M3FNUZ:
    case ElementType::kF8E4M3: return 4;
    case ElementType::kF8E5M2: case ElementType::kF8E5M2FNUZ: return 3;
    case ElementType::kF4E2M1FN: return 2;
    default: return 1;  // f8e8m0fnu: powers of two only
  }
}
}  // namespace

FloatTolerance float_tolerance_for(ElementType t, ElementType accumulation, double terms) {
  const double base = float_tolerance_for(t);
  FloatTolerance tol{base, base};
  if (!ir::is_floating(accumulation) || terms <= 1) return tol;
  const double u = std::ldexp(1.0, -significand_bits(accumulation));
  tol.relative = std::max(base, 5 * u * std::sqrt(terms));
  tol.absolute = std::max(base, 4 * u * terms);
  return tol;
}

std::pair<ElementType, double> longest_float_accumulation(const ir::Module& m) {
  std::pair<ElementType, double> longest{ElementType::kInvalid, 1};
  auto elements = [](const ir::Shape& s) {
    const ir::Shape& a = s.is_tuple() && !s.tuple_elements().empty() ? s.tuple_elements()[0] : s;
    return a.is_array() ? static_cast<double>(a.element_count()) : 0.0;
  };
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.computation(c).order) {
      if (!m.is_live(i)) continue;
      const ir::Shape& s = m.shape(i);
      const ir::Shape& leaf = s.is_tuple() && !s.tuple_elements().empty() ? s.tuple_elements()[0] : s;
      if (!leaf.is_array() || !ir::is_floating(leaf.element_type())) continue;
      double terms = 1;
      switch (m.opcode(i)) {
        case ir::Opcode::kReduce: {
          const double out = elements(s);
          if (out > 0 && !m.operands(i).empty()) terms = elements(m.shape(m.operand(i, 0))) / out;
          break;
        }
        case ir::Opcode::kReduceWindow:
          if (const auto& w = m.attrs(i).window)
            for (const auto& d : *w) terms *= static_cast<double>(d.size);
          break;
        case ir::Opcode::kDot:
          if (const auto& d = m.attrs(i).dot_dims)
            for (int64_t k : d->lhs_contracting)
              if (k >= 0 && k < m.shape(m.operand(i, 0)).rank()) terms *= static_cast<double>(m.shape(m.operand(i, 0)).dim(k));
          break;
        case ir::Opcode::kConvolution:
          if (m.operands(i).size() >= 2 && m.attrs(i).conv_dims) {  // kernel elements per output feature
            const ir::Shape& kernel = m.shape(m.operand(i, 1));
            const int64_t o = m.attrs(i).conv_dims->kernel_output_feature;
            if (kernel.is_array() && o >= 0 && o < kernel.rank() && kernel.dim(o) > 0)
              terms = static_cast<double>(kernel.element_count()) / static_cast<double>(kernel.dim(o));
          }
          break;
        default:
          break;
      }
      const double u = std::ldexp(1.0, -significand_bits(leaf.element_type()));
      const double u_longest = std::ldexp(1.0, -significand_bits(longest.first));
      if (terms > 1 && u * terms > (ir::is_floating(longest.first) ? u_longest * longest.second : 0))
        longest = {leaf.element_type(), terms};
    }
  return longest;
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
  Accumulation acc;
  if (o.float_tolerance) std::tie(acc.type, acc.terms) = longest_float_accumulation(before);
  r.sampled = o.force_sampled || evaluation_work(before) > o.whole_budget ||
              evaluation_work(after) > o.whole_budget;
  const bool given = !o.given_inputs.empty();
  const int sets = given ? static_cast<int>(o.given_inputs.size()) : o.input_sets;
  double spent = 0;  // one budget for the whole check: every input set, before and after
  try {
    for (int k = 0; k < sets; ++k) {
      const uint64_t seed = o.seed + static_cast<uint64_t>(k);
      const std::vector<Literal> args = given ? o.given_inputs[static_cast<size_t>(k)] : ir::random_inputs(before, seed);
      std::string d = r.sampled ? compare_sampled(before, after, args, seed, o, acc, r, spent)
                                : compare_whole(before, after, args, o, acc, r, spent);
      if (!d.empty()) {
        r.status = CheckStatus::kFailed;
        r.detail = given ? fmt::format("given inputs: {}", d) : fmt::format("input set {} (seed {}): {}", k, seed, d);
        return r;
      }
    }
  } catch (const ir::EvalBudgetExceeded& e) {
    r.status = CheckStatus::kInconclusive;
    r.detail = fmt::format("{}{}; give real inputs (--inputs) or a larger budget", e.what(),
                           given ? "" : " on random inputs");
    return r;
  } catch (const Error& e) {
    r.status = CheckStatus::kSkipped;
    r.detail = std::string("cannot interpret: ") + e.what();
    return r;
  }
  // Nothing compared proves nothing (outputs without elements).
  if (r.compared == 0) {
    r.status = CheckStatus::kInconclusive;
    r.detail = "no output elements to compare (every output array is empty)";
    return r;
  }
  r.status = CheckStatus::kPassed;
  return r;
}

}  // namespace hlsgym::passes
