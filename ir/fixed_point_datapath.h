// A pipelined fixed-point datapath written once and used twice: ir evaluates it bit for
// bit (run), rtl prints it as Verilog (rtl/float_transcendental.cc). The transcendental
// float units (ir/transcendental_units.h) are such datapaths, so the interpreter's "unit
// algorithm" mode and the Verilog cannot drift apart: they are one list of nodes.
//
// Every value is an unsigned bit vector of its node's width (1..128); arithmetic wraps
// at that width (two's complement where a node reads its operand as signed). Operands of
// other widths are zero-extended or truncated to the node's width, or sign-extended where
// the node says so. Nodes are in evaluation order; each belongs to a pipeline stage
// (a node reads only nodes of its stage or earlier), and a later stage reads an earlier stage's value through registers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hlsgym::ir {

__extension__ typedef unsigned __int128 u128;

enum class FxOp : uint8_t {
  kInput,         // the datapath's one operand
  kConst,         // value
  kAdd,           // a + b
  kSub,           // a - b
  kMul,           // a * b, operands unsigned
  kMulSigned,     // a * b, operands two's complement of their own widths
  kShr,           // a >> shift (logical, constant)
  kShl,           // a << shift (constant)
  kShrVar,        // a >> b (a shift of a's width or more gives 0)
  kShlVar,        // a << b
  kSext,          // a sign-extended (or truncated) to the width
  kSlice,         // a[shift + width - 1 : shift]
  kConcat,        // {a, b}
  kLess,          // a < b unsigned (width 1)
  kEq,            // a == b (width 1)
  kMux,           // a ? b : c, a of width 1
  kAnd, kOr, kNot,
  kTable,         // table[a] (a zero-extended index; entries past the table are 0)
  kLeadingZeros,  // leading zeros of a in a's width (a's width when a is 0)
  // {a: sign, b: significand, c: biased exponent its top bit stands for (two's
  // complement), d: sticky} rounded to nearest even into the float format
  // (exponent_bits, fraction_bits): subnormal results exact, overflow to infinity.
  kRoundPack,
};

struct FxNode {
  FxOp op = FxOp::kConst;
  int width = 1;
  int a = -1, b = -1, c = -1, d = -1;  // operand nodes
  int shift = 0;                       // kShr, kShl, kSlice
  u128 value = 0;                      // kConst
  int table = -1;                      // kTable: index into FxProgram::tables
  int exponent_bits = 0, fraction_bits = 0;  // kRoundPack
  int stage = 0;
};

struct FxProgram {
  std::vector<FxNode> nodes;
  std::vector<std::vector<u128>> tables;
  int output = -1;  // the result node
  int input_width = 0;
  // Stages: the result leaves from a register after the last one, so the unit's latency
  // is stages() = last node stage + 1.
  int stages() const { return nodes.empty() ? 1 : nodes[static_cast<size_t>(output)].stage + 1; }
};

// The result of program p on input x (bits of the input's width).
u128 run(const FxProgram& p, u128 x);

// The value of (sign, sig, top, sticky) rounded as kRoundPack does: sig (of sig_width
// bits) x 2^(top - bias - (sig_width - 1)), plus less than its lowest bit when sticky.
uint64_t round_pack(bool sign, u128 sig, int sig_width, int64_t top, bool sticky, int exponent_bits, int fraction_bits);

// Builds a program node by node. Widths default to what holds the exact result.
class FxBuilder {
 public:
  using V = int;
  explicit FxBuilder(int input_width);
  V input() const { return 0; }
  int width(V v) const { return p_.nodes[static_cast<size_t>(v)].width; }
  V constant(int width, u128 value);
  V add(V a, V b, int width = 0);  // default max(wa, wb) + 1
  V sub(V a, V b, int width = 0);  // default max(wa, wb)
  V mul(V a, V b, int width = 0);  // default wa + wb
  V mul_signed(V a, V b, int width = 0);
  V shr(V a, int k);               // width wa - k
  V shl(V a, int k);               // width wa + k
  V shr_var(V a, V amount);
  V shl_var(V a, V amount, int width);
  V resize(V a, int width);        // zero-extend or truncate
  V sext(V a, int width);
  V slice(V a, int hi, int lo);
  V bit(V a, int k) { return slice(a, k, k); }
  V concat(V hi, V lo);
  V less(V a, V b);
  V eq(V a, V b);
  V is(V a, u128 k) { return eq(a, constant(width(a), k)); }  // a == k
  V mux(V sel, V if_one, V if_zero, int width = 0);  // default max of the two
  V and_(V a, V b);
  V or_(V a, V b);
  V not_(V a);
  V table(V index, std::vector<u128> entries, int width);
  V leading_zeros(V a);
  V round_pack(V sign, V sig, V top, V sticky, int exponent_bits, int fraction_bits);
  void next_stage() { ++stage_; }
  // Logic that runs beside what came since `s` (both read only what is older): back to stage s.
  int stage() const { return stage_; }
  void set_stage(int s) { stage_ = s; }
  FxProgram finish(V output);

 private:
  V push(FxNode n);
  FxProgram p_;
  int stage_ = 0;
};

// Bits to hold 0..max.
int fx_bits_for(u128 max);

}  // namespace hlsgym::ir
