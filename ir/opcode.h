// The one opcode table of hlsgym: every HLO opcode with its text name, arity and
// properties. Generated from opcode.def so that the enum and the table cannot drift.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace hlsgym::ir {

enum class Opcode : uint8_t {
#define HLO_OPCODE(e, name, arity, flags, cat) e,
#include "ir/opcode.def"
#undef HLO_OPCODE
};

inline constexpr int kOpcodeCount = 0
#define HLO_OPCODE(e, name, arity, flags, cat) +1
#include "ir/opcode.def"
#undef HLO_OPCODE
    ;

enum class OpCategory : uint8_t {
  kUnary, kBinary, kTernary, kDataMovement, kContraction, kReduction, kIndexing,
  kControl, kTupleOp, kLeaf, kCollective, kCommunication, kRandom, kLinearAlgebra,
  kNormalization, kOpaque
};

struct OpcodeInfo {
  std::string_view name;
  int arity;  // -1: variadic
  bool elementwise;
  bool commutative;
  bool associative;
  bool side_effect;
  bool transcendental;
  OpCategory category;
};

const OpcodeInfo& info(Opcode op);
inline std::string_view name(Opcode op) { return info(op).name; }
std::optional<Opcode> opcode_from_name(std::string_view name);
std::string_view category_name(OpCategory c);

}  // namespace hlsgym::ir
