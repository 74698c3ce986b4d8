// What a pass does to a state, remembered: (state hash, action) -> "nothing" or the
// next state (its hash and module). The environment is deterministic, and training
// episodes on the same graphs repeat prefixes a lot (the same start, a policy that
// becomes sure of its first passes), so a step met before costs a map lookup instead
// of the pass, a structural hash and a module copy. Shared by an environment's forks
// and worker copies (thread-safe).
//
// The "nothing" entries are always kept (24 bytes each, up to their own bound): such a
// hit costs no module copy, so it is a pure gain (on the real train split most steps
// are passes that change nothing, and each ran its whole search before). The stored next
// states are optional, bounded by an instruction budget (0: none); past it they are
// dropped. A state the memo holds is shared, so the step after a memoized change must
// copy it before running a pass, which on the train split costs more than the passes it
// saves (README "Speed"). A dropped entry is a miss next time, never a different result: a memoized step
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
  // (a stored instruction takes ~0.5 kB); 0 stores no next states. `unchanged`: keep the
  // "nothing" entries (off only to compare against an environment without any memo).
  explicit TransitionMemo(int64_t instruction_budget, bool unchanged = true)
      : budget_(instruction_budget), unchanged_on_(unchanged) {}
  // Whether next states are stored (a budget > 0).
  bool stores_states() const { return budget_ > 0; }
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
  const bool unchanged_on_;
  mutable std::mutex mu_;
  std::unordered_map<Key, Outcome, KeyHash> map_;
  size_t unchanged_ = 0;  // entries of map_ that are "nothing"
  int64_t stored_ = 0;    // instructions held by the changed entries' modules
  std::atomic<int64_t> hits_{0}, misses_{0}, evictions_{0};
};

}  // namespace hlsgym::rl
