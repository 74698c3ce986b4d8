#include "rl/transition_memo.h"

namespace hlsgym::rl {

std::optional<TransitionMemo::Outcome> TransitionMemo::find(uint64_t hash, int action) {
  if (!unchanged_on_ && !stores_states()) return std::nullopt;
  std::lock_guard lock(mu_);
  const auto it = map_.find(Key{hash, action});
  if (it == map_.end()) {
    ++misses_;
    return std::nullopt;
  }
  ++hits_;
  return it->second;
}

void TransitionMemo::add_unchanged(uint64_t hash, int action) {
  if (!unchanged_on_) return;
  std::lock_guard lock(mu_);
  if (unchanged_ >= kMaxUnchanged) {
    map_.clear();
    unchanged_ = 0, stored_ = 0;
    ++evictions_;
  }
  if (map_.try_emplace(Key{hash, action}, Outcome{}).second) ++unchanged_;
}

void TransitionMemo::add_changed(uint64_t hash, int action, uint64_t next_hash, std::shared_ptr<const ir::Module> next) {
  if (!stores_states()) return;
  const auto size = static_cast<int64_t>(next->instruction_count());
  if (size > budget_) return;  // would not fit even alone
  std::lock_guard lock(mu_);
  if (stored_ + size > budget_) {
    // Dropping every stored state at once keeps this simple and cheap; the entries that
    // matter (an episode's common prefixes) come back on their next visit.
    std::erase_if(map_, [](const auto& kv) { return kv.second.changed; });
    stored_ = 0;
    ++evictions_;
  }
  if (map_.try_emplace(Key{hash, action}, Outcome{true, next_hash, std::move(next)}).second) stored_ += size;
}

int64_t TransitionMemo::stored_instructions() const {
  std::lock_guard lock(mu_);
  return stored_;
}

}  // namespace hlsgym::rl
