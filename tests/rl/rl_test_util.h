// Shared by the rl tests: a design from designs/ and the FPGA target.
#pragma once
#include <memory>
#include <string>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl::testutil {

// A while loop (transpose -> dot in its body) after reshape -> multiply by a broadcast
// constant: the graph-wl patterns worked out by hand, and the graph the gnn reads.
inline constexpr const char* kLoopHlo = R"(HloModule t

body {
  bp = (s32[], f32[4,4]) parameter(0)
  i = s32[] get-tuple-element(bp), index=0
  x = f32[4,4] get-tuple-element(bp), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  xt = f32[4,4] transpose(x), dimensions={1,0}
  d = f32[4,4] dot(xt, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[], f32[4,4]) tuple(i1, d)
}

cond {
  cp = (s32[], f32[4,4]) parameter(0)
  ci = s32[] get-tuple-element(cp), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(ci, n), direction=LT
}

ENTRY e {
  p = f32[4,4] parameter(0)
  r = f32[16] reshape(p)
  c = f32[] constant(2)
  b = f32[16] broadcast(c), dimensions={}
  m = f32[16] multiply(r, b)
  z = s32[] constant(0)
  init = (s32[], f32[4,4]) tuple(z, p)
  w = (s32[], f32[4,4]) while(init), condition=cond, body=body
  g = f32[4,4] get-tuple-element(w), index=1
  mr = f32[4,4] reshape(m)
  ROOT out = f32[4,4] add(g, mr)
}
)";


inline ir::Module design(const std::string& name) {
  return frontend::load_design((testing::source_dir() / "designs" / (name + ".yaml")).string()).module;
}

inline std::shared_ptr<const hwmodel::Target> fpga() {
  static auto t = std::make_shared<const hwmodel::Target>(
      hwmodel::load_target("fpga", {testing::source_dir() / "designs" / "targets"}));
  return t;
}

}  // namespace hlsgym::rl::testutil
