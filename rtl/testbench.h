// The C++ Verilator testbench generated beside the Verilog. It is built once per design
// and reads its stimulus from a file, so one build serves any number of vectors:
//
//   vectors file:  "hlsgym-vectors N MAX_CYCLES", then per vector one line per input
//                  (entry parameter order) of hex element values.
//   results file:  per vector "vector K cycles C" (" timeout" if done never rose within
//                  MAX_CYCLES), then one line per output of hex element values.
//
// Usage: sim VECTORS RESULTS [TRACE.vcd]; the trace needs a build with --trace.
#pragma once
#include <string>

#include "rtl/rtl.h"

namespace hlsgym::rtl {

std::string testbench(const EmittedDesign& d);

}  // namespace hlsgym::rtl
