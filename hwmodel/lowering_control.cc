// Static facts the lowering reads from the IR: while trip counts and per-op lanes.
#include <cctype>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "hwmodel/lowering.h"

namespace hlsgym::hwmodel {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

namespace {

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

// Counted loops: the induction variable's value as an affine function of the loop
// state, read structurally (no evaluation), so every form the passes leave behind is
// recognized: `i + 1 + 1` (loop-unroll-by-2), `i - k`, a step of any constant, a
// compare in any direction with the counter on either side and an offset on it, the
// limit a constant (through copies, converts, rank-0 broadcasts/reshapes) or a state
// element that the body passes through unchanged and that starts as a constant, the
// counter at any tuple index or the whole (scalar) state.
//
// The count is proven, not guessed: every value the counter and every intermediate
// expression take (first and last; the sequence is monotone) must fit the type it is
// computed in, so no wrap-around is assumed away. Anything else is nullopt.
using Wide = __int128;
constexpr int64_t kWholeState = -2;  // the loop state is the counter itself (not a tuple)

// A scalar integer value: state element `element` (or none) plus `offset`. `checks`
// lists (type, offset) of every expression computed on the way: element + offset must
// fit the type.
struct Linear {
  std::optional<int64_t> element;
  Wide offset = 0;
  std::vector<std::pair<ir::ElementType, Wide>> checks;
};

bool fits(Wide v, ir::ElementType t) {
  const int bits = ir::bit_width(t);
  if (bits <= 0 || bits > 64) return false;
  if (ir::is_unsigned_integral(t)) return v >= 0 && v <= (bits == 64 ? Wide(UINT64_MAX) : (Wide(1) << bits) - 1);
  const Wide half = Wide(1) << (bits - 1);
  return v >= -half && v < half;
}

bool scalar_integer(const ir::Module& m, InstrId i) {
  const ir::Shape& s = m.shape(i);
  return !s.is_tuple() && s.rank() == 0 && ir::is_integral(s.element_type());
}

class LinearReader {
 public:
  // `state`: the parameter of the loop computation (kNoId in the caller).
  LinearReader(const ir::Module& m, InstrId state) : m_(m), state_(state) {}

  std::optional<Linear> read(InstrId i, int depth = 0) const {
    if (depth > 64 || !scalar_integer(m_, i)) return std::nullopt;
    const ir::ElementType t = m_.shape(i).element_type();
    switch (m_.opcode(i)) {
      case Opcode::kConstant: {
        const ir::Literal& l = m_.literal(i);
        if (l.is_tuple() || l.elided()) return std::nullopt;
        Linear c;
        c.offset = ir::is_unsigned_integral(t) ? Wide(l.get_bits(0)) : Wide(l.get_int(0));
        return c;
      }
      case Opcode::kParameter:
        if (i != state_ || state_ == ir::kNoId) return std::nullopt;
        return element(kWholeState, t);
      case Opcode::kGetTupleElement: {
        const InstrId from = m_.operand(i, 0);
        const int64_t k = m_.attrs(i).tuple_index;
        if (from == state_ && state_ != ir::kNoId) return element(k, t);
        if (m_.opcode(from) == Opcode::kTuple && k >= 0 && k < static_cast<int64_t>(m_.operands(from).size()))
          return read(m_.operand(from, static_cast<size_t>(k)), depth + 1);
        return std::nullopt;
      }
      case Opcode::kCopy:
      case Opcode::kConvert:
      case Opcode::kBitcast:
      case Opcode::kBroadcast:
      case Opcode::kReshape: {
        const InstrId from = m_.operand(i, 0);
        if (!scalar_integer(m_, from)) return std::nullopt;
        // A bitcast reinterprets bits: the same value only within one type.
        if (m_.opcode(i) == Opcode::kBitcast && m_.shape(from).element_type() != t) return std::nullopt;
        return checked(read(from, depth + 1), t);
      }
      case Opcode::kAdd:
      case Opcode::kSubtract: {
        auto a = read(m_.operand(i, 0), depth + 1);
        auto b = read(m_.operand(i, 1), depth + 1);
        if (!a || !b) return std::nullopt;
        const bool sub = m_.opcode(i) == Opcode::kSubtract;
        if (b->element && (sub || a->element)) return std::nullopt;  // -i, i + j: not a counter
        if (b->element) std::swap(a, b);
        a->offset += sub ? -b->offset : b->offset;
        return checked(std::move(a), t);
      }
      default:
        return std::nullopt;
    }
  }

 private:
  static Linear element(int64_t k, ir::ElementType t) {
    Linear l;
    l.element = k;
    l.checks.emplace_back(t, 0);
    return l;
  }
  // The value as computed in type t: a constant must fit it; a counter expression is
  // checked once its range is known.
  static std::optional<Linear> checked(std::optional<Linear> l, ir::ElementType t) {
    if (!l) return std::nullopt;
    if (!l->element) return fits(l->offset, t) ? l : std::nullopt;
    l->checks.emplace_back(t, l->offset);
    return l;
  }

  const ir::Module& m_;
  InstrId state_;
};

// Element k of a computation's root (the root itself for a scalar state).
std::optional<InstrId> root_element(const ir::Module& m, InstrId root, int64_t k) {
  if (k == kWholeState) return root;
  if (m.opcode(root) != Opcode::kTuple || k < 0 || k >= static_cast<int64_t>(m.operands(root).size()))
    return std::nullopt;
  return m.operand(root, static_cast<size_t>(k));
}

struct CountedLoop {
  const ir::Module& m;
  InstrId init;
  InstrId cond_param, body_param, body_root;

  // The constant a state element starts with.
  std::optional<Wide> initial(int64_t k) const {
    const auto e = root_element(m, init, k);
    if (!e) return std::nullopt;
    const auto l = LinearReader(m, ir::kNoId).read(*e);
    if (!l || l->element) return std::nullopt;
    return l->offset;
  }
  // The body adds this constant to element k on every iteration.
  std::optional<Linear> step(int64_t k) const {
    const auto e = root_element(m, body_root, k);
    if (!e) return std::nullopt;
    auto l = LinearReader(m, body_param).read(*e);
    if (!l || l->element != k) return std::nullopt;
    return l;
  }
  // A limit carried in the state: an element the body passes through unchanged.
  std::optional<Linear> as_constant(const Linear& l) const {
    if (!l.element) return l;
    const auto s = step(*l.element);
    const auto v = initial(*l.element);
    if (!s || s->offset != 0 || !v) return std::nullopt;
    for (const auto& [t, off] : s->checks)  // passed through unchanged, not wrapped
      if (!fits(*v + off, t)) return std::nullopt;
    Linear c;
    c.offset = *v + l.offset;
    for (const auto& [t, off] : l.checks)
      if (!fits(*v + off, t)) return std::nullopt;
    return c;
  }
};

ir::ComparisonDirection mirrored(ir::ComparisonDirection d) {
  using D = ir::ComparisonDirection;
  switch (d) {
    case D::kLt: return D::kGt;
    case D::kLe: return D::kGe;
    case D::kGt: return D::kLt;
    case D::kGe: return D::kLe;
    default: return d;
  }
}

Wide ceil_div_positive(Wide a, Wide b) { return a <= 0 ? 0 : (a + b - 1) / b; }

// Iterations of `x = x0; while (x DIR n) x += step`, if it ends without wrapping.
std::optional<Wide> iterations(ir::ComparisonDirection dir, Wide x0, Wide n, Wide step) {
  using D = ir::ComparisonDirection;
  const auto holds = [&](Wide x) {
    switch (dir) {
      case D::kEq: return x == n;
      case D::kNe: return x != n;
      case D::kLt: return x < n;
      case D::kLe: return x <= n;
      case D::kGt: return x > n;
      case D::kGe: return x >= n;
    }
    return false;
  };
  if (!holds(x0)) return 0;
  if (step == 0) return std::nullopt;  // runs forever
  switch (dir) {
    case D::kEq: return 1;
    case D::kNe: {
      const Wide d = n - x0;
      if (d % step != 0 || d / step <= 0) return std::nullopt;  // steps over the limit
      return d / step;
    }
    case D::kLt: return step > 0 ? std::optional<Wide>(ceil_div_positive(n - x0, step)) : std::nullopt;
    case D::kLe: return step > 0 ? std::optional<Wide>((n - x0) / step + 1) : std::nullopt;
    case D::kGt: return step < 0 ? std::optional<Wide>(ceil_div_positive(x0 - n, -step)) : std::nullopt;
    case D::kGe: return step < 0 ? std::optional<Wide>((x0 - n) / -step + 1) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> counted_loop_trips(const ir::Module& m, InstrId w) {
  const auto& called = m.called(w);
  if (called.size() != 2 || m.operands(w).size() != 1) return std::nullopt;
  const ir::Computation& c = m.computation(called[0]);
  const ir::Computation& b = m.computation(called[1]);
  if (c.params.size() != 1 || c.params[0] == ir::kNoId || c.root == ir::kNoId || b.params.size() != 1 ||
      b.params[0] == ir::kNoId || b.root == ir::kNoId || m.opcode(c.root) != Opcode::kCompare ||
      !m.attrs(c.root).direction)
    return std::nullopt;
  const CountedLoop loop{m, m.operand(w, 0), c.params[0], b.params[0], b.root};
  const LinearReader cond(m, c.params[0]);
  auto lhs = cond.read(m.operand(c.root, 0)), rhs = cond.read(m.operand(c.root, 1));
  if (!lhs || !rhs) return std::nullopt;
  ir::ComparisonDirection dir = *m.attrs(c.root).direction;
  // The counter is the side whose element the body steps; the other side is constant.
  auto is_counter = [&](const Linear& l) {
    if (!l.element) return false;
    const auto s = loop.step(*l.element);
    return s && s->offset != 0;
  };
  if (!is_counter(*lhs)) {
    std::swap(lhs, rhs);
    dir = mirrored(dir);
  }
  if (!is_counter(*lhs)) return std::nullopt;
  const auto limit = loop.as_constant(*rhs);
  if (!limit) return std::nullopt;
  const int64_t k = *lhs->element;
  const auto step = loop.step(k);
  const auto start = loop.initial(k);
  if (!start) return std::nullopt;
  const auto trips = iterations(dir, *start + lhs->offset, limit->offset, step->offset);
  if (!trips || *trips > INT64_MAX / 2) return std::nullopt;
  // The counter runs monotonically from start to start + trips * step (the value the
  // last iteration computes): every expression on it must fit its type at both ends.
  const Wide last = *start + *trips * step->offset;
  for (const auto& [t, off] : lhs->checks)  // the condition sees start .. last
    if (!fits(*start + off, t) || !fits(last + off, t)) return std::nullopt;
  if (*trips > 0)  // the body sees start .. last - step
    for (const auto& [t, off] : step->checks)
      if (!fits(*start + off, t) || !fits(last - step->offset + off, t)) return std::nullopt;
  return static_cast<int64_t>(*trips);
}

}  // namespace

std::optional<int64_t> while_trip_count(const ir::Module& m, InstrId w) {
  if (const auto* bc = m.attrs(w).find_opaque("backend_config"))
    if (auto n = number_after(bc->value, "known_trip_count")) return *n;
  return counted_loop_trips(m, w);
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
