#include "ir/module.h"

#include <algorithm>
#include <cassert>
#include <charconv>

namespace hlsgym::ir {

Module Module::clone() const {
  Module m = *this;
  m.compact();
  return m;
}

std::vector<CompId> Module::live_computations() const {
  std::vector<CompId> out;
  for (CompId c = 0; c < comps_.size(); ++c)
    if (!comps_[c].dead) out.push_back(c);
  return out;
}

CompId Module::add_computation(std::string name) {
  note_name(name);
  Computation c;
  c.name = std::move(name);
  comps_.push_back(std::move(c));
  return static_cast<CompId>(comps_.size() - 1);
}

void Module::remove_computation(CompId c) {
  Computation& comp = comps_[c];
  for (InstrId i : comp.order) {
    if (instrs_[i].dead) continue;
    instrs_[i].dead = true;
    --live_instrs_;
  }
  comp.dead = true;
  comp.order.clear();
  comp.params.clear();
  comp.root = kNoId;
}

CompId Module::find_computation(std::string_view name) const {
  for (CompId c = 0; c < comps_.size(); ++c)
    if (!comps_[c].dead && comps_[c].name == name) return c;
  return kNoId;
}

std::vector<CompId> Module::computation_post_order() const {
  std::vector<CompId> out;
  if (entry_ == kNoId) return out;
  std::vector<uint8_t> state(comps_.size(), 0);  // 0 new, 1 open, 2 done
  // Iterative DFS over the call graph; a stack entry is (computation, next callee index).
  std::vector<std::pair<CompId, std::vector<CompId>>> stack;
  // Callees in the order the printer lists instructions (post order), so the order of
  // computations is the same for a module and for the re-parse of its printed text.
  auto callees = [&](CompId c) {
    std::vector<CompId> cs;
    for (InstrId i : post_order(c))
      for (CompId k : instrs_[i].payload->called) cs.push_back(k);
    std::reverse(cs.begin(), cs.end());  // popped from the back: visit in instruction order
    return cs;
  };
  stack.emplace_back(entry_, callees(entry_));
  state[entry_] = 1;
  while (!stack.empty()) {
    auto& [c, pending] = stack.back();
    if (pending.empty()) {
      state[c] = 2;
      out.push_back(c);
      stack.pop_back();
      continue;
    }
    CompId next = pending.back();
    pending.pop_back();
    if (next < comps_.size() && state[next] == 0 && !comps_[next].dead) {
      state[next] = 1;
      stack.emplace_back(next, callees(next));
    }
  }
  return out;
}

std::vector<InstrId> Module::instructions(CompId c) const {
  std::vector<InstrId> out;
  out.reserve(comps_[c].order.size());
  for (InstrId i : comps_[c].order)
    if (!instrs_[i].dead) out.push_back(i);
  return out;
}

size_t Module::instruction_count(CompId c) const {
  size_t n = 0;
  for (InstrId i : comps_[c].order) n += !instrs_[i].dead;
  return n;
}

std::vector<InstrId> Module::post_order(CompId c) const {
  const Computation& comp = comps_[c];
  std::vector<InstrId> out;
  out.reserve(comp.order.size());
  // Visited marks indexed by position in the arena, in a per-thread buffer that only grows:
  // a fresh module-sized buffer per call made walking every computation of a module with
  // thousands of computations quadratic. Only this computation's ids are marked, and they
  // are cleared again (they are exactly `out`) before returning.
  thread_local std::vector<uint8_t> state;
  thread_local std::vector<std::pair<InstrId, uint32_t>> stack;
  if (state.size() < instrs_.size()) state.resize(instrs_.size(), 0);
  stack.clear();
  auto visit = [&](InstrId start) {
    if (state[start]) return;
    stack.emplace_back(start, 0);
    state[start] = 1;
    while (!stack.empty()) {
      auto& [id, k] = stack.back();
      auto ops = operands(id);
      if (k < ops.size()) {
        InstrId next = ops[k++];
        if (!state[next]) {
          state[next] = 1;
          stack.emplace_back(next, 0);
        }
        continue;
      }
      state[id] = 2;
      out.push_back(id);
      stack.pop_back();
    }
  };
  for (InstrId p : comp.params)
    if (p != kNoId && !instrs_[p].dead) visit(p);
  if (comp.root != kNoId) visit(comp.root);
  for (InstrId i : comp.order)
    if (!instrs_[i].dead) visit(i);
  for (InstrId i : out) state[i] = 0;
  return out;
}

InstrId Module::add_instruction(CompId c, Opcode op, Shape shape,
                                std::span<const InstrId> operands, Attributes attrs,
                                std::string name) {
  auto payload = std::make_shared<InstrPayload>();
  if (name.empty()) name = unique_name(ir::name(op));
  else note_name(name);
  payload->name = std::move(name);
  payload->shape = std::move(shape);
  payload->attrs = std::move(attrs);
  return append(c, op, std::move(payload), operands);
}

InstrId Module::append(CompId c, Opcode op, std::shared_ptr<const InstrPayload> payload,
                       std::span<const InstrId> operands) {
  Instruction ins;
  ins.opcode = op;
  ins.computation = c;
  ins.operands = pool_.make(operands);
  ins.payload = std::move(payload);
  const InstrId id = static_cast<InstrId>(instrs_.size());
  instrs_.push_back(std::move(ins));
  comps_[c].order.push_back(id);
  ++live_instrs_;
  link_operands(id);
  const int64_t number = instrs_[id].payload->attrs.parameter_number;
  if (op == Opcode::kParameter && number >= 0) {
    auto& params = comps_[c].params;
    if (params.size() <= static_cast<size_t>(number)) params.resize(number + 1, kNoId);
    params[number] = id;
  }
  return id;
}

InstrId Module::add_clone(CompId c, InstrId source, std::span<const InstrId> operands) {
  auto payload = std::make_shared<InstrPayload>(*instrs_[source].payload);
  std::string_view base = payload->name;
  if (size_t dot = base.rfind('.'); dot != std::string_view::npos &&
      base.find_first_not_of("0123456789", dot + 1) == std::string_view::npos)
    base = base.substr(0, dot);
  payload->name = unique_name(base.empty() ? ir::name(instrs_[source].opcode) : base);
  payload->content_hash.set(instrs_[source].payload->content_hash.get());  // the name is not part of it
  if (ShapeSizes sizes; instrs_[source].payload->sizes.get(sizes)) payload->sizes.set(sizes);  // same shape
  return append(c, instrs_[source].opcode, std::move(payload), operands);
}

InstrId Module::add_constant(CompId c, Literal value, std::string name) {
  Shape shape = value.shape();
  InstrId id = add_instruction(c, Opcode::kConstant, std::move(shape), {}, {}, std::move(name));
  mutable_payload(id).literal = std::make_shared<const Literal>(std::move(value));
  return id;
}

InstrId Module::add_parameter(CompId c, int64_t number, Shape shape, std::string name) {
  Attributes a;
  a.parameter_number = number;
  return add_instruction(c, Opcode::kParameter, std::move(shape), {}, std::move(a),
                         std::move(name));
}

void Module::link_operands(InstrId i) {
  // push_back may grow the pool, so operands are re-read by index, never via a held span.
  // `i` is in no operand's user list here (new, or just unlinked), so the only way it can
  // be there already is an operand named twice, and then it was the last one pushed:
  // checking the back keeps this O(operands) where a search of the list made 10^6 users
  // of one constant quadratic.
  const IdSpan ops = instrs_[i].operands;
  for (uint32_t k = 0; k < ops.size; ++k) {
    const InstrId op = pool_.get(ops)[k];
    auto us = pool_.get(instrs_[op].users);
    if (us.empty() || us.back() != i) pool_.push_back(instrs_[op].users, i);
  }
}

void Module::unlink_operands(InstrId i) {
  // Each distinct operand once: a second erase of `i` from a list it already left would
  // scan that whole list for nothing (add(p, p) with 10^5 users of p was quadratic).
  auto ops = pool_.get(instrs_[i].operands);
  std::vector<InstrId> distinct(ops.begin(), ops.end());
  if (distinct.size() > 1) {
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  }
  for (InstrId op : distinct) pool_.erase(instrs_[op].users, i);
}

void Module::set_operand(InstrId i, size_t k, InstrId new_operand) {
  unlink_operands(i);
  pool_.get_mut(instrs_[i].operands)[k] = new_operand;
  link_operands(i);
}

void Module::set_operands(InstrId i, std::span<const InstrId> new_operands) {
  unlink_operands(i);
  // The new list may alias pool storage that assign() could move; copy it first.
  std::vector<InstrId> copy(new_operands.begin(), new_operands.end());
  pool_.assign(instrs_[i].operands, copy);
  link_operands(i);
}

void Module::replace_all_uses(InstrId from, InstrId to) {
  if (from == to) return;
  // Only the edges into `from` change: rewriting each user's operand list in place and
  // moving the user to `to`'s list keeps this O(users) instead of relinking every
  // operand of every user (hubs such as shared parameters made that quadratic).
  std::vector<InstrId> us(users(from).begin(), users(from).end());
  for (InstrId u : us) {
    // u already uses `to` exactly when `to` is among its operands: looking there is
    // O(operands of u), looking in to's user list would be O(users of to).
    bool already = false;
    for (InstrId& op : pool_.get_mut(instrs_[u].operands)) {
      already |= op == to;
      if (op == from) op = to;
    }
    if (!already) pool_.push_back(instrs_[to].users, u);
  }
  instrs_[from].users.size = 0;
  Computation& comp = comps_[instrs_[from].computation];
  if (comp.root == from) comp.root = to;
}

void Module::remove_instruction(InstrId i) {
  assert(users(i).empty() && "remove_instruction: instruction still has users");
  Instruction& ins = instrs_[i];
  if (ins.dead) return;
  unlink_operands(i);
  ins.dead = true;
  ins.operands = {};
  --live_instrs_;
  Computation& comp = comps_[ins.computation];
  if (comp.root == i) comp.root = kNoId;
  if (ins.opcode == Opcode::kParameter) {
    for (InstrId& p : comp.params)
      if (p == i) p = kNoId;
  }
}

InstrPayload& Module::mutable_payload(InstrId i) {
  auto& p = instrs_[i].payload;
  if (p.use_count() > 1) p = std::make_shared<const InstrPayload>(*p);
  auto& editable = const_cast<InstrPayload&>(*p);
  editable.content_hash.reset();  // the caller may change what they cover
  editable.sizes.reset();
  return editable;
}

std::string Module::unique_name(std::string_view prefix) {
  std::string n(prefix);
  n += '.';
  n += std::to_string(next_name_id_++);
  return n;
}

void Module::note_name(std::string_view name) {
  // Generated names are "<prefix>.<n>"; keep n above every trailing number seen.
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= name.size()) return;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(name.data() + dot + 1, name.data() + name.size(), v);
  if (ec == std::errc() && p == name.data() + name.size() && v >= next_name_id_)
    next_name_id_ = v + 1;
}

void Module::compact() {
  for (Computation& c : comps_) {
    std::erase_if(c.order, [&](InstrId i) { return instrs_[i].dead; });
  }
  if (pool_.storage_size() <= 2 * (live_instrs_ * 4 + 16)) return;
  IdPool packed;
  packed.reserve(pool_.storage_size() / 2);
  for (Instruction& ins : instrs_) {
    if (ins.dead) {
      ins.operands = ins.users = {};
      continue;
    }
    ins.operands = packed.make(pool_.get(ins.operands));
    ins.users = packed.make(pool_.get(ins.users));
  }
  pool_ = std::move(packed);
}

}  // namespace hlsgym::ir
