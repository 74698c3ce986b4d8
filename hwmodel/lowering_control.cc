// Static facts the lowering reads from the IR: while trip counts and per-op lanes.
#include <cctype>
#include <string_view>

#include "hwmodel/lowering.h"

namespace hlsgym::hwmodel {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

namespace {

std::optional<int64_t> scalar_int(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConstant) return std::nullopt;
  const ir::Literal& l = m.literal(i);
  const ir::ElementType t = m.shape(i).element_type();
  if (l.is_tuple() || l.elided() || !ir::is_integral(t) || m.shape(i).rank() != 0) return std::nullopt;
  return l.get_int(0);
}

// The first run of digits after `key` in `text`.
std::optional<int64_t> number_after(std::string_view text, std::string_view key) {
  const size_t at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  size_t p = at + key.size();
  while (p < text.size() && !std::isdigit(static_cast<unsigned char>(text[p])) && p - at < key.size() + 12) ++p;
  if (p >= text.size() || !std::isdigit(static_cast<unsigned char>(text[p]))) return std::nullopt;
  int64_t v = 0;
  for (; p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])) && v < (int64_t{1} << 56); ++p)
    v = v * 10 + (text[p] - '0');
  return v;
}

bool is_element(const ir::Module& m, InstrId i, InstrId param, int64_t k) {
  return m.opcode(i) == Opcode::kGetTupleElement && m.operand(i, 0) == param && m.attrs(i).tuple_index == k;
}

// Condition `compare(gte(p, k), N) LT` or `compare(N, gte(p, k)) GT`: (k, N).
std::optional<std::pair<int64_t, int64_t>> loop_bound(const ir::Module& m, CompId cond) {
  const ir::Computation& c = m.computation(cond);
  if (c.params.size() != 1 || c.params[0] == ir::kNoId || c.root == ir::kNoId || m.opcode(c.root) != Opcode::kCompare)
    return std::nullopt;
  const auto dir = m.attrs(c.root).direction;
  InstrId element = m.operand(c.root, 0), limit = m.operand(c.root, 1);
  if (dir == ir::ComparisonDirection::kGt) std::swap(element, limit);
  else if (dir != ir::ComparisonDirection::kLt) return std::nullopt;
  const auto n = scalar_int(m, limit);
  if (!n || m.opcode(element) != Opcode::kGetTupleElement || m.operand(element, 0) != c.params[0]) return std::nullopt;
  return std::make_pair(m.attrs(element).tuple_index, *n);
}

// The body's root tuple sets element k to gte(param, k) + 1.
bool steps_by_one(const ir::Module& m, CompId body, int64_t k) {
  const ir::Computation& b = m.computation(body);
  if (b.params.size() != 1 || b.params[0] == ir::kNoId || b.root == ir::kNoId || m.opcode(b.root) != Opcode::kTuple)
    return false;
  if (k < 0 || k >= static_cast<int64_t>(m.operands(b.root).size())) return false;
  const InstrId next = m.operand(b.root, static_cast<size_t>(k));
  if (m.opcode(next) != Opcode::kAdd) return false;
  for (size_t side = 0; side < 2; ++side) {
    const auto one = scalar_int(m, m.operand(next, 1 - side));
    if (one && *one == 1 && is_element(m, m.operand(next, side), b.params[0], k)) return true;
  }
  return false;
}

}  // namespace

std::optional<int64_t> while_trip_count(const ir::Module& m, InstrId w) {
  if (const auto* bc = m.attrs(w).find_opaque("backend_config"))
    if (auto n = number_after(bc->value, "known_trip_count")) return *n;
  const auto& called = m.called(w);
  if (called.size() != 2 || m.operands(w).size() != 1) return std::nullopt;
  const auto bound = loop_bound(m, called[0]);
  if (!bound || !steps_by_one(m, called[1], bound->first)) return std::nullopt;
  const InstrId init = m.operand(w, 0);
  if (m.opcode(init) != Opcode::kTuple || bound->first >= static_cast<int64_t>(m.operands(init).size()))
    return std::nullopt;
  const auto start = scalar_int(m, m.operand(init, static_cast<size_t>(bound->first)));
  if (!start) return std::nullopt;
  return bound->second > *start ? bound->second - *start : 0;
}

std::optional<int> lanes_attribute(const ir::Module& m, InstrId i) {
  const auto* fa = m.attrs(i).find_opaque("frontend_attributes");
  if (!fa) return std::nullopt;
  const std::string_view v = fa->value;
  // Match the key `lanes` exactly (not e.g. `max_lanes`).
  for (size_t at = v.find("lanes"); at != std::string_view::npos; at = v.find("lanes", at + 1)) {
    const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(v[at - 1])) || v[at - 1] == '_');
    if (!starts) continue;
    if (auto n = number_after(v.substr(at), "lanes"); n && *n >= 1 && *n <= 1'000'000) return static_cast<int>(*n);
  }
  return std::nullopt;
}

}  // namespace hlsgym::hwmodel
