// How close a quantized design (rtl/fixed_point.h) stays to its float original over
// the co-simulation's vectors, as hls4ml's profiling reports it: the largest absolute
// error of any float output element and the signal-to-noise ratio in dB
// (10 log10(sum ref^2 / sum (q - ref)^2)), plus the first value of the float design that
// leaves its op's format (op, element, value): an overflow the format wraps or
// saturates. Every value the float design computes is checked, in every computation:
// a reduce's or reduce-window's partial sums, each loop iteration's values, a call's,
// branch's, map's or fusion's (those compute in the default format, rtl/fixed_point.h).
//
// The vectors are the quantized module's random inputs (ir::random_inputs, so within a
// declared `range:`); the float design runs on exactly the values they stand for.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "ir/module.h"
#include "rtl/fixed_point.h"

namespace hlsgym::rtl {

struct FixedOverflowHit {
  std::string op;
  std::string computation;  // empty: the entry computation
  int vector = 0;
  int64_t element = 0;
  double value = 0;
  FixedFormat format;
};

struct FixedAccuracy {
  int vectors = 0;
  int64_t elements = 0;        // float output elements compared (over all vectors)
  int64_t skipped = 0;         // of those, where the float design gave NaN
  double max_abs_error = 0;
  double snr_db = 0;           // +inf when the quantized outputs are exact
  int64_t overflows = 0;       // values outside their format (each partial sum, each iteration)
  std::optional<FixedOverflowHit> first_overflow;
};

FixedAccuracy measure_accuracy(const ir::Module& float_module, const QuantizedModule& q, int vectors, uint64_t seed);

// "op 'x' element 3 of vector 0: 300.25 is outside ap_fixed<16,8,AP_TRN,AP_WRAP> ([-128, 127.996])";
// "op 'acc' in computation 'add' element 0 of vector 0: ..." inside a called computation
std::string describe(const FixedOverflowHit& h);

}  // namespace hlsgym::rtl
