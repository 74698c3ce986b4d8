// What a pass does to a state, remembered: (state hash, action) -> "nothing" or the
// next state (its hash and module). The environment is deterministic, and training
// episodes on the same graphs repeat prefixes a lot (the same start, a policy that
// becomes sure of its first passes), so a step met before costs a map lookup instead
// of the pass, a structural hash and a module copy. Shared by an environment's forks
// and worker copies (thread-safe).
//
// The stored modules are bounded by an instruction budget; past it the stored next
// states are dropped (the "nothing" entries, 24 bytes each, are kept up to their own
// bound). A dropped entry is a miss next time, never a different result: a memoized step
// is the step the pass would take, so training with and without the memo is byte for
// byte the same (tests/rl/transition_memo_test.cc trains both ways and compares).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "ir/module.h"

namespace hlsgym::rl {

class TransitionMemo {
 public:
  struct Outcome {
    bool changed = false;
    uint64_t next_hash = 0;                   // when changed
    std::shared_ptr<const ir::Module> next;   // when changed
  };
  // `instruction_budget`: the most instructions the stored next states may hold together
  // (a stored instruction takes ~0.5 kB); 0 turns the memo off.
  explicit TransitionMemo(int64_t instruction_budget) : budget_(instruction_budget) {}
  bool enabled() const { return budget_ > 0; }
  std::optional<Outcome> find(uint64_t hash, int action);
  void add_unchanged(uint64_t hash, int action);
  void add_changed(uint64_t hash, int action, uint64_t next_hash, std::shared_ptr<const ir::Module> next);

  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }
  int64_t stored_instructions() const;
  int64_t evictions() const { return evictions_; }

  // Up to this many "nothing" entries are kept (then the whole memo is cleared and refills).
  static constexpr size_t kMaxUnchanged = size_t{1} << 22;

 private:
  struct Key {
    uint64_t hash;
    int action;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return k.hash * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k.action); }
  };

  const int64_t budget_;
  mutable std::mutex mu_;
  std::unordered_map<Key, Outcome, KeyHash> map_;
  size_t unchanged_ = 0;  // entries of map_ that are "nothing"
  int64_t stored_ = 0;    // instructions held by the changed entries' modules
  std::atomic<int64_t> hits_{0}, misses_{0}, evictions_{0};
};

}  // namespace hlsgym::rl
