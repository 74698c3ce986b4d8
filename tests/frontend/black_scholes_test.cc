// designs/black_scholes.yaml prices options: on random in-range inputs (its inputs declare
// their ranges), call and put satisfy put-call parity, call - put = S - K e^(-rT), in the
// interpreter's default mode and with the transcendental units' own algorithms.
//
// The tolerance, 12 x 2^-24 x (S + K): N(d) + N(-d) = (1 + e)/2 + (1 - e)/2 misses 1 by
// at most 2^-23 (the two sums round once each, the halvings are exact), which S and
// K e^(-rT) multiply: 2 x 2^-24 (S + K); the four products and two differences round
// once each, at most 2^-24 x max(S, K) apiece: 6 x 2^-24 (S + K); K e^(-rT) carries the
// exp's error (1 ULP, unit or libm), the product r T's and the multiply's: 4 x 2^-24 K.
#include <gtest/gtest.h>

#include <cmath>

#include "frontend/load.h"
#include "ir/evaluate.h"
#include "ir/input_range.h"
#include "tests/support/test_data.h"

namespace hlsgym::frontend {
namespace {

TEST(BlackScholes, PutCallParityOnRandomOptions) {
  const Design d = load_design((testing::source_dir() / "designs/black_scholes.yaml").string());
  const auto& params = d.module.computation(d.module.entry()).params;
  ASSERT_EQ(params.size(), 5u);
  for (ir::TranscendentalEval mode : {ir::TranscendentalEval::kLibm, ir::TranscendentalEval::kUnit}) {
    ir::EvalOptions o;
    o.transcendentals = mode;
    double worst = 0;  // the largest |parity error| / tolerance seen
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      const std::vector<ir::Literal> in = ir::random_inputs(d.module, seed);
      for (size_t k = 0; k < params.size(); ++k) {
        const ir::InputRange r = *ir::input_range(d.module, params[k]);
        for (int64_t e = 0; e < 16; ++e) {
          ASSERT_GE(in[k].get_double(e), r.lo) << d.module.name(params[k]);
          ASSERT_LE(in[k].get_double(e), r.hi) << d.module.name(params[k]);
        }
      }
      const ir::Literal out = ir::evaluate(d.module, in, o).value;
      const ir::Literal &call = out.tuple_elements()[0], &put = out.tuple_elements()[1];
      for (int64_t e = 0; e < 16; ++e) {
        const double s = in[0].get_double(e), k = in[1].get_double(e), t = in[2].get_double(e), r = in[3].get_double(e);
        const double parity = s - k * std::exp(-r * t);
        const double error = std::fabs(call.get_double(e) - put.get_double(e) - parity);
        const double tolerance = 12 * 0x1p-24 * (s + k);
        worst = std::max(worst, error / tolerance);
        ASSERT_LE(error, tolerance) << "seed " << seed << " option " << e << " call " << call.get_double(e) << " put "
                                    << put.get_double(e) << " S - K e^(-rT) " << parity;
        ASSERT_GE(call.get_double(e), -tolerance);
        ASSERT_GE(put.get_double(e), -tolerance);
      }
    }
    std::printf("%s: worst parity error %.3f of the tolerance\n",
                mode == ir::TranscendentalEval::kUnit ? "unit algorithms" : "libm", worst);
  }
}

}  // namespace
}  // namespace hlsgym::frontend
