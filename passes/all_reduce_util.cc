#include "passes/all_reduce_util.h"

#include <cctype>
#include <string>
#include <utility>

#include "passes/rewrite_util.h"

namespace hlsgym::passes {
using ir::InstrId;
using ir::Opcode;

namespace {

// Sizes of the groups in "{{0,1},{2,3}}"; empty on a syntax it does not know.
std::vector<int64_t> listed_group_sizes(const std::string& v) {
  std::vector<int64_t> sizes;
  size_t k = 1;  // after the outer '{'
  while (k < v.size()) {
    while (k < v.size() && (v[k] == ',' || std::isspace(static_cast<unsigned char>(v[k])))) ++k;
    if (k >= v.size() || v[k] == '}') break;
    if (v[k] != '{') return {};
    const size_t close = v.find('}', k);
    if (close == std::string::npos) return {};
    int64_t n = 0;
    bool digit = false;
    for (size_t j = k + 1; j < close; ++j) {
      if (std::isdigit(static_cast<unsigned char>(v[j]))) digit = true;
      else if (v[j] == ',') n += digit, digit = false;
      else if (!std::isspace(static_cast<unsigned char>(v[j]))) return {};
    }
    sizes.push_back(n + digit);
    k = close + 1;
  }
  return sizes;
}

bool parameter_is_replicated(const ir::Module& m, InstrId i) {
  if (m.computation_of(i) != m.entry()) return false;
  const ir::OpaqueAttribute* a = m.attrs(i).find_opaque("parameter_replication");
  if (!a || a->value.find("true") == std::string::npos) return false;
  return a->value.find("false") == std::string::npos;
}

}  // namespace

std::optional<int64_t> uniform_group_size(const ir::Module& m, InstrId i) {
  const ir::OpaqueAttribute* g = m.attrs(i).find_opaque("replica_groups");
  if (!g || g->value.size() < 3) return std::nullopt;
  const std::string& v = g->value;
  if (v[0] == '[') {  // [num_groups,group_size]<=[...]
    const size_t comma = v.find(','), close = v.find(']');
    if (comma == std::string::npos || close == std::string::npos || comma > close) return std::nullopt;
    const int64_t size = std::atoll(v.c_str() + comma + 1);
    return size > 0 ? std::optional<int64_t>(size) : std::nullopt;
  }
  if (v[0] != '{') return std::nullopt;
  const std::vector<int64_t> sizes = listed_group_sizes(v);
  if (sizes.empty() || sizes[0] == 0) return std::nullopt;
  for (int64_t s : sizes)
    if (s != sizes[0]) return std::nullopt;
  return sizes[0];
}

uint8_t ReplicationAnalysis::leaf_state(InstrId i) const {
  switch (m_.opcode(i)) {
    case Opcode::kConstant: case Opcode::kIota: case Opcode::kPartitionId: return 1;
    case Opcode::kParameter: return parameter_is_replicated(m_, i) ? 1 : 2;
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kMap: case Opcode::kSort:
    case Opcode::kScatter: case Opcode::kSelectAndScatter:
      return has_side_effect(m_, i) ? 2 : 0;  // pure functions of their operands
    default: break;
  }
  const ir::OpCategory cat = ir::info(m_.opcode(i)).category;
  if (!m_.called(i).empty() || cat == ir::OpCategory::kCollective || cat == ir::OpCategory::kCommunication ||
      cat == ir::OpCategory::kRandom || cat == ir::OpCategory::kOpaque || cat == ir::OpCategory::kLeaf ||
      has_side_effect(m_, i))
    return 2;  // replica-id, rng, custom-calls, control flow: not known to be replicated
  return 0;
}

bool ReplicationAnalysis::is_replicated(InstrId root) {
  if (state_.empty()) state_.assign(m_.instruction_slots(), 0);
  std::vector<std::pair<InstrId, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [i, next] = stack.back();
    if (state_[i] != 0) {
      stack.pop_back();
      continue;
    }
    if (next == 0) {
      const uint8_t leaf = leaf_state(i);
      if (leaf != 0 || m_.operands(i).empty()) {
        state_[i] = leaf != 0 ? leaf : 1;
        stack.pop_back();
        continue;
      }
    }
    const auto ops = m_.operands(i);
    if (next < ops.size()) {
      const InstrId o = ops[next++];
      if (state_[o] == 0) stack.emplace_back(o, 0);
      continue;
    }
    bool all = true;
    for (InstrId o : ops) all &= state_[o] == 1;
    state_[i] = all ? 1 : 2;
    stack.pop_back();
  }
  return state_[root] == 1;
}

}  // namespace hlsgym::passes
