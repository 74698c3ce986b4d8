// One design with one of every integer op the emitter builds (arithmetic with the HLO
// edge cases -- x / 0, INT_MIN / -1, shifts by >= the width --, logic, compare, select,
// clamp, converts to and from pred, popcnt, clz, pad with negative and interior padding,
// concatenate, iota, reverse, transpose, broadcast, strided slice, padded reduce-window,
// a multiply reduce, a strided, padded, dilated convolution, dynamic-slice with clamped
// starts) on s8, s16, s32, s64, u16, u32 and pred, through Verilator on 1 and 2 lanes.
#include "frontend/yaml_design.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

const char* kOpZoo = R"(design: op_zoo
description: one of every integer op the RTL emitter builds, on several types
inputs:
  a: s8[6]
  b: s8[6]
  c: u16[6]
  d: u16[6]
  e: s64[2,3]
  f: s64[2,3]
  p: pred[6]
  w: u32[6]
  sh: u32[6]
  img: s16[1,5,5,2]
  ker: s16[2,2,2,3]
  m: s16[4,5]
  k: s32
ops:
  - {name: edge_a, op: constant, value: [-128, -128, 127, -1, 0, 5], type: "s8[6]"}
  - {name: edge_b, op: constant, value: [-1, 0, -1, -1, 0, -2], type: "s8[6]"}
  - {name: edge_sh, op: constant, value: [0, 31, 32, 33, 255, 4294967295], type: "u32[6]"}
  - {name: div_e, op: divide, args: [edge_a, edge_b]}
  - {name: rem_e, op: remainder, args: [edge_a, edge_b]}
  - {name: shl_e, op: shift-left, args: [w, edge_sh]}
  - {name: sra_e, op: shift-right-arithmetic, args: [edge_a, edge_b]}
  - {name: div_s, op: divide, args: [a, b]}
  - {name: rem_s, op: remainder, args: [a, b]}
  - {name: div_u, op: divide, args: [c, d]}
  - {name: rem_u, op: remainder, args: [c, d]}
  - {name: shl, op: shift-left, args: [w, sh]}
  - {name: srl, op: shift-right-logical, args: [w, sh]}
  - {name: sra, op: shift-right-arithmetic, args: [a, b]}
  - {name: mx, op: maximum, args: [e, f]}
  - {name: mn, op: minimum, args: [c, d]}
  - {name: lt, op: compare, args: [a, b], direction: LT}
  - {name: ge, op: compare, args: [c, d], direction: GE}
  - {name: sel, op: select, args: [p, a, b]}
  - {name: lo, op: constant, value: -3, type: s8}
  - {name: hi, op: constant, value: 5, type: s8}
  - {name: cl, op: clamp, args: [lo, a, hi]}
  - {name: ng, op: negate, args: [e]}
  - {name: ab, op: abs, args: [a]}
  - {name: sg, op: sign, args: [a]}
  - {name: nt, op: not, args: [c]}
  - {name: pc, op: popcnt, args: [w]}
  - {name: cz, op: count-leading-zeros, args: [w]}
  - {name: cv1, op: convert, args: [a], type: "u32[6]"}
  - {name: cv2, op: convert, args: [c], type: "s8[6]"}
  - {name: cv3, op: convert, args: [p], type: "s16[6]"}
  - {name: cv4, op: convert, args: [a], type: "pred[6]"}
  - {name: xr, op: xor, args: [c, d]}
  - {name: pz, op: constant, value: 7, type: s64}
  - {name: pd, op: pad, args: [e, pz], padding: "1_-1_1x0_1_0"}
  - {name: cat, op: concatenate, args: [a, b], dimensions: [0]}
  - {name: io, op: iota, type: "s32[3,4]", iota_dimension: 1}
  - {name: rv, op: reverse, args: [e], dimensions: [1]}
  - {name: tr, op: transpose, args: [e], dimensions: [1, 0]}
  - {name: bc, op: broadcast, args: [a], dimensions: [1], type: "s8[3,6]"}
  - {name: sl, op: slice, args: [a], slice: "{[1:6:2]}"}
  - {name: low, op: constant, value: -32768, type: s16}
  - {name: rw, op: reduce-window, args: [m, low], window: "{size=2x3 stride=2x2 pad=1_0x1_1}", to_apply: maximum}
  - {name: one, op: constant, value: 1, type: s16}
  - {name: rp, op: reduce, args: [m, one], dimensions: [1], to_apply: multiply}
  - {name: cv, op: convolution, args: [img, ker], window: "{size=2x2 stride=2x1 pad=1_0x0_1 rhs_dilate=1x2}", dim_labels: "b01f_01io->b01f"}
  - {name: ds, op: dynamic-slice, args: [m, k, k], dynamic_slice_sizes: [2, 2]}
outputs: [div_e, rem_e, shl_e, sra_e, div_s, rem_s, div_u, rem_u, shl, srl, sra, mx, mn, lt, ge, sel, cl, ng, ab, sg, nt, pc, cz, cv1, cv2, cv3, cv4, xr, pd, cat, io, rv, tr, bc, sl, rw, rp, cv, ds]
target: fpga
)";

void cosimulate_zoo(int lanes) {
  const ir::Module m = frontend::load_yaml_design(kOpZoo, "op_zoo.yaml").module;
  rtl::EmitOptions eo;
  eo.estimate.lanes = lanes;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), eo);
  rtl::SimOptions o;
  o.vectors = 24;
  o.seed = 11;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("op_zoo_" + std::to_string(lanes)), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_TRUE(r.passed()) << "measured " << r.measured_cycles << ", estimated " << r.estimated_cycles;
}

TEST(OpZoo, OneLane) { cosimulate_zoo(1); }
TEST(OpZoo, TwoLanes) { cosimulate_zoo(2); }

// s64 divides and remainders whose operands' ranges fit fewer bits (a fixed-point
// quotient's shape: a clamped value shifted up, divided by a small one) are built at that
// width (hwmodel::divider_bits: 25 bits here) and sign-extended: x / 0, x % 0, x / -1 and
// the dividend's range ends (-1024 << 13 = -2^23) agree with the interpreter.
const char* kNarrowDivides = R"(design: narrow_divides
description: s64 divides whose operands' ranges need 25 bits
inputs:
  x: s32[8]
  y: s32[8]
ops:
  - {name: lo, op: constant, value: -1024, type: "s32[8]"}
  - {name: hi, op: constant, value: 1023, type: "s32[8]"}
  - {name: edge_x, op: constant, value: [-1024, -1024, 1023, 0, 5, -5, -1024, 7], type: "s32[8]"}
  - {name: cx, op: clamp, args: [lo, x, hi]}
  - {name: ex, op: clamp, args: [lo, edge_x, hi]}
  - {name: dlo, op: constant, value: -9, type: "s32[8]"}
  - {name: dhi, op: constant, value: 9, type: "s32[8]"}
  - {name: cy, op: clamp, args: [dlo, y, dhi]}
  - {name: k, op: constant, value: 13, type: "s64[8]"}
  - {name: wx, op: convert, args: [cx], type: "s64[8]"}
  - {name: wex, op: convert, args: [ex], type: "s64[8]"}
  - {name: n, op: shift-left, args: [wx, k]}
  - {name: en, op: shift-left, args: [wex, k]}
  - {name: d, op: convert, args: [cy], type: "s64[8]"}
  - {name: edge_d, op: constant, value: [-1, 0, -1, 0, 7, -7, 1, 3], type: "s64[8]"}
  - {name: q1, op: divide, args: [n, d]}
  - {name: r1, op: remainder, args: [n, d]}
  - {name: q2, op: divide, args: [en, edge_d]}
  - {name: r2, op: remainder, args: [en, edge_d]}
outputs: [q1, r1, q2, r2]
target: fpga
)";

TEST(OpZoo, NarrowDividersAgree) {
  const ir::Module m = frontend::load_yaml_design(kNarrowDivides, "narrow_divides.yaml").module;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), {});
  EXPECT_NE(e.verilog.find("reg [24:0]"), std::string::npos) << "no 25-bit divider";
  EXPECT_EQ(e.verilog.find("64'h8000000000000000"), std::string::npos) << "a 64-bit divider's MIN / -1 case";
  rtl::SimOptions o;
  o.vectors = 24;
  o.seed = 5;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("narrow_divides"), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_TRUE(r.passed()) << "measured " << r.measured_cycles << ", estimated " << r.estimated_cycles;
}

}  // namespace
}  // namespace hlsgym::testing
