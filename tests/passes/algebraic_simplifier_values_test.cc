// algsimp on special values: random graphs built from the simplifier's own patterns
// (identities with constants, powers of two, extremes, clamps, selects, converts,
// movement chains, reductions with special inits), for every element type, evaluated on
// inputs full of the values that break careless rules: -0, +-inf, NaN, subnormals,
// INT_MIN/INT_MAX. Outputs must agree by value (NaN == NaN, -0 == +0) after algsimp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pipeline.h"
#include "passes/registry.h"

namespace hlsgym::passes {
namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

const std::vector<std::string> kFloatSpecials{"0", "-0", "1", "-1", "2", "0.5", "-0.25", "3", "inf", "-inf",
                                              "nan", "1e-40", "-7.5", "65504", "6"};
const std::vector<std::string> kIntSpecials{"0", "1", "-1", "2", "4", "64", "3", "-8", "7", "MIN", "MAX"};

bool is_float(const std::string& t) { return t[0] == 'f' || t[0] == 'b'; }
bool is_unsigned(const std::string& t) { return t[0] == 'u'; }

std::string int_text(const std::string& t, const std::string& v) {
  const int w = std::stoi(t.substr(1));
  if (v == "MIN") return is_unsigned(t) ? "0" : "-" + std::to_string(uint64_t{1} << (w - 1));
  if (v == "MAX") return is_unsigned(t) ? std::to_string(w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1)
                                        : std::to_string((uint64_t{1} << (w - 1)) - 1);
  if (is_unsigned(t) && v[0] == '-') return "5";
  return v;
}

// Builds HLO text value by value; every value is T[2,3].
class GraphBuilder {
 public:
  GraphBuilder(uint64_t seed, std::string type) : rng_{seed}, t_(std::move(type)) {}

  std::string build(int steps) {
    for (int k = 0; k < 2; ++k) values_.push_back(emit(shape() + " parameter(" + std::to_string(k) + ")"));
    for (int k = 0; k < steps; ++k) step();
    std::string root_type = "(", root_ops;
    for (size_t k = 0; k < values_.size(); ++k) {
      root_type += (k ? ", " : "") + shape();
      root_ops += (k ? ", " : "") + values_[k];
    }
    body_ += " ROOT out = " + root_type + ") tuple(" + root_ops + ")\n}\n";
    return "HloModule special\n\n" + comps_ + "ENTRY e {\n" + body_;
  }

 private:
  std::string shape(const std::string& dims = "2,3") const { return t_ + "[" + dims + "]"; }
  std::string emit(const std::string& rhs) {
    const std::string n = "v" + std::to_string(next_++);
    body_ += " " + n + " = " + rhs + "\n";
    return n;
  }
  std::string special() {
    return is_float(t_) ? rng_.pick(kFloatSpecials) : int_text(t_, rng_.pick(kIntSpecials));
  }
  std::string scalar(const std::string& v) { return emit(t_ + "[] constant(" + v + ")"); }
  std::string splat(const std::string& v) { return emit(shape() + " broadcast(" + scalar(v) + "), dimensions={}"); }
  std::string value() { return values_[values_.size() - 1 - rng_.below(std::min<size_t>(values_.size(), 4))]; }
  std::string binary(const std::string& op, const std::string& a, const std::string& b) {
    return emit(shape() + " " + op + "(" + a + ", " + b + ")");
  }
  std::string with_constant(const std::string& op, const std::string& v) {
    const std::string c = splat(v), x = value();
    return rng_.below(2) ? binary(op, x, c) : binary(op, c, x);
  }
  std::string reducer(const std::string& op) {
    const std::string name = op + "_" + t_;
    if (comps_.find(name + " {") == std::string::npos)
      comps_ += name + " {\n x = " + t_ + "[] parameter(0)\n y = " + t_ + "[] parameter(1)\n ROOT r = " + t_ +
                "[] " + op + "(x, y)\n}\n";
    return name;
  }

  void step() {
    const bool fp = is_float(t_);
    std::vector<std::string> ops{"add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum"};
    if (!fp) ops.insert(ops.end(), {"and", "or", "xor"});
    std::string v;
    switch (rng_.below(11)) {
      case 0: case 1: v = with_constant(rng_.pick(ops), special()); break;
      case 2: { const std::string x = value(); v = binary(rng_.pick(ops), x, rng_.below(2) ? x : value()); break; }
      case 3: v = emit(shape() + " " + rng_.pick(fp ? std::vector<std::string>{"negate", "abs", "exponential", "sqrt"}
                                                   : std::vector<std::string>{"negate", "abs", "not"}) + "(" + value() + ")"); break;
      case 4: {
        const std::string mid = rng_.pick(std::vector<std::string>{"s8", "u8", "s32", "u32", "s64", "f16", "bf16", "f32", "f64", "pred"});
        v = emit(shape() + " convert(" + emit(mid + "[2,3] convert(" + value() + ")") + ")");
        break;
      }
      case 5: {
        const std::string x = value(), y = value();
        const std::string dir = rng_.pick(std::vector<std::string>{"LT", "GE", "EQ", "NE", "LE", "GT"});
        std::string p = emit("pred[2,3] compare(" + x + ", " + (rng_.below(2) ? x : splat(special())) + "), direction=" + dir);
        if (rng_.below(2)) p = emit("pred[2,3] not(" + p + ")");
        v = emit(shape() + " select(" + p + ", " + x + ", " + (rng_.below(3) ? y : x) + ")");
        break;
      }
      case 6: {  // clamp-shaped max/min pairs
        const std::string inner = with_constant(rng_.below(2) ? "minimum" : "maximum", special());
        values_.push_back(inner);
        v = with_constant(rng_.below(2) ? "maximum" : "minimum", special());
        break;
      }
      case 7: movement(); return;
      case 8: {  // reduce over a size-1 dim or the whole row, and 1x1 reduce-window
        const std::string op = rng_.pick(std::vector<std::string>{"add", "multiply", "maximum", "minimum"});
        const std::string x = emit(shape("2,3,1") + " reshape(" + value() + ")"), init = scalar(special());
        v = rng_.below(2) ? emit(shape() + " reduce(" + x + ", " + init + "), dimensions={2}, to_apply=" + reducer(op))
                          : emit(shape() + " reduce-window(" + value() + ", " + init + "), window={size=1x1}, to_apply=" + reducer(op));
        break;
      }
      case 9: {
        std::string c = rng_.pick(std::vector<std::string>{"1", "2", "4", "0", "-1", "0.25", "64"});
        if (!fp) c = int_text(t_, c == "0.25" ? "8" : c);
        v = with_constant(rng_.pick(std::vector<std::string>{"divide", "remainder", "power"}), c);
        break;
      }
      default: v = emit(shape() + " dot(" + value() + ", " + scalar(special()) + ")"); break;
    }
    values_.push_back(v);
  }

  void movement() {
    const std::string x = value();
    std::string v;
    switch (rng_.below(6)) {
      case 0: v = emit(shape() + " transpose(" + emit(shape("3,2") + " transpose(" + x + "), dimensions={1,0}") + "), dimensions={1,0}"); break;
      case 1: v = emit(shape() + " reshape(" + emit(shape("6") + " reshape(" + x + ")") + ")"); break;
      case 2: v = emit(shape() + " reverse(" + emit(shape() + " reverse(" + x + "), dimensions={1}") + "), dimensions={0,1}"); break;
      case 3: {
        const size_t r = rng_.below(3), c = rng_.below(3);
        v = emit(shape() + " slice(" + emit(shape("4,5") + " pad(" + x + ", " + scalar(special()) + "), padding=1_1x1_1") +
                 "), slice={[" + std::to_string(r) + ":" + std::to_string(r + 2) + "], [" + std::to_string(c) + ":" +
                 std::to_string(c + 3) + "]}");
        break;
      }
      case 4: v = emit(shape() + " concatenate(" + emit(shape("1,3") + " slice(" + x + "), slice={[0:1], [0:3]}") + ", " +
                       emit(shape("1,3") + " slice(" + x + "), slice={[1:2], [0:3]}") + "), dimensions={0}"); break;
      default: v = emit(shape() + " broadcast(" + emit(t_ + "[3] slice(" + emit(shape("6") + " reshape(" + x + ")") + "), slice={[1:4]}") + "), dimensions={1}"); break;
    }
    values_.push_back(v);
  }

  Rng rng_;
  std::string t_;
  std::string body_, comps_;
  std::vector<std::string> values_;
  int next_ = 0;
};

ir::Literal special_input(const std::string& type, Rng& rng) {
  ir::Literal l(ir::Shape(*ir::element_type_from_name(type), {2, 3}));
  for (int64_t k = 0; k < l.element_count(); ++k) {
    if (is_float(type)) {
      const std::string& v = rng.pick(kFloatSpecials);
      l.set_double(k, v == "nan" ? NAN : v == "inf" ? INFINITY : v == "-inf" ? -INFINITY : std::stod(v));
    } else {
      const std::string v = int_text(type, rng.pick(kIntSpecials));
      l.set_int(k, is_unsigned(type) ? static_cast<int64_t>(std::stoull(v)) : std::stoll(v));
    }
  }
  return l;
}

// Equal by value: floats NaN == NaN and -0 == +0; everything else bit for bit.
std::string first_difference(const ir::Literal& a, const ir::Literal& b) {
  for (size_t k = 0; k < a.tuple_elements().size(); ++k) {
    const ir::Literal& x = a.tuple_elements()[k];
    const ir::Literal& y = b.tuple_elements()[k];
    for (int64_t e = 0; e < x.element_count(); ++e) {
      bool same;
      if (ir::is_floating(x.shape().element_type())) {
        const double u = x.get_double(e), v = y.get_double(e);
        same = (std::isnan(u) && std::isnan(v)) || u == v;
      } else {
        same = x.get_bits(e) == y.get_bits(e);
      }
      if (!same) return "output " + std::to_string(k) + " element " + std::to_string(e);
    }
  }
  return {};
}

TEST(AlgsimpSpecialValues, RandomPatternGraphsKeepEveryOutput) {
  const std::vector<std::string> types{"f32", "f16", "bf16", "f64", "s32", "s8", "u8", "u32", "s64"};
  int fired = 0;
  for (uint64_t seed = 1; seed <= 6000; ++seed) {
    const std::string type = types[seed % types.size()];
    const std::string text = GraphBuilder(seed, type).build(6 + static_cast<int>(seed % 10));
    const ir::Module original = frontend::parse_hlo(text, "special.hlo");
    ASSERT_TRUE(ir::verify_all(original).empty()) << text << ir::verify_all(original).front().message;
    ir::Module m = original;
    FixedPoint fix(Registry::global().create("algsimp"));
    fired += fix.run(m);
    ASSERT_LE(fix.last_iterations(), 8) << text;
    auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << issues.front().message << "\n" << text;
    Rng rng{seed * 977};
    for (int set = 0; set < 4; ++set) {
      std::vector<ir::Literal> args{special_input(type, rng), special_input(type, rng)};
      const std::string diff = first_difference(ir::evaluate(original, args).value, ir::evaluate(m, args).value);
      ASSERT_EQ(diff, "") << "seed " << seed << "\nbefore:\n" << text << "\nafter:\n" << ir::print_module(m)
                          << "\ninputs: " << args[0].to_string() << " / " << args[1].to_string();
    }
  }
  EXPECT_GT(fired, 1500);
}

}  // namespace
}  // namespace hlsgym::passes
