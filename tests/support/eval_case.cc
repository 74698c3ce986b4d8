#include "tests/support/eval_case.h"

#include <bit>
#include <cmath>
#include <complex>
#include <functional>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::testing {

ir::Literal literal(const std::string& shape_and_value) {
  const size_t space = shape_and_value.find(' ');
  const std::string text = "HloModule literal\n\nENTRY e {\n  ROOT c = " + shape_and_value.substr(0, space) +
                           " constant(" + shape_and_value.substr(space + 1) + ")\n}\n";
  return evaluate_text(text);
}

ir::Literal tuple_literal(std::vector<ir::Literal> elements) {
  std::vector<ir::Shape> shapes;
  for (const ir::Literal& e : elements) shapes.push_back(e.shape());
  ir::Literal t(ir::Shape::tuple(std::move(shapes)));
  t.tuple_elements() = std::move(elements);
  return t;
}

ir::Literal evaluate_text(const std::string& module, const std::vector<ir::Literal>& args) {
  ir::Module m = frontend::parse_hlo(module, "case.hlo");
  ir::verify(m);
  ir::EvalOptions options;
  options.allow_placeholders = false;
  return ir::evaluate(m, args, options).value;
}

std::string entry_module(const std::string& body) { return "HloModule m\n\nENTRY e {\n" + body + "}\n"; }

std::string evaluation_failure(const std::string& module, const std::vector<ir::Literal>& args) {
  try {
    evaluate_text(module, args);
  } catch (const Error& e) {
    return e.what();
  }
  return "NO ERROR";
}

namespace {

::testing::AssertionResult compare(const ir::Literal& want, const ir::Literal& got,
                                   const std::function<bool(double, double)>& element_ok) {
  auto failure = [&](const std::string& why) {
    return ::testing::AssertionFailure() << why << "\n  want " << want.shape().to_string() << " "
                                         << want.to_string() << "\n  got  " << got.shape().to_string() << " "
                                         << got.to_string();
  };
  if (!want.shape().compatible(got.shape())) return failure("shapes differ");
  if (want.is_tuple()) {
    for (size_t k = 0; k < want.tuple_elements().size(); ++k) {
      auto r = compare(want.tuple_elements()[k], got.tuple_elements()[k], element_ok);
      if (!r) return failure("tuple element " + std::to_string(k) + ": " + r.message());
    }
    return ::testing::AssertionSuccess();
  }
  const ir::ElementType t = want.shape().element_type();
  for (int64_t i = 0; i < want.element_count(); ++i) {
    bool ok;
    if (t == ir::ElementType::kC64) {
      const auto w = want.data<std::complex<float>>()[i], g = got.data<std::complex<float>>()[i];
      ok = element_ok(w.real(), g.real()) && element_ok(w.imag(), g.imag());
    } else if (t == ir::ElementType::kC128) {
      const auto w = want.data<std::complex<double>>()[i], g = got.data<std::complex<double>>()[i];
      ok = element_ok(w.real(), g.real()) && element_ok(w.imag(), g.imag());
    } else if (ir::is_floating(t)) {
      ok = element_ok(want.get_double(i), got.get_double(i));
    } else {
      ok = want.get_bits(i) == got.get_bits(i);
    }
    if (!ok) return failure("element " + std::to_string(i) + " differs");
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult same_literal(const ir::Literal& want, const ir::Literal& got) {
  // Literal::operator== compares bits (layouts ignored); compare() says where, with
  // doubles compared by their bits (every element type converts to double exactly).
  if (want == got) return ::testing::AssertionSuccess();
  auto r = compare(want, got, [](double w, double g) { return std::bit_cast<uint64_t>(w) == std::bit_cast<uint64_t>(g); });
  return r ? ::testing::AssertionFailure() << "bits differ" : r;
}

::testing::AssertionResult near_literal(const ir::Literal& want, const ir::Literal& got, double abs, double rel) {
  return compare(want, got, [&](double w, double g) {
    if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
    if (w == g) return true;  // infinities
    const double error = std::fabs(w - g);
    return error <= abs || (w != 0 && error / std::fabs(w) <= rel);
  });
}

}  // namespace hlsgym::testing
