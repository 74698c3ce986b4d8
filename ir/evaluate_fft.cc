// fft (XLA's four types) by separable discrete Fourier transforms in double precision:
// FFT and IFFT over the last len(fft_length) dimensions (IFFT scaled by 1/n), RFFT of a
// real input keeping the n/2+1 non-negative frequencies of the last dimension, IRFFT
// rebuilding the full spectrum of the last dimension from its Hermitian half. A direct
// O(n^2) transform per axis: the interpreter is the reference, not a fast path.
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {
namespace {
using C = std::complex<double>;

// In-place DFT of `data` (row-major, `dims`) along `axis`.
void dft_axis(std::vector<C>& data, const std::vector<int64_t>& dims, size_t axis, bool inverse) {
  const int64_t n = dims[axis];
  if (n <= 1) return;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
  const int64_t outer = static_cast<int64_t>(data.size()) / (n * inner);
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<C> twiddle(static_cast<size_t>(n)), line(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    // Quarter turns exactly (1, i, -1, -i): cos(pi) is not exactly -1's partner 0 in doubles.
    if ((4 * k) % n == 0) {
      const int64_t q = (4 * k) / n;
      twiddle[static_cast<size_t>(k)] = q == 0 ? C(1, 0) : q == 2 ? C(-1, 0) : C(0, (q == 1 ? 1 : -1) * sign);
      continue;
    }
    twiddle[static_cast<size_t>(k)] = std::polar(1.0, sign * 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n));
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * n * inner + in;
      for (int64_t k = 0; k < n; ++k) {
        C s = 0;
        for (int64_t j = 0; j < n; ++j) s += data[static_cast<size_t>(base + j * inner)] * twiddle[static_cast<size_t>((j * k) % n)];
        line[static_cast<size_t>(k)] = inverse ? s / static_cast<double>(n) : s;
      }
      for (int64_t k = 0; k < n; ++k) data[static_cast<size_t>(base + k * inner)] = line[static_cast<size_t>(k)];
    }
}

C get_c(const Literal& l, int64_t k) {
  const ElementType t = l.shape().element_type();
  if (t == ElementType::kC64) return C(l.data<std::complex<float>>()[k]);
  if (t == ElementType::kC128) return l.data<std::complex<double>>()[k];
  return {l.get_double(k), 0};
}

void put(Literal& out, int64_t k, C v) {
  const ElementType t = out.shape().element_type();
  if (t == ElementType::kC64) out.data<std::complex<float>>()[k] = std::complex<float>(v);
  else if (t == ElementType::kC128) out.data<std::complex<double>>()[k] = v;
  else out.set_double(k, v.real());
}

// Copies the overlapping corner of `from` (dims `fd`) into a zeroed array of dims `td`.
std::vector<C> resize_corner(const std::vector<C>& from, const std::vector<int64_t>& fd, const std::vector<int64_t>& td) {
  int64_t total = 1;
  for (int64_t d : td) total *= d;
  std::vector<C> to(static_cast<size_t>(total));
  const auto fs = row_major_strides(fd), ts = row_major_strides(td);
  std::vector<int64_t> idx(td.size(), 0);
  if (total == 0) return to;
  do {
    bool inside = true;
    int64_t f = 0, t = 0;
    for (size_t d = 0; d < td.size(); ++d) {
      inside &= idx[d] < fd[d];
      f += idx[d] * fs[d], t += idx[d] * ts[d];
    }
    if (inside) to[static_cast<size_t>(t)] = from[static_cast<size_t>(f)];
  } while (next_index(idx, td));
  return to;
}

}  // namespace

Literal eval_fft(const OpContext& c) {
  const Literal& in = *c.args[0];
  const std::string& type = c.attrs().fft_type;
  const auto& len = c.attrs().fft_length;
  const std::vector<int64_t> in_dims = in.shape().dims(), out_dims = c.shape().dims();
  const size_t rank = in_dims.size(), k = len.size();
  if (k == 0 || k > rank || out_dims.size() != rank) c.fail("fft needs 1 to rank fft_length entries");
  std::vector<C> data(static_cast<size_t>(in.element_count()));
  for (int64_t i = 0; i < in.element_count(); ++i) data[static_cast<size_t>(i)] = get_c(in, i);
  const bool inverse = type == "IFFT" || type == "IRFFT";
  if (type == "FFT" || type == "IFFT" || type == "RFFT") {
    for (size_t a = rank - k; a < rank; ++a) dft_axis(data, in_dims, a, inverse);
    if (type == "RFFT") data = resize_corner(data, in_dims, out_dims);  // keep n/2+1 of the last axis
  } else if (type == "IRFFT") {
    for (size_t a = rank - k; a + 1 < rank; ++a) dft_axis(data, in_dims, a, true);
    // The full last axis from its Hermitian half: X[n-j] = conj(X[j]).
    const int64_t n = out_dims.back(), half = in_dims.back();
    std::vector<int64_t> full_dims = in_dims;
    full_dims.back() = n;
    std::vector<C> full = resize_corner(data, in_dims, full_dims);
    for (int64_t row = 0; row * n < static_cast<int64_t>(full.size()); ++row)
      for (int64_t j = half; j < n; ++j)
        if (n - j < half) full[static_cast<size_t>(row * n + j)] = std::conj(full[static_cast<size_t>(row * n + n - j)]);
    dft_axis(full, full_dims, rank - 1, true);
    data = std::move(full);
  } else {
    c.fail("fft_type must be FFT, IFFT, RFFT or IRFFT, is '" + type + "'");
  }
  Literal out(c.shape());
  for (int64_t i = 0; i < out.element_count(); ++i) put(out, i, data[static_cast<size_t>(i)]);
  return out;
}

}  // namespace hlsgym::ir::eval
