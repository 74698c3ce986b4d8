// The fixed-point transcendentals (tables with linear interpolation, rtl/fixed_point.h)
// measured exhaustively: every 16-bit (and every 10-bit: a full table) input of a
// format, the quantized module's result against the exact function (long double) rounded
// into the output format; the error in output LSBs, where the exact result is inside the
// output format's range. The bounds asserted here are the ones hwmodel/README.md states.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>

#include "frontend/yaml_design.h"
#include "ir/evaluate.h"
#include "rtl/fixed_point.h"

namespace hlsgym::testing {
namespace {

struct TableCase {
  const char* op;       // YAML op (power: x^3)
  const char* in;       // input format
  const char* out;      // output format
  long double (*f)(long double);
  double full_bound;    // LSBs, 10-bit input (every input has its entry)
  double interp_bound;  // LSBs, 16-bit input (interpolated), inputs from `from` on
  double from;          // where the bound starts: past a singularity's first segments
};

long double exp_(long double x) { return std::exp(x); }
long double log_(long double x) { return std::log(x); }
long double tanh_(long double x) { return std::tanh(x); }
long double logistic_(long double x) { return 1 / (1 + std::exp(-x)); }
long double rsqrt_(long double x) { return 1 / std::sqrt(x); }
long double sqrt_(long double x) { return std::sqrt(x); }
long double erf_(long double x) { return std::erf(x); }
long double cube_(long double x) { return x * x * x; }

// The largest error in output LSBs over every input of `in`'s width.
double max_error_lsb(const TableCase& t, int width, double from) {
  const ir::FixedFormat in0 = ir::parse_fixed_format(t.in);
  const ir::FixedFormat in{width, in0.integer_bits, in0.rounding, in0.overflow};
  const ir::FixedFormat out = ir::parse_fixed_format(t.out);
  const int64_t n = int64_t{1} << width;
  const std::string op = std::string(t.op) == "power" ? "multiply" : t.op;  // (rewritten below)
  std::string text = fmt::format("design: t\ninputs:\n  x: f32[{}]\nops:\n", n);
  if (std::string(t.op) == "power")
    text += fmt::format("  - {{name: three, op: constant, value: 3, type: \"f32[{}]\"}}\n"
                        "  - {{name: y, op: power, args: [x, three], precision: \"{}\"}}\n", n, t.out);
  else
    text += fmt::format("  - {{name: y, op: {}, args: [x], precision: \"{}\"}}\n", op, t.out);
  text += "outputs: [y]\n";
  const ir::Module q = rtl::quantize(frontend::load_yaml_design(text, "t.yaml").module, in);
  ir::Literal x(ir::Shape(ir::fixed_container(width), {n}));
  for (int64_t k = 0; k < n; ++k) x.set_int(k, ir::fixed_min(in) + k);
  const ir::Literal y = ir::evaluate(q, std::vector<ir::Literal>{x}).value;
  double worst = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (ir::fixed_value(ir::fixed_min(in) + k, in) < from) continue;
    const long double exact = t.f(ir::fixed_value(ir::fixed_min(in) + k, in));
    if (!std::isfinite(exact) || exact > ir::fixed_value(ir::fixed_max(out), out) ||
        exact < ir::fixed_value(ir::fixed_min(out), out))
      continue;
    const long double err = std::abs(ir::fixed_value(y.get_int(k), out) - exact);
    worst = std::max(worst, static_cast<double>(std::ldexp(err, out.fraction_bits())));
  }
  return worst;
}

class FixedTable : public ::testing::TestWithParam<TableCase> {};

TEST_P(FixedTable, ErrorInLsbsIsBounded) {
  const TableCase& t = GetParam();
  const double lowest = -1e30;  // (every input)
  const double full = max_error_lsb(t, 10, lowest), interp = max_error_lsb(t, 16, t.from);
  fmt::print("| {} | {} | {} | {:.3f} | {:.3f} (x >= {}) | {:.1f} |\n", t.op, t.in, t.out, full, interp,
             t.from, max_error_lsb(t, 16, lowest));
  EXPECT_LE(full, t.full_bound);
  EXPECT_LE(interp, t.interp_bound);
}

INSTANTIATE_TEST_SUITE_P(
    Functions, FixedTable,
    ::testing::Values(TableCase{"exponential", "ap_fixed<16,4,AP_RND,AP_SAT>", "ap_fixed<16,6,AP_RND,AP_SAT>", exp_, 0.5, 1.5, -1e30},
                      TableCase{"log", "ap_fixed<16,8,AP_RND,AP_SAT>", "ap_fixed<16,4,AP_RND,AP_SAT>", log_, 0.5, 26, 1.0},
                      TableCase{"tanh", "ap_fixed<16,4,AP_RND,AP_SAT>", "ap_fixed<16,2,AP_RND,AP_SAT>", tanh_, 0.5, 0.9, -1e30},
                      TableCase{"logistic", "ap_fixed<16,4,AP_RND,AP_SAT>", "ap_fixed<16,2,AP_RND,AP_SAT>", logistic_, 0.5, 0.6, -1e30},
                      TableCase{"rsqrt", "ap_fixed<16,8,AP_RND,AP_SAT>", "ap_fixed<16,4,AP_RND,AP_SAT>", rsqrt_, 0.5, 19, 1.0},
                      TableCase{"sqrt", "ap_fixed<16,8,AP_RND,AP_SAT>", "ap_fixed<16,6,AP_RND,AP_SAT>", sqrt_, 0.5, 2.2, 1.0},
                      TableCase{"erf", "ap_fixed<16,4,AP_RND,AP_SAT>", "ap_fixed<16,2,AP_RND,AP_SAT>", erf_, 0.5, 1.0, -1e30},
                      TableCase{"power", "ap_fixed<16,4,AP_RND,AP_SAT>", "ap_fixed<16,10,AP_RND,AP_SAT>", cube_, 0.5, 0.6, -1e30}),
    [](const auto& info) { return std::string(info.param.op); });

}  // namespace
}  // namespace hlsgym::testing
