// The generator's structural patterns: data movement and its chains, reductions, dots,
// dynamic slicing, counted while loops, calls, and the root.
#include "ir/random_module_generator.h"
#include "ir/verifier_ops.h"

namespace hlsgym::ir::random_detail {

InstrId Generator::broadcast_to_rank_plus_one(InstrId v) {
  const Shape& s = m_.shape(v);
  const int64_t at = rng_.below(s.rank() + 1);
  std::vector<int64_t> out = s.dims(), map;
  out.insert(out.begin() + at, 1 + rng_.below(o_.max_dim));
  for (int64_t d = 0; d < s.rank(); ++d) map.push_back(d < at ? d : d + 1);
  Attributes a;
  a.dimensions = map;
  return emit_shaped(Opcode::kBroadcast, {v}, Shape(s.element_type(), out), a);
}

InstrId Generator::reshape_randomly(InstrId v) {
  const Shape& s = m_.shape(v);
  std::vector<int64_t> out;
  const int64_t r = rng_.below(3);
  if (r == 0) out = {s.element_count()};                   // flatten
  else if (r == 1) { out = s.dims(); out.insert(out.begin() + rng_.below(s.rank() + 1), 1); }  // add a 1
  else for (int64_t d : s.dims()) if (d != 1) out.push_back(d);                               // drop 1s
  return emit_shaped(Opcode::kReshape, {v}, Shape(s.element_type(), out), {});
}

InstrId Generator::transpose_randomly(InstrId v) {
  Attributes a;
  a.dimensions.resize(static_cast<size_t>(m_.shape(v).rank()));
  std::iota(a.dimensions.begin(), a.dimensions.end(), 0);
  for (size_t k = a.dimensions.size(); k > 1; --k)
    std::swap(a.dimensions[k - 1], a.dimensions[static_cast<size_t>(rng_.below(static_cast<int64_t>(k)))]);
  return emit(Opcode::kTranspose, {v}, a);
}

InstrId Generator::slice_randomly(InstrId v) {
  Attributes a;
  for (int64_t d : m_.shape(v).dims()) {
    SliceDim sd;
    sd.start = rng_.below(d);
    sd.limit = sd.start + 1 + rng_.below(d - sd.start);
    sd.stride = rng_.chance(20) ? 2 : 1;
    a.slice.push_back(sd);
  }
  return emit(Opcode::kSlice, {v}, a);
}

void Generator::movement() {
  InstrId v = any_value();
  const Shape s(m_.shape(v).element_type(), m_.shape(v).dims());
  const int64_t r = rng_.below(8);
  if (r == 0 && s.rank() < o_.max_rank) { broadcast_to_rank_plus_one(v); return; }
  if (r == 1 && s.rank() > 0) { reshape_randomly(v); return; }
  if (r == 2 && s.rank() > 1) { transpose_randomly(v); return; }
  if (r == 3 && s.rank() > 0) { slice_randomly(v); return; }
  if (r == 4 && s.rank() > 0) {
    Attributes a;
    a.dimensions = {rng_.below(s.rank())};
    emit(Opcode::kConcatenate, {v, value_like(s)}, a);
    return;
  }
  if (r == 5 && s.rank() > 0) {
    Attributes a;
    for (int64_t d = 0; d < s.rank(); ++d)
      a.padding.push_back({rng_.below(3) - (rng_.chance(15) ? 1 : 0), rng_.below(2), rng_.chance(20) ? 1 : 0});
    for (size_t d = 0; d < a.padding.size(); ++d)  // keep every padded dim non-empty
      if (s.dim(static_cast<int64_t>(d)) + a.padding[d].low + a.padding[d].high <= 0) a.padding[d].low = 0;
    emit(Opcode::kPad, {v, scalar_constant(s.element_type(), small_value())}, a);
    return;
  }
  if (r == 6 && s.rank() > 0) {
    Attributes a;
    a.dimensions = {rng_.below(s.rank())};
    emit(Opcode::kReverse, {v}, a);
    return;
  }
  Attributes a;  // an iota of a random shape, added to something of its shape
  Shape is = random_shape(rng_.pick(types_));
  if (is.rank() == 0) is = Shape(is.element_type(), {4});
  a.iota_dimension = rng_.below(is.rank());
  InstrId iota = emit_shaped(Opcode::kIota, {}, is, a);
  emit(Opcode::kAdd, {iota, value_like(is)});
}

// Chains the simplifiers collapse: movement of movement, adjacent slices re-joined.
void Generator::movement_chain() {
  InstrId v = any_value();
  const Shape& s = m_.shape(v);
  const int64_t r = rng_.below(5);
  if (r == 0 && s.rank() > 0) { reshape_randomly(reshape_randomly(v)); return; }
  if (r == 1 && s.rank() > 1) { transpose_randomly(transpose_randomly(v)); return; }
  if (r == 2 && s.rank() + 2 <= o_.max_rank + 1) { broadcast_to_rank_plus_one(broadcast_to_rank_plus_one(v)); return; }
  if (r == 3 && s.rank() > 0 && s.dim(0) >= 2) {  // concat(slice(v,[0:k]), slice(v,[k:n]))
    const int64_t k = 1 + rng_.below(s.dim(0) - 1);
    Attributes lo, hi, cat;
    for (int64_t d = 0; d < s.rank(); ++d) {
      lo.slice.push_back({0, d == 0 ? k : s.dim(d), 1});
      hi.slice.push_back({d == 0 ? k : 0, s.dim(d), 1});
    }
    cat.dimensions = {0};
    emit(Opcode::kConcatenate, {emit(Opcode::kSlice, {v}, lo), emit(Opcode::kSlice, {v}, hi)}, cat);
    return;
  }
  if (s.rank() > 0) slice_randomly(slice_randomly(v));
}

CompId Generator::scalar_computation(Opcode op, E t) {
  const std::string name = std::string(ir::name(op)) + "_" + std::string(element_type_name(t));
  auto it = scalar_comps_.find(name);
  if (it != scalar_comps_.end()) return it->second;
  CompId c = m_.add_computation(name);
  InstrId a = m_.add_parameter(c, 0, Shape::scalar(t), "lhs");
  InstrId b = m_.add_parameter(c, 1, Shape::scalar(t), "rhs");
  m_.set_root(c, emit(op, {a, b}, {}, {}, c));
  scalar_comps_.emplace(name, c);
  return c;
}

void Generator::reduce() {
  InstrId v = any_value();
  const Shape& s = m_.shape(v);
  const E t = s.element_type();
  if (s.rank() == 0 || t == E::kPred) { elementwise_unary(); return; }
  std::vector<Opcode> ops{Opcode::kAdd, Opcode::kMaximum, Opcode::kMinimum, Opcode::kMultiply};
  const Opcode op = rng_.pick(ops);
  const int64_t identity = op == Opcode::kMultiply ? 1 : op == Opcode::kAdd ? 0 : (rng_.chance(50) ? -100 : 100);
  InstrId init = scalar_constant(t, rng_.chance(80) ? identity : small_value());
  CompId comp = scalar_computation(op, t);
  if (rng_.chance(25)) {  // reduce-window with a small window
    Attributes a;
    a.window.emplace();
    for (int64_t d : s.dims()) {
      WindowDim w;
      w.size = std::min<int64_t>(d, 1 + rng_.below(2));
      w.stride = 1 + rng_.below(2);
      a.window->push_back(w);
    }
    emit(Opcode::kReduceWindow, {v, init}, a, {comp});
    return;
  }
  Attributes a;
  if (rng_.chance(10)) {  // a reduction longer than 32 (tree_reduction_rewriter's pattern)
    const int64_t n = s.element_count();
    const int64_t k = 32 / std::max<int64_t>(n, 1) + 2;
    const InstrId flat = emit_shaped(Opcode::kReshape, {v}, Shape(t, {n}), {});
    Attributes b;
    b.dimensions = {1};
    const InstrId tiled = emit_shaped(Opcode::kBroadcast, {flat}, Shape(t, {k, n}), b);
    const InstrId longer = emit_shaped(Opcode::kReshape, {tiled}, Shape(t, {k * n}), {});
    a.dimensions = {0};
    emit(Opcode::kReduce, {longer, init}, a, {comp});
    return;
  }
  for (int64_t d = 0; d < s.rank(); ++d)
    if (rng_.chance(50)) a.dimensions.push_back(d);
  if (a.dimensions.empty()) a.dimensions.push_back(rng_.below(s.rank()));
  emit(Opcode::kReduce, {v, init}, a, {comp});
}

void Generator::dot() {
  InstrId a = any_value();
  if (m_.shape(a).element_type() == E::kPred) a = convert(a, rng_.pick(types_));
  const Shape& s = m_.shape(a);
  const E t = s.element_type();
  Attributes at;
  at.dot_dims.emplace();
  DotDims& dd = *at.dot_dims;
  const int64_t n = 1 + rng_.below(o_.max_dim);
  InstrId b;
  if (s.rank() == 0) { elementwise_binary(); return; }
  if (s.rank() == 1) {  // vector . vector or vector . matrix
    dd.lhs_contracting = {0};
    dd.rhs_contracting = {0};
    b = value_like(rng_.chance(50) ? Shape(t, {s.dim(0)}) : Shape(t, {s.dim(0), n}));
  } else if (s.rank() == 2) {  // matrix . matrix, sometimes with a transposed operand
    dd.lhs_contracting = {1};
    dd.rhs_contracting = {0};
    b = value_like(Shape(t, {s.dim(1), n}));
    if (rng_.chance(30)) {
      Attributes tr;
      tr.dimensions = {1, 0};
      b = emit(Opcode::kTranspose, {value_like(Shape(t, {n, s.dim(1)}))}, tr);
    }
  } else {  // batched: [b, m, k, ...] . [b, k, n]
    dd.lhs_batch = {0};
    dd.rhs_batch = {0};
    dd.lhs_contracting = {2};
    dd.rhs_contracting = {1};
    if (s.rank() > 3) { elementwise_binary(); return; }
    b = value_like(Shape(t, {s.dim(0), s.dim(2), n}));
  }
  emit(Opcode::kDot, {a, b}, at);
}

void Generator::dynamic_slicing() {
  if (rng_.chance(30)) { gather(); return; }
  InstrId v = any_value();
  const Shape s(m_.shape(v).element_type(), m_.shape(v).dims());
  if (s.rank() == 0) { elementwise_binary(); return; }
  std::vector<InstrId> idx;
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < s.rank(); ++d) {
    sizes.push_back(1 + rng_.below(s.dim(d)));
    idx.push_back(rng_.chance(60) ? scalar_constant(E::kS32, rng_.below(s.dim(d) + 2) - 1)
                                  : value_like(Shape::scalar(E::kS32)));
  }
  Attributes a;
  a.dynamic_slice_sizes = sizes;
  std::vector<InstrId> ops{v};
  if (rng_.chance(50)) {
    ops.insert(ops.end(), idx.begin(), idx.end());
    emit(Opcode::kDynamicSlice, ops, a);
  } else {
    ops.push_back(value_like(Shape(s.element_type(), sizes)));
    ops.insert(ops.end(), idx.begin(), idx.end());
    emit(Opcode::kDynamicUpdateSlice, ops);
  }
}

// A gather of B windows at run-time positions (s32 start indices, often out of range: the
// windows clamp), K of the operand's dimensions indexed, indexed size-1 dimensions often
// collapsed, the batch dimension anywhere in the output.
void Generator::gather() {
  InstrId v = any_value();
  const Shape s(m_.shape(v).element_type(), m_.shape(v).dims());
  if (s.rank() == 0) { elementwise_binary(); return; }
  GatherDims g;
  std::vector<int64_t> dims(static_cast<size_t>(s.rank()));
  std::iota(dims.begin(), dims.end(), 0);
  for (size_t k = dims.size(); k > 1; --k) std::swap(dims[k - 1], dims[static_cast<size_t>(rng_.below(static_cast<int64_t>(k)))]);
  g.start_index_map.assign(dims.begin(), dims.begin() + 1 + rng_.below(s.rank()));
  for (int64_t d = 0; d < s.rank(); ++d) g.slice_sizes.push_back(1 + rng_.below(s.dim(d)));
  for (int64_t d : g.start_index_map)
    if (rng_.chance(50) || (s.rank() >= o_.max_rank && g.collapsed_slice_dims.empty())) {
      g.slice_sizes[static_cast<size_t>(d)] = 1;
      g.collapsed_slice_dims.push_back(d);
    }
  std::sort(g.collapsed_slice_dims.begin(), g.collapsed_slice_dims.end());
  const int64_t out_rank = 1 + s.rank() - static_cast<int64_t>(g.collapsed_slice_dims.size());
  const int64_t batch_at = rng_.below(out_rank);
  for (int64_t d = 0; d < out_rank; ++d)
    if (d != batch_at) g.offset_dims.push_back(d);
  const int64_t k = static_cast<int64_t>(g.start_index_map.size()), batch = 1 + rng_.below(o_.max_dim);
  g.index_vector_dim = 1;
  InstrId idx = value_like(Shape(E::kS32, {batch, k}));
  const Shape out = infer_gather_shape(s, m_.shape(idx), g);
  Attributes a;
  a.gather_dims = g;
  emit_shaped(Opcode::kGather, {v, idx}, out, a);
}

// for (i = 0; i < trip; ++i) acc = acc + x * 2 (x loop-invariant; an unused state element
// sometimes rides along), then the accumulator leaves the loop.
void Generator::while_loop() {
  InstrId x = any_value();
  if (m_.shape(x).element_type() == E::kPred) x = convert(x, rng_.pick(types_));
  const Shape vs(m_.shape(x).element_type(), m_.shape(x).dims());
  const E t = vs.element_type();
  const bool extra = rng_.chance(40);
  std::vector<Shape> elems{Shape::scalar(E::kS32), vs, vs};
  if (extra) elems.push_back(vs);
  const Shape state = Shape::tuple(elems);
  const int n = loops_++;
  CompId cond = m_.add_computation("cond." + std::to_string(n));
  CompId body = m_.add_computation("body." + std::to_string(n));
  {
    InstrId p = m_.add_parameter(cond, 0, state, "state");
    Attributes g, cmp;
    g.tuple_index = 0;
    cmp.direction = ComparisonDirection::kLt;
    InstrId i = emit(Opcode::kGetTupleElement, {p}, g, {}, cond);
    m_.set_root(cond, emit(Opcode::kCompare, {i, scalar_constant(E::kS32, rng_.below(5), cond)}, cmp, {}, cond));
  }
  {
    InstrId p = m_.add_parameter(body, 0, state, "state");
    std::vector<InstrId> g;
    for (int64_t k = 0; k < static_cast<int64_t>(elems.size()); ++k) {
      Attributes a;
      a.tuple_index = k;
      g.push_back(emit(Opcode::kGetTupleElement, {p}, a, {}, body));
    }
    InstrId i1 = emit(Opcode::kAdd, {g[0], scalar_constant(E::kS32, 1, body)}, {}, {}, body);
    InstrId two = scalar_constant(t, 2, body);
    if (vs.rank() > 0) {
      Attributes b;
      two = m_.add_instruction(body, Opcode::kBroadcast, vs, std::vector<InstrId>{two}, b);
    }
    InstrId inv = emit(Opcode::kMultiply, {g[2], two}, {}, {}, body);
    std::vector<InstrId> next{i1, emit(Opcode::kAdd, {g[1], inv}, {}, {}, body), g[2]};
    if (extra) next.push_back(emit(Opcode::kAdd, {g[3], g[2]}, {}, {}, body));
    m_.set_root(body, emit(Opcode::kTuple, next, {}, {}, body));
  }
  std::vector<InstrId> init{scalar_constant(E::kS32, 0), value_like(vs), x};
  if (extra) init.push_back(value_like(vs));
  InstrId w = emit(Opcode::kWhile, {emit(Opcode::kTuple, init)}, {}, {cond, body});
  Attributes g;
  g.tuple_index = 1;
  emit(Opcode::kGetTupleElement, {w}, g);
}

// A call of a small computation, sometimes from two sites (flatten-call-graph, inliner).
void Generator::call() {
  InstrId x = any_value();
  const Shape vs(m_.shape(x).element_type(), m_.shape(x).dims());
  if (vs.element_type() == E::kPred) { elementwise_binary(); return; }
  CompId c = m_.add_computation("callee." + std::to_string(calls_++));
  InstrId p = m_.add_parameter(c, 0, vs, "x");
  InstrId sq = emit(Opcode::kMultiply, {p, p}, {}, {}, c);
  m_.set_root(c, emit(Opcode::kAdd, {sq, p}, {}, {}, c));
  InstrId r = emit(Opcode::kCall, {x}, {}, {c});
  if (rng_.chance(40)) emit(Opcode::kCall, {r}, {}, {c});
}

// The root: a tuple of the most recent values nobody uses (or the last value).
void Generator::finish() {
  std::vector<InstrId> outs;
  for (auto it = values_.rbegin(); it != values_.rend() && static_cast<int>(outs.size()) < o_.outputs; ++it)
    if (m_.users(*it).empty() && m_.opcode(*it) != Opcode::kParameter && m_.opcode(*it) != Opcode::kConstant)
      outs.push_back(*it);
  if (outs.empty()) outs.push_back(values_.back());
  if (outs.size() == 1) m_.set_root(entry_, outs[0]);
  else m_.set_root(entry_, emit(Opcode::kTuple, outs));
}

}  // namespace hlsgym::ir::random_detail
