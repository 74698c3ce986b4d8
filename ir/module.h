// Module -> Computations -> Instructions, stored in one arena per module.
//
// Instructions are addressed by dense integer ids (InstrId) that stay valid for the
// module's lifetime; a removed instruction keeps its slot, marked dead. The hot,
// frequently edited part of an instruction (opcode, operand and user lists) lives in
// flat arrays; the rest (name, shape, attributes, literal, called computations) lives
// in an immutable payload shared between clones and copied only when one clone edits
// it. Cloning a module is therefore a few flat copies plus one reference count per
// instruction, which the RL environment relies on (it resets by cloning).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attributes.h"
#include "ir/id_pool.h"
#include "ir/literal.h"
#include "ir/opcode.h"
#include "ir/shape.h"

namespace hlsgym::ir {

using InstrId = uint32_t;
using CompId = uint32_t;
inline constexpr uint32_t kNoId = UINT32_MAX;

// A payload's content hash for ir::structural_hash (shape, attributes, literal), computed
// on first use: a payload is shared by every copy of a module and does not change while
// shared, so a module's hash costs the walk of its graph, not of every attribute again
// (issue 18: an RL step hashes each new state). A copied payload starts without one, and
// Module::mutable_payload drops it before handing the payload out for editing. Atomic:
// states are hashed on several threads (train --workers) and share payloads.
class PayloadHash {
 public:
  PayloadHash() = default;
  PayloadHash(const PayloadHash&) {}
  PayloadHash& operator=(const PayloadHash&) {
    reset();
    return *this;
  }
  uint64_t get() const { return value_.load(std::memory_order_relaxed); }  // 0: not computed
  void set(uint64_t v) const { value_.store(v, std::memory_order_relaxed); }
  void reset() { value_.store(0, std::memory_order_relaxed); }

 private:
  mutable std::atomic<uint64_t> value_{0};
};

// A payload's value sizes as ir::CostTable reads them, computed on first use like the
// content hash and shared the same way: the feature extraction of a new RL state reads the
// sizes of every payload a pass left alone here instead of walking its shape's dims again
// (a separate allocation, whose cache miss was most of the extraction's time, issue 18
// item 6). A copied payload starts without them and Module::mutable_payload drops them;
// Module::add_clone keeps them (same shape). Atomic fields: states share payloads across
// threads (train --workers); racing writers store equal values, and a reader sees them
// only after `known_` (release/acquire).
struct ShapeSizes {
  int64_t element_count = 0;  // Shape::element_count()
  int64_t byte_size = 0;      // Shape::byte_size()
  double elements = 0;        // elements, a tuple's summed over its elements
  double bytes = 0;           // ir::shape_bytes() with the default options
  bool array = false;         // Shape::is_array()
};

class PayloadSizes {
 public:
  PayloadSizes() = default;
  PayloadSizes(const PayloadSizes&) {}
  PayloadSizes& operator=(const PayloadSizes&) {
    reset();
    return *this;
  }
  // False (and `out` untouched) when not computed yet.
  bool get(ShapeSizes& out) const {
    if (!known_.load(std::memory_order_acquire)) return false;
    out.element_count = element_count_.load(std::memory_order_relaxed);
    out.byte_size = byte_size_.load(std::memory_order_relaxed);
    out.elements = elements_.load(std::memory_order_relaxed);
    out.bytes = bytes_.load(std::memory_order_relaxed);
    out.array = array_.load(std::memory_order_relaxed);
    return true;
  }
  void set(const ShapeSizes& s) const {
    element_count_.store(s.element_count, std::memory_order_relaxed);
    byte_size_.store(s.byte_size, std::memory_order_relaxed);
    elements_.store(s.elements, std::memory_order_relaxed);
    bytes_.store(s.bytes, std::memory_order_relaxed);
    array_.store(s.array, std::memory_order_relaxed);
    known_.store(true, std::memory_order_release);
  }
  void reset() { known_.store(false, std::memory_order_relaxed); }

 private:
  mutable std::atomic<int64_t> element_count_{0}, byte_size_{0};
  mutable std::atomic<double> elements_{0}, bytes_{0};
  mutable std::atomic<bool> array_{false}, known_{false};
};

struct InstrPayload {
  PayloadHash content_hash;  // first: the one field a state hash reads when it is known
  PayloadSizes sizes;        // next to it: the one field a new state's feature extraction reads
  std::string name;
  Shape shape;
  Attributes attrs;
  std::shared_ptr<const Literal> literal;  // constants only
  // Called computations, by opcode: while {condition, body}; conditional: branches in
  // order; fusion: {calls}; call/map/reduce/reduce-window/sort/scatter/all-reduce/...:
  // {to_apply}; select-and-scatter {select, scatter}; custom-call: called_computations.
  std::vector<CompId> called;
  int32_t line = 0;  // 1-based source line it was read from; 0 when created by a pass
  int32_t column = 0;  // 1-based column of its name on that line; 0 when unknown
};

struct Instruction {
  Opcode opcode{};
  bool dead = false;
  CompId computation = kNoId;
  IdSpan operands, users;  // users: distinct instructions that name this one as operand
  std::shared_ptr<const InstrPayload> payload;
};

struct Computation {
  std::string name;
  std::vector<InstrId> order;   // definition order; may contain dead ids until compacted
  std::vector<InstrId> params;  // by parameter number (kNoId for a gap)
  InstrId root = kNoId;
  bool dead = false;
  int32_t line = 0;
  std::vector<OpaqueAttribute> trailer;  // e.g. execution_thread="..." after the closing brace
};

class Module {
 public:
  Module() = default;
  explicit Module(std::string name) : name_(std::move(name)) {}
  // Copies are cheap (see the file comment) and fully independent.
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  Module clone() const;  // a compacted copy

  // ---- module level ----
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  CompId entry() const { return entry_; }
  void set_entry(CompId c) { entry_ = c; }
  // HloModule header attributes (entry_computation_layout, num_partitions, ...) verbatim.
  std::vector<OpaqueAttribute>& header_attributes() { return header_; }
  const std::vector<OpaqueAttribute>& header_attributes() const { return header_; }
  // Text between the header and the first computation (FileNames/StackFrames tables).
  std::string& preamble() { return preamble_; }
  const std::string& preamble() const { return preamble_; }
  const std::string& source_file() const { return source_file_; }
  void set_source_file(std::string f) { source_file_ = std::move(f); }

  // ---- computations ----
  size_t computation_slots() const { return comps_.size(); }
  Computation& computation(CompId c) { return comps_[c]; }
  const Computation& computation(CompId c) const { return comps_[c]; }
  std::vector<CompId> live_computations() const;
  CompId add_computation(std::string name);
  void remove_computation(CompId c);  // marks it and its instructions dead
  CompId find_computation(std::string_view name) const;  // kNoId if none
  // Computations reachable from the entry, callees before callers.
  std::vector<CompId> computation_post_order() const;

  // ---- instructions: reading ----
  size_t instruction_slots() const { return instrs_.size(); }
  const Instruction& instr(InstrId i) const { return instrs_[i]; }
  bool is_live(InstrId i) const { return i < instrs_.size() && !instrs_[i].dead; }
  Opcode opcode(InstrId i) const { return instrs_[i].opcode; }
  const InstrPayload& payload(InstrId i) const { return *instrs_[i].payload; }
  const std::string& name(InstrId i) const { return instrs_[i].payload->name; }
  const Shape& shape(InstrId i) const { return instrs_[i].payload->shape; }
  const Attributes& attrs(InstrId i) const { return instrs_[i].payload->attrs; }
  const std::vector<CompId>& called(InstrId i) const { return instrs_[i].payload->called; }
  const Literal& literal(InstrId i) const { return *instrs_[i].payload->literal; }
  std::span<const InstrId> operands(InstrId i) const { return pool_.get(instrs_[i].operands); }
  InstrId operand(InstrId i, size_t k) const { return operands(i)[k]; }
  std::span<const InstrId> users(InstrId i) const { return pool_.get(instrs_[i].users); }
  CompId computation_of(InstrId i) const { return instrs_[i].computation; }
  bool is_root(InstrId i) const { return comps_[instrs_[i].computation].root == i; }

  // Live instructions of a computation in definition order.
  std::vector<InstrId> instructions(CompId c) const;
  // Live instructions with every operand before its users (operands of the root first,
  // then any instruction not reachable from the root), deterministic.
  std::vector<InstrId> post_order(CompId c) const;
  size_t instruction_count() const { return live_instrs_; }  // all computations
  size_t instruction_count(CompId c) const;

  // ---- instructions: building and editing ----
  InstrId add_instruction(CompId c, Opcode op, Shape shape, std::span<const InstrId> operands,
                          Attributes attrs = {}, std::string name = {});
  InstrId add_constant(CompId c, Literal value, std::string name = {});
  InstrId add_parameter(CompId c, int64_t number, Shape shape, std::string name = {});
  // A copy of `source` (any computation of this module) in computation `c`, with new
  // operands and a fresh name derived from the source's; attributes, literal and called
  // computations are shared until edited.
  InstrId add_clone(CompId c, InstrId source, std::span<const InstrId> operands);
  void set_root(CompId c, InstrId root) { comps_[c].root = root; }

  void set_operand(InstrId i, size_t k, InstrId new_operand);
  void set_operands(InstrId i, std::span<const InstrId> new_operands);
  // Every use of `from` (and root status) moves to `to`. `from` stays, without users.
  void replace_all_uses(InstrId from, InstrId to);
  // Removes an instruction that has no users and is not a root.
  void remove_instruction(InstrId i);
  // Editable payload (copied first if another clone shares it).
  InstrPayload& mutable_payload(InstrId i);
  void set_opcode(InstrId i, Opcode op) { instrs_[i].opcode = op; }

  // A name not used yet in this module: "<prefix>.<n>".
  std::string unique_name(std::string_view prefix);
  // Tells the name generator about a name read from a file so it never repeats it.
  void note_name(std::string_view name);

  // Drops dead ids from computation orders and packs operand/user lists.
  void compact();

 private:
  InstrId append(CompId c, Opcode op, std::shared_ptr<const InstrPayload> payload,
                 std::span<const InstrId> operands);
  void link_operands(InstrId i);
  void unlink_operands(InstrId i);

  std::string name_;
  std::string source_file_;
  std::string preamble_;
  std::vector<OpaqueAttribute> header_;
  CompId entry_ = kNoId;
  std::vector<Computation> comps_;
  std::vector<Instruction> instrs_;
  IdPool pool_;
  size_t live_instrs_ = 0;
  uint64_t next_name_id_ = 1;
};

}  // namespace hlsgym::ir
