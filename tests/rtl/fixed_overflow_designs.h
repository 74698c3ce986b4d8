// Float designs whose entry values stay in ap_fixed<8,4>'s range [-8, 7.9375] while
// values computed inside called computations leave it (issue 16's overflow rule): shared
// by tests/rtl/fixed_overflow_test.cc and the CLI test of tests/rtl/cli_test.cc.
#pragma once

namespace hlsgym::testing {

// 64 values of 1.5 summed by a reduce inside a called computation (96), scaled back by
// 1/16 (6): the call's result is in ap_fixed<8,4>'s [-8, 7.9375], its accumulator is not.
constexpr const char* kCalledSum = R"(HloModule called_sum
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT acc = f32[] add(a, b)
}
mean {
  v = f32[64] parameter(0)
  zero = f32[] constant(0)
  s = f32[] reduce(v, zero), dimensions={0}, to_apply=sum
  k = f32[] constant(0.0625)
  ROOT m = f32[] multiply(s, k)
}
ENTRY main {
  x = f32[64] parameter(0)
  h = f32[] constant(1.5)
  hs = f32[64] broadcast(h), dimensions={}
  y = f32[64] clamp(hs, x, hs)
  ROOT r = f32[] call(y), to_apply=mean
}
)";

// A reduce in the entry over 32 values of 1.5 then 32 of -1.5: the result (0) is in
// range, the partial sums climb to 48.
constexpr const char* kEntryReduce = R"(HloModule entry_reduce
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT acc = f32[] add(a, b)
}
ENTRY main {
  x = f32[32] parameter(0)
  h = f32[] constant(1.5)
  hs = f32[32] broadcast(h), dimensions={}
  up = f32[32] clamp(hs, x, hs)
  down = f32[32] negate(up)
  both = f32[64] concatenate(up, down), dimensions={0}
  zero = f32[] constant(0)
  ROOT s = f32[] reduce(both, zero), dimensions={0}, to_apply=sum
}
)";

// A loop body that adds 7 to values in [1, 3] and takes it away again: the loop's
// result is its start, the body's intermediate is past 8.
constexpr const char* kLoopBody = R"(HloModule loop_body
cond {
  p = (f32[], f32[4]) parameter(0)
  i = f32[] get-tuple-element(p), index=0
  n = f32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (f32[], f32[4]) parameter(0)
  i = f32[] get-tuple-element(p), index=0
  one = f32[] constant(1)
  next = f32[] add(i, one)
  acc = f32[4] get-tuple-element(p), index=1
  seven = f32[] constant(7)
  sevens = f32[4] broadcast(seven), dimensions={}
  up = f32[4] add(acc, sevens)
  down = f32[4] subtract(up, sevens)
  ROOT t = (f32[], f32[4]) tuple(next, down)
}
ENTRY main {
  x = f32[4] parameter(0)
  a = f32[4] abs(x)
  o = f32[] constant(1)
  os = f32[4] broadcast(o), dimensions={}
  start = f32[4] add(a, os)
  zero = f32[] constant(0)
  init = (f32[], f32[4]) tuple(zero, start)
  w = (f32[], f32[4]) while(init), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(w), index=1
}
)";

}  // namespace hlsgym::testing
