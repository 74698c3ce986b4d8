// Static facts the lowering reads from the IR: while trip counts and per-op lanes.
#include <cctype>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "hwmodel/lowering.h"
#include "ir/frontend_attributes.h"

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

// A state element's value when the loop never changes it (and it starts as a constant).
using InvariantLookup = std::function<std::optional<Wide>(int64_t element)>;

class LinearReader {
 public:
  // `state`: the parameter of the loop computation (kNoId in the caller). `invariant`,
  // when given, turns loop-invariant state elements into their constant value.
  LinearReader(const ir::Module& m, InstrId state, const InvariantLookup* invariant = nullptr)
      : m_(m), state_(state), invariant_(invariant) {}

  // Inside a fusion or call (the HLS `fusion` pass wraps loop arithmetic in them): its
  // parameters are the operands of `call`, read in the caller's binding `outer`.
  struct Binding {
    InstrId call;
    const Binding* outer;
  };

  std::optional<Linear> read(InstrId i, int depth = 0, const Binding* in = nullptr) const {
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
      case Opcode::kParameter: {
        if (in) {
          const int64_t k = m_.attrs(i).parameter_number;
          if (k < 0 || k >= static_cast<int64_t>(m_.operands(in->call).size())) return std::nullopt;
          return read(m_.operand(in->call, static_cast<size_t>(k)), depth + 1, in->outer);
        }
        if (i != state_ || state_ == ir::kNoId) return std::nullopt;
        return element(kWholeState, t);
      }
      case Opcode::kFusion:
      case Opcode::kCall: {
        if (m_.called(i).size() != 1) return std::nullopt;
        const Binding inner{i, in};
        return read(m_.computation(m_.called(i)[0]).root, depth + 1, &inner);
      }
      case Opcode::kGetTupleElement: {
        const InstrId from = m_.operand(i, 0);
        const int64_t k = m_.attrs(i).tuple_index;
        if (from == state_ && state_ != ir::kNoId && !in) {
          if (invariant_)
            if (const auto v = (*invariant_)(k)) {
              Linear c;
              c.offset = *v;
              return checked(c, t);
            }
          return element(k, t);
        }
        if (m_.opcode(from) == Opcode::kTuple && k >= 0 && k < static_cast<int64_t>(m_.operands(from).size()))
          return read(m_.operand(from, static_cast<size_t>(k)), depth + 1, in);
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
        return checked(read(from, depth + 1, in), t);
      }
      case Opcode::kAdd:
      case Opcode::kSubtract: {
        auto a = read(m_.operand(i, 0), depth + 1, in);
        auto b = read(m_.operand(i, 1), depth + 1, in);
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
    // Integers wrap at their width, so `i + c` equals `i + (c mod 2^w)` for any
    // representative; take the one nearest 0 (algsimp writes u8 `i - 2` as `i + 254`).
    // The range checks then prove that no value wraps with it.
    const int bits = ir::bit_width(t);
    if (bits <= 0 || bits > 64) return std::nullopt;
    const Wide mod = Wide(1) << bits;
    l->offset = ((l->offset % mod) + mod) % mod;
    if (l->offset >= mod / 2) l->offset -= mod;
    l->checks.emplace_back(t, l->offset);
    return l;
  }

  const ir::Module& m_;
  InstrId state_;
  const InvariantLookup* invariant_;
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
  // The body adds this constant to element k on every iteration (other elements the
  // body never changes read as their constants when `invariant` is given).
  std::optional<Linear> step(int64_t k, const InvariantLookup* invariant = nullptr) const {
    const auto e = root_element(m, body_root, k);
    if (!e) return std::nullopt;
    auto l = LinearReader(m, body_param, invariant).read(*e);
    if (!l || l->element != k) return std::nullopt;
    return l;
  }
  // An element the body passes through unchanged, starting as a constant: its value
  // (a limit or an offset carried in the state, e.g. after loop-invariant code motion).
  std::optional<Wide> invariant(int64_t k) const {
    const auto s = step(k);
    const auto v = initial(k);
    if (!s || s->offset != 0 || !v) return std::nullopt;
    for (const auto& [t, off] : s->checks)  // passed through unchanged, not wrapped
      if (!fits(*v + off, t)) return std::nullopt;
    return v;
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
      b.params[0] == ir::kNoId || b.root == ir::kNoId)
    return std::nullopt;
  // The compare: the condition's root, or the root of the fusion/call that is its root.
  InstrId compare = c.root;
  std::optional<LinearReader::Binding> fused;
  if ((m.opcode(c.root) == Opcode::kFusion || m.opcode(c.root) == Opcode::kCall) && m.called(c.root).size() == 1) {
    compare = m.computation(m.called(c.root)[0]).root;
    fused = LinearReader::Binding{c.root, nullptr};
  }
  if (compare == ir::kNoId || m.opcode(compare) != Opcode::kCompare || !m.attrs(compare).direction)
    return std::nullopt;
  const CountedLoop loop{m, m.operand(w, 0), c.params[0], b.params[0], b.root};
  const InvariantLookup invariant = [&loop](int64_t k) { return loop.invariant(k); };
  const LinearReader cond(m, c.params[0], &invariant);
  const LinearReader::Binding* in = fused ? &*fused : nullptr;
  auto lhs = cond.read(m.operand(compare, 0), 0, in), rhs = cond.read(m.operand(compare, 1), 0, in);
  if (!lhs || !rhs) return std::nullopt;
  ir::ComparisonDirection dir = *m.attrs(compare).direction;
  // The counter is the side whose element the body steps; the other side is constant.
  auto is_counter = [&](const Linear& l) {
    if (!l.element) return false;
    const auto s = loop.step(*l.element, &invariant);
    return s && s->offset != 0;
  };
  if (!is_counter(*lhs)) {
    std::swap(lhs, rhs);
    dir = mirrored(dir);
  }
  if (!is_counter(*lhs) || rhs->element) return std::nullopt;  // the other side must be constant
  const Linear* limit = &*rhs;
  const int64_t k = *lhs->element;
  const auto step = loop.step(k, &invariant);
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

std::optional<int> lanes_attribute(const ir::Module& m, InstrId i) { return ir::lanes_hint(m, i); }

}  // namespace hlsgym::hwmodel
