// The timing formulas. Every task's latency is a closed formula of static shapes, so the
// RTL of issue 5 can run exactly this schedule with a counter per task.
//
// Units are pipelined with II 1. `busy` is how long a task keeps its unit instance from
// accepting another task's first input: its last input is issued at cycle busy - 1, so
// busy = latency - depth + 1 for a single pipeline of depth `depth`.
//
// FPGA. Every operand comes from a memory with a synchronous read: the address is issued
// at the item's issue cycle and the data is there kMemoryReadLatency cycles later, so a
// task's pipeline is R = kMemoryReadLatency read stage(s) followed by its unit.
// - stream (elementwise ops, fused elementwise bodies, memory moves): N elements on
//   l = min(lanes, N) lanes of depth D = R + L: latency = D + ceil(N / l) - 1,
//   busy = ceil(N / l); ceil(N / ceil(N / l)) lanes have work (the rest idle and cost
//   nothing). A memory move uses the on-chip memory latency as L.
//   A gather first reads each item's start indices (`lead` = R cycles ahead of the
//   operand read that depends on them): latency = lead + D + ceil(N / l) - 1 and
//   busy = lead + ceil(N / l) (the lane's last operand read issues at busy - 1).
// - accumulate (reduce, reduce-window, dot, convolution): P outputs of K terms each; the
//   read stage and a multiplier of depth M' = R + M (M = 0 for reduce) feed an
//   accumulator of depth A that starts from the init value (reduce) or zero (dot).
//     lanes l <= P: each lane owns p = ceil(P / l) outputs, taken in groups of
//       g = min(p, A) (the last group may be smaller) whose partial sums live in g
//       accumulator registers; a group's outputs are interleaved round robin, one term
//       each per round of A cycles (an accumulator is revisited only after its last
//       update landed), K rounds per group, groups back to back:
//       issue = G (K - 1) A + p with G = ceil(p / g), latency = M' + A + issue - 1.
//     lanes l > P: each output's K terms are split over s = ceil(K / k') lanes,
//       k' = ceil(K / min(K, floor(l / P))) terms each (p = 1, r = A), then the s partial sums
//       meet in a binary tree of ceil(log2 s) levels of A cycles:
//       latency = M + A + (k' - 1) A + ceil(log2 s) A.
//     busy = latency - (M + A) + 1; lanes used = ceil(P / p) for l <= P, else P s.
// - sort: a bitonic network over n' = 2^ceil(log2 n) keys per row, R rows:
//   S = log2 n' (log2 n' + 1) / 2 stages of R n' / 2 compare-exchanges each, stage by
//   stage: latency = S (C + ceil(R n' / 2 / l) - 1) for a comparator of depth C.
// - scatter: U updates read-modify-written through the combiner of depth C:
//   latency = memory latency + C + ceil(U / l) - 1.
// - DRAM: a task that reads or writes a buffer kept in DRAM (larger than the on-chip
//   level) takes at least dram.latency + ceil(dram bytes / dram.bytes_per_cycle) and
//   then holds its unit for its whole latency.
// CPU (roofline, one core): latency = busy = overhead + ceil(max(compute, memory)) where
//   compute = ceil(ops / v) x cycles_per_vector with v = max(1, simd_bits / width),
//   memory = (bytes in + out) / bytes_per_cycle of the smallest level holding them.
// Free ops (parameter, constant, reshape, bitcast, tuple, get-tuple-element, ...): 0.
#pragma once
#include <cstdint>

namespace hlsgym::hwmodel {

// Cycles from a memory read's address to its data (synchronous block RAM and register
// files alike), the first stage of every task's pipeline on an FPGA.
inline constexpr int64_t kMemoryReadLatency = 1;

struct Timing {
  int64_t latency = 0;
  int64_t busy = 0;
  int64_t lanes_used = 1;
};

int64_t ceil_div(int64_t a, int64_t b);
int ceil_log2(int64_t n);

Timing stream_timing(int64_t elements, int64_t lanes, int64_t depth, int64_t lead = 0);
// How an accumulate spreads over its lanes (above): p outputs per lane in groups of g
// (g accumulator registers, one slot each), or, with more lanes than outputs, each output's
// terms in s chunks of k'. The timing, the RTL's loop nests and the clock's accumulator
// input (a slot select of g registers; a split lane's clear of its partial sum) read it.
struct AccumulateShape {
  int64_t per_lane = 1;  // p (1 when split)
  int64_t split = 1;     // s
  int64_t chunk = 1;     // k': terms per lane (K when not split)
  int64_t group = 1;     // g = min(p, A)
};
AccumulateShape accumulate_shape(int64_t outputs, int64_t terms, int64_t lanes, int64_t add_depth);
Timing accumulate_timing(int64_t outputs, int64_t terms, int64_t lanes, int64_t mul_depth, int64_t add_depth);
// Compare-exchange operations of the bitonic network (energy and op counts).
int64_t sort_network_ops(int64_t keys, int64_t rows);
Timing sort_timing(int64_t keys, int64_t rows, int64_t lanes, int64_t cmp_depth);

}  // namespace hlsgym::hwmodel
