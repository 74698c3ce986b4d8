#include "rl/graph_wl.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace hlsgym::rl {

const std::vector<std::string>& graph_wl_pattern_names() {
  static const std::vector<std::string> names = {
      "reshape->elementwise", "elementwise->reshape", "reshape->reshape",     "transpose->dot",
      "transpose->transpose", "broadcast->multiply",  "broadcast->elementwise", "convert->convert",
      "constant->elementwise", "all-constant-operands", "slice-of-concat-or-pad", "dot->add",
      "fan-out",              "in-loop",               "in-conditional",        "nesting-depth"};
  return names;
}

namespace {

using ir::Opcode;

// Per-opcode classes, looked up once per node instead of testing opcodes one by one.
enum : uint8_t {
  kElementwise = 1, kReshapeLike = 2, kConstant = 4, kCalls = 8, kSliceLike = 16, kConcatLike = 32
};

std::array<uint8_t, ir::kOpcodeCount> opcode_classes() {
  std::array<uint8_t, ir::kOpcodeCount> c{};
  for (int op = 0; op < ir::kOpcodeCount; ++op)
    if (ir::info(static_cast<Opcode>(op)).elementwise) c[static_cast<size_t>(op)] |= kElementwise;
  auto add = [&](Opcode op, uint8_t cls) { c[static_cast<size_t>(op)] |= cls; };
  add(Opcode::kReshape, kReshapeLike);
  add(Opcode::kBitcast, kReshapeLike);
  add(Opcode::kConstant, kConstant);
  add(Opcode::kIota, kConstant);
  // Calls whose callee can hold a while or conditional (the scalar to_apply computations
  // of reduce, map, sort, ... cannot).
  for (Opcode op : {Opcode::kWhile, Opcode::kConditional, Opcode::kCall, Opcode::kFusion, Opcode::kAsyncStart,
                    Opcode::kCustomCall})
    add(op, kCalls);
  add(Opcode::kSlice, kSliceLike);
  add(Opcode::kDynamicSlice, kSliceLike);
  add(Opcode::kConcatenate, kConcatLike);
  add(Opcode::kPad, kConcatLike);
  return c;
}

// An opcode's label is a hash of its name, not its enum value: an opcode added to
// opcode.def renumbers the enum but must not move every bucket of a trained policy.
std::array<uint64_t, ir::kOpcodeCount> opcode_labels() {
  std::array<uint64_t, ir::kOpcodeCount> l{};
  for (int op = 0; op < ir::kOpcodeCount; ++op) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (char ch : ir::name(static_cast<Opcode>(op))) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
    l[static_cast<size_t>(op)] = h;
  }
  return l;
}

// A label refined by the next one (one Weisfeiler-Lehman step along an edge).
uint64_t refine(uint64_t label, uint64_t next) { return (label ^ (next + 0x9E3779B97F4A7C15ull + (label << 6) + (label >> 2))) * 0xff51afd7ed558ccdull; }

// Fibonacci hashing of a label to a bucket of a power-of-two table.
template <int kBuckets>
size_t bucket(uint64_t label) {
  static_assert((kBuckets & (kBuckets - 1)) == 0);
  constexpr int shift = 64 - __builtin_ctz(kBuckets);
  return static_cast<size_t>((label * 0x9E3779B97F4A7C15ull) >> shift);
}

}  // namespace

void graph_wl_counts(const ir::Module& m, std::vector<double>& out) {
  static const std::array<uint8_t, ir::kOpcodeCount> cls = opcode_classes();
  static const std::array<uint64_t, ir::kOpcodeCount> label = opcode_labels();
  out.assign(kGraphWlSize, 0.0);
  double* edges = out.data();
  double* paths = edges + kWlEdgeBuckets;
  double* pat = paths + kWlPathBuckets;
  std::vector<int32_t> per_comp(m.computation_slots(), 0);
  std::vector<ir::InstrId> callers;  // instructions that may call a loop or branch
  const size_t slots = m.instruction_slots();
  for (ir::InstrId i = 0; i < slots; ++i) {
    const ir::Instruction& in = m.instr(i);
    if (in.dead) continue;
    ++per_comp[in.computation];
    const Opcode c = in.opcode;
    const uint8_t cc = cls[static_cast<size_t>(c)];
    if (cc & kCalls) callers.push_back(i);
    if (m.users(i).size() >= 2) pat[12] += 1;
    const auto ops = m.operands(i);
    bool all_constant = !ops.empty();
    for (ir::InstrId o : ops) {
      const Opcode b = m.opcode(o);
      const uint8_t bc = cls[static_cast<size_t>(b)];
      const uint64_t edge = refine(label[static_cast<size_t>(b)], label[static_cast<size_t>(c)]);
      edges[bucket<kWlEdgeBuckets>(edge)] += 1;
      for (ir::InstrId a : m.operands(o)) paths[bucket<kWlPathBuckets>(refine(label[static_cast<size_t>(m.opcode(a))], edge))] += 1;
      all_constant = all_constant && (bc & kConstant);
      if (cc & kElementwise) {
        if (bc & kReshapeLike) pat[0] += 1;
        if (bc & kConstant) pat[8] += 1;
        if (b == Opcode::kBroadcast) pat[c == Opcode::kMultiply ? 5 : 6] += 1;
      }
      if ((cc & kReshapeLike) && (bc & kElementwise)) pat[1] += 1;
      if ((cc & kReshapeLike) && (bc & kReshapeLike)) pat[2] += 1;
      if (b == Opcode::kTranspose) {
        if (c == Opcode::kDot) pat[3] += 1;
        if (c == Opcode::kTranspose) pat[4] += 1;
      }
      if (b == Opcode::kConvert && c == Opcode::kConvert) pat[7] += 1;
      if ((cc & kSliceLike) && (bc & kConcatLike)) pat[10] += 1;
      if (c == Opcode::kAdd && (b == Opcode::kDot || b == Opcode::kConvolution)) pat[11] += 1;
    }
    if (all_constant) pat[9] += 1;
  }
  // Loop and branch nesting of computations: propagated from caller to callee until it
  // settles (each round settles one more level; nesting is shallow).
  std::vector<uint8_t> depth(m.computation_slots(), 0), in_loop(m.computation_slots(), 0),
      in_branch(m.computation_slots(), 0);
  for (bool changed = !callers.empty(); changed;) {
    changed = false;
    for (ir::InstrId i : callers) {
      const ir::CompId caller = m.computation_of(i);
      const Opcode op = m.opcode(i);
      const uint8_t d = static_cast<uint8_t>(std::min(250, depth[caller] + (op == Opcode::kWhile || op == Opcode::kConditional)));
      const uint8_t loop = in_loop[caller] | (op == Opcode::kWhile);
      const uint8_t branch = in_branch[caller] | (op == Opcode::kConditional);
      for (ir::CompId callee : m.called(i)) {
        if (callee >= depth.size()) continue;
        if (d > depth[callee] || loop > in_loop[callee] || branch > in_branch[callee]) {
          depth[callee] = std::max(depth[callee], d);
          in_loop[callee] |= loop;
          in_branch[callee] |= branch;
          changed = true;
        }
      }
    }
  }
  uint8_t max_depth = 0;
  for (size_t c = 0; c < per_comp.size(); ++c) {
    if (per_comp[c] == 0) continue;
    if (in_loop[c]) pat[13] += per_comp[c];
    if (in_branch[c]) pat[14] += per_comp[c];
    max_depth = std::max(max_depth, depth[c]);
  }
  pat[15] = max_depth;
}

}  // namespace hlsgym::rl
