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

// The float design with every checked entry value as an output (a probe of its values).
struct Probe {
  ir::Module module;
  std::vector<std::pair<std::string, FixedFormat>> values;
};

Probe make_probe(const ir::Module& float_module, const QuantizedModule& q) {
  Probe p{float_module.clone(), {}};
  ir::Module& m = p.module;
  std::unordered_map<std::string, ir::InstrId> by_name;
  for (ir::InstrId i : m.instructions(m.entry())) by_name[m.name(i)] = i;
  std::vector<ir::InstrId> ops;
  std::vector<ir::Shape> shapes;
  for (const auto& [name, f] : q.entry_values) {
    auto it = by_name.find(name);
    if (it == by_name.end() || !m.shape(it->second).is_array()) continue;
    // an infinite constant (a max-reduction's start) saturates by design (ir::quantize_real)
    if (m.opcode(it->second) == ir::Opcode::kConstant && std::isinf(m.literal(it->second).get_double(0))) continue;
    ops.push_back(it->second);
    shapes.push_back(m.shape(it->second));
    p.values.emplace_back(name, f);
  }
  const ir::InstrId t = m.add_instruction(m.entry(), ir::Opcode::kTuple, ir::Shape::tuple(std::move(shapes)), ops);
  m.set_root(m.entry(), t);
  return p;
}

const ir::Literal& element(const ir::Literal& l, size_t k) { return l.is_tuple() ? l.tuple_elements()[k] : l; }

}  // namespace

FixedAccuracy measure_accuracy(const ir::Module& float_module, const QuantizedModule& q, int vectors, uint64_t seed) {
  FixedAccuracy a;
  const Probe probe = make_probe(float_module, q);
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
    const ir::Literal want = ir::evaluate(float_module, fargs).value;
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
    const ir::Literal values = ir::evaluate(probe.module, fargs).value;
    for (size_t k = 0; k < probe.values.size(); ++k) {
      const ir::Literal& l = values.tuple_elements()[k];
      for (int64_t e = 0; e < l.element_count(); ++e) {
        if (!outside(l.get_double(e), probe.values[k].second)) continue;
        ++a.overflows;
        if (!a.first_overflow) a.first_overflow = FixedOverflowHit{probe.values[k].first, v, e, l.get_double(e), probe.values[k].second};
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
  return fmt::format("op '{}' element {} of vector {}: {:.9g} is outside {} ([{:.9g}, {:.9g}])", h.op, h.element, h.vector,
                     h.value, ir::to_string(h.format), lo, hi);
}

}  // namespace hlsgym::rtl
