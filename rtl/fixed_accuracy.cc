#include "rtl/fixed_accuracy.h"

#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <unordered_map>

#include "ir/evaluate.h"

namespace hlsgym::rtl {
namespace {

// Whether v leaves f: its rounded image lies beyond f's integers.
bool outside(double v, const FixedFormat& f) {
  if (std::isnan(v)) return false;
  if (std::isinf(v)) return true;
  const long double x = std::ldexp(static_cast<long double>(v), f.fraction_bits());
  long double r = std::floor(x);
  if (f.rounding == ir::FixedRounding::kRound) r = std::floor(x + 0.5L);
  if (f.rounding == ir::FixedRounding::kRoundConvergent) r = std::nearbyint(x);
  return r > static_cast<long double>(ir::fixed_max(f)) || r < static_cast<long double>(ir::fixed_min(f));
}

// Each instruction of the float design with the format the quantized module gives its
// value (the entry's ops and those of every computation they call), by id.
std::vector<std::optional<FixedFormat>> formats_by_id(const ir::Module& m, const QuantizedModule& q) {
  std::unordered_map<std::string, std::unordered_map<std::string, ir::InstrId>> by_name;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c)) by_name[m.computation(c).name][m.name(i)] = i;
  std::vector<std::optional<FixedFormat>> formats(m.instruction_slots());
  for (const QuantizedModule::Value& v : q.values) {
    auto c = by_name.find(v.computation);
    if (c == by_name.end()) continue;
    auto i = c->second.find(v.op);
    if (i != c->second.end()) formats[i->second] = v.format;
  }
  return formats;
}

// Whether a value is one the overflow check passes over: an infinite constant (a
// max-reduction's start) saturates by design (ir::quantize_real), and so does the
// parameter of a combiner it reaches.
bool saturates_by_design(const ir::Module& m, ir::InstrId i, double v) {
  return std::isinf(v) && (m.opcode(i) == ir::Opcode::kConstant || m.opcode(i) == ir::Opcode::kParameter);
}

const ir::Literal& element(const ir::Literal& l, size_t k) { return l.is_tuple() ? l.tuple_elements()[k] : l; }

}  // namespace

FixedAccuracy measure_accuracy(const ir::Module& float_module, const QuantizedModule& q, int vectors, uint64_t seed) {
  FixedAccuracy a;
  const std::vector<std::optional<FixedFormat>> formats = formats_by_id(float_module, q);
  const ir::Computation& entry = float_module.computation(float_module.entry());
  long double signal = 0, noise = 0;
  for (int v = 0; v < vectors; ++v) {
    const std::vector<ir::Literal> qargs = ir::random_inputs(q.module, seed + static_cast<uint64_t>(v));
    std::vector<ir::Literal> fargs;
    for (size_t p = 0; p < qargs.size(); ++p) {
      if (!q.inputs[p]) {
        fargs.push_back(qargs[p]);
        continue;
      }
      ir::Literal l(float_module.shape(entry.params[p]));
      for (int64_t k = 0; k < l.element_count(); ++k)
        l.set_double(k, static_cast<double>(ir::fixed_value(qargs[p].get_int(k), *q.inputs[p])));
      fargs.push_back(std::move(l));
    }
    // The float design's run checks every value it computes, in every computation (a
    // reduce's partial sums, a loop's iterations), against the value's format.
    ir::EvalOptions check;
    check.observer = [&](ir::CompId c, ir::InstrId i, const ir::Literal& l) {
      const std::optional<FixedFormat>& f = formats[i];
      if (!f || l.is_tuple()) return;
      for (int64_t e = 0; e < l.element_count(); ++e) {
        const double x = l.get_double(e);
        if (!outside(x, *f) || saturates_by_design(float_module, i, x)) continue;
        ++a.overflows;
        if (!a.first_overflow)
          a.first_overflow = FixedOverflowHit{float_module.name(i), c == float_module.entry() ? "" : float_module.computation(c).name,
                                              v, e, x, *f};
      }
    };
    const ir::Literal want = ir::evaluate(float_module, fargs, check).value;
    const ir::Literal got = ir::evaluate(q.module, qargs).value;
    for (size_t o = 0; o < q.outputs.size(); ++o) {
      if (!q.outputs[o]) continue;
      const ir::Literal &w = element(want, o), &g = element(got, o);
      for (int64_t k = 0; k < w.element_count(); ++k) {
        ++a.elements;
        const double ref = w.get_double(k);
        if (std::isnan(ref)) {
          ++a.skipped;
          continue;
        }
        const double err = static_cast<double>(ir::fixed_value(g.get_int(k), *q.outputs[o])) - ref;
        a.max_abs_error = std::max(a.max_abs_error, std::abs(err));
        signal += static_cast<long double>(ref) * ref;
        noise += static_cast<long double>(err) * err;
      }
    }
    ++a.vectors;
  }
  a.snr_db = noise == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(10 * std::log10(signal / noise));
  return a;
}

std::string describe(const FixedOverflowHit& h) {
  const double lo = static_cast<double>(ir::fixed_value(ir::fixed_min(h.format), h.format));
  const double hi = static_cast<double>(ir::fixed_value(ir::fixed_max(h.format), h.format));
  const std::string in = h.computation.empty() ? "" : fmt::format(" in computation '{}'", h.computation);
  return fmt::format("op '{}'{} element {} of vector {}: {:.9g} is outside {} ([{:.9g}, {:.9g}])", h.op, in, h.element,
                     h.vector, h.value, ir::to_string(h.format), lo, hi);
}

}  // namespace hlsgym::rtl
