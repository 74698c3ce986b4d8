#include "hwmodel/timing.h"

#include <algorithm>

namespace hlsgym::hwmodel {

int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

int ceil_log2(int64_t n) {
  int k = 0;
  while ((int64_t{1} << k) < n && k < 62) ++k;
  return k;
}

Timing stream_timing(int64_t elements, int64_t lanes, int64_t depth, int64_t lead) {
  if (elements <= 0) return {0, 0, 1};
  const int64_t l = std::clamp<int64_t>(lanes, 1, elements);
  const int64_t issue = ceil_div(elements, l);
  // lanes with work: 4 elements on 3 lanes take 2 each and leave the third idle
  return {lead + depth + issue - 1, lead + issue, ceil_div(elements, issue)};
}

AccumulateShape accumulate_shape(int64_t outputs, int64_t terms, int64_t lanes, int64_t add_depth) {
  const int64_t l = std::max<int64_t>(lanes, 1);
  const int64_t a = std::max<int64_t>(add_depth, 1);
  AccumulateShape sh;
  sh.chunk = std::max<int64_t>(terms, 1);
  if (l <= outputs) {
    sh.per_lane = ceil_div(outputs, l);
  } else if (outputs > 0 && terms > 0) {
    sh.split = std::min(terms, l / outputs);
    sh.chunk = ceil_div(terms, sh.split);
    sh.split = ceil_div(terms, sh.chunk);  // chunks with terms: 4 terms on 3 lanes are 2 + 2, the third idles
  }
  // l <= P: groups of g = min(p, A) outputs, rounds of A cycles; l > P: one output per
  // lane (p = 1), so one group.
  sh.group = std::min(sh.per_lane, a);
  return sh;
}

Timing accumulate_timing(int64_t outputs, int64_t terms, int64_t lanes, int64_t mul_depth, int64_t add_depth) {
  if (outputs <= 0) return {0, 0, 1};
  if (terms <= 0) return stream_timing(outputs, lanes, 1);  // just the init value
  const int64_t a = std::max<int64_t>(add_depth, 1);
  const AccumulateShape sh = accumulate_shape(outputs, terms, lanes, add_depth);
  const int64_t issue = ceil_div(sh.per_lane, sh.group) * (sh.chunk - 1) * a + sh.per_lane;
  const int64_t tree = static_cast<int64_t>(ceil_log2(sh.split)) * a;
  Timing t;
  t.latency = mul_depth + a + issue - 1 + tree;
  t.busy = t.latency - (mul_depth + a) + 1;
  t.lanes_used = sh.split > 1 ? outputs * sh.split : ceil_div(outputs, sh.per_lane);  // lanes with work
  return t;
}

int64_t sort_network_ops(int64_t keys, int64_t rows) {
  if (keys <= 1 || rows <= 0) return 0;
  const int64_t lg = ceil_log2(keys);
  const int64_t stages = lg * (lg + 1) / 2;
  return stages * rows * ((int64_t{1} << lg) / 2);
}

Timing sort_timing(int64_t keys, int64_t rows, int64_t lanes, int64_t cmp_depth) {
  if (keys <= 1 || rows <= 0) return {0, 0, 1};
  const int64_t lg = ceil_log2(keys);
  const int64_t stages = lg * (lg + 1) / 2;
  const int64_t per_stage = rows * ((int64_t{1} << lg) / 2);
  const int64_t l = std::clamp<int64_t>(lanes, 1, per_stage);
  const int64_t depth = std::max<int64_t>(cmp_depth, 1);
  Timing t;
  t.latency = stages * (depth + ceil_div(per_stage, l) - 1);
  t.busy = t.latency - depth + 1;
  t.lanes_used = l;
  return t;
}

}  // namespace hlsgym::hwmodel
