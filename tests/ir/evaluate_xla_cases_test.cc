// Cases of XLA's HLO evaluator tests (hlo_evaluator_test.cc) where hlsgym differed.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/error.h"
#include "ir/verifier.h"

#include <complex>

namespace hlsgym::ir {
namespace {

Literal run(const std::string& body, std::vector<Literal> args = {}) {
  Module m = frontend::parse_hlo("HloModule t\n\n" + body, "t.hlo");
  verify(m);
  return evaluate(m, args).value;
}

// XLA: imag of a real float is 0 and real is the value itself (hlsgym gave NaN).
TEST(EvaluateXlaCases, RealAndImagOfRealFloats) {
  const Literal im = run("ENTRY e {\n  c = f32[3] constant({1.5, -2, 0})\n  ROOT i = f32[3] imag(c)\n}\n");
  const Literal re = run("ENTRY e {\n  c = f32[3] constant({1.5, -2, 0})\n  ROOT r = f32[3] real(c)\n}\n");
  const double values[] = {1.5, -2, 0};
  for (int64_t k = 0; k < 3; ++k) {
    EXPECT_EQ(im.get_double(k), 0.0) << k;
    EXPECT_EQ(re.get_double(k), values[k]) << k;
  }
}

}  // namespace
}  // namespace hlsgym::ir

namespace hlsgym::ir {
namespace {

// fft was not interpreted. RFFT of {1,2,3,4} is {10, -2+2i, -2}; IRFFT gives the input
// back; FFT then IFFT is the identity; a 2-D FFT of a delta is all ones.
TEST(EvaluateXlaCases, Fft) {
  const Literal r = run("ENTRY e {\n  x = f32[4] constant({1, 2, 3, 4})\n  ROOT f = c64[3] fft(x), fft_type=RFFT, fft_length={4}\n}\n");
  const auto* v = r.data<std::complex<float>>().data();
  EXPECT_EQ(v[0], std::complex<float>(10, 0));
  EXPECT_NEAR(v[1].real(), -2, 1e-6);
  EXPECT_NEAR(v[1].imag(), 2, 1e-6);
  EXPECT_NEAR(v[2].real(), -2, 1e-6);
  EXPECT_NEAR(v[2].imag(), 0, 1e-6);
  const Literal back = run("ENTRY e {\n  x = f32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 9}})\n"
                           "  f = c64[2,3] fft(x), fft_type=RFFT, fft_length={2,4}\n"
                           "  ROOT b = f32[2,4] fft(f), fft_type=IRFFT, fft_length={2,4}\n}\n");
  const double want[] = {1, 2, 3, 4, 5, 6, 7, 9};
  for (int64_t k = 0; k < 8; ++k) EXPECT_NEAR(back.get_double(k), want[k], 1e-5) << k;
  const Literal delta = run("ENTRY e {\n  x = f32[2,2] constant({{1, 0}, {0, 0}})\n  z = f32[2,2] constant({{0, 0}, {0, 0}})\n"
                            "  c = c64[2,2] complex(x, z)\n  f = c64[2,2] fft(c), fft_type=FFT, fft_length={2,2}\n"
                            "  i = c64[2,2] fft(f), fft_type=IFFT, fft_length={2,2}\n  ROOT t = (c64[2,2], c64[2,2]) tuple(f, i)\n}\n");
  for (int64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(delta.tuple_elements()[0].data<std::complex<float>>()[k], std::complex<float>(1, 0)) << k;
    EXPECT_EQ(delta.tuple_elements()[1].data<std::complex<float>>()[k], std::complex<float>(k == 0 ? 1 : 0, 0)) << k;
  }
}

// The verifier checks fft's types and lengths (XLA's InferFftShape) before the interpreter
// indexes by them.
TEST(EvaluateXlaCases, IllTypedFftIsRefused) {
  auto error = [](const std::string& body) {
    try {
      verify(frontend::parse_hlo("HloModule t\n\nENTRY e {\n" + body + "}\n", "t.hlo"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("NO ERROR");
  };
  EXPECT_NE(error("  x = f32[4] parameter(0)\n  ROOT f = c64[4] fft(x), fft_type=RFFT, fft_length={4}\n").find("gives dimensions [3]"),
            std::string::npos);
  EXPECT_NE(error("  x = f32[4] parameter(0)\n  ROOT f = c64[4] fft(x), fft_type=FFT, fft_length={4}\n").find("complex operand"),
            std::string::npos);
  EXPECT_NE(error("  x = c64[4] parameter(0)\n  ROOT f = c64[4] fft(x), fft_type=FFT, fft_length={8}\n").find("does not match"),
            std::string::npos);
  EXPECT_EQ(error("  x = c64[3,4] parameter(0)\n  ROOT f = c64[3,4] fft(x), fft_type=IFFT, fft_length={4}\n"), "NO ERROR");
}

}  // namespace
}  // namespace hlsgym::ir
