#include "ir/opcode.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace hlsgym::ir {
namespace {
constexpr unsigned kE = 1, kC = 2, kA = 4, kS = 8, kT = 16;
using enum OpCategory;

constexpr OpcodeInfo make(std::string_view n, int arity, unsigned f, OpCategory c) {
  return {n, arity, (f & kE) != 0, (f & kC) != 0, (f & kA) != 0, (f & kS) != 0, (f & kT) != 0, c};
}

constexpr std::array<OpcodeInfo, kOpcodeCount> kTable = {{
#define HLO_OPCODE(e, name, arity, flags, cat) make(name, arity, flags, cat),
#include "ir/opcode.def"
#undef HLO_OPCODE
}};

// Sorted (name, opcode) pairs for binary search by text name.
const auto& sorted_names() {
  static const auto table = [] {
    std::array<std::pair<std::string_view, Opcode>, kOpcodeCount> t{};
    for (int i = 0; i < kOpcodeCount; ++i) t[i] = {kTable[i].name, static_cast<Opcode>(i)};
    std::sort(t.begin(), t.end());
    return t;
  }();
  return table;
}
}  // namespace

const OpcodeInfo& info(Opcode op) { return kTable[static_cast<int>(op)]; }

std::optional<Opcode> opcode_from_name(std::string_view n) {
  const auto& t = sorted_names();
  auto it = std::lower_bound(t.begin(), t.end(), n,
                             [](const auto& p, std::string_view key) { return p.first < key; });
  if (it != t.end() && it->first == n) return it->second;
  return std::nullopt;
}

std::string_view category_name(OpCategory c) {
  static constexpr std::array<std::string_view, 16> kNames = {
      "unary", "binary", "ternary", "data_movement", "contraction", "reduction", "indexing",
      "control", "tuple", "leaf", "collective", "communication", "random", "linear_algebra",
      "normalization", "opaque"};
  return kNames[static_cast<int>(c)];
}

}  // namespace hlsgym::ir
