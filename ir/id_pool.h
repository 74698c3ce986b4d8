// Many small id lists (operands, users) packed into one vector, so that cloning a
// module copies a few flat arrays instead of allocating a list per instruction.
// A list that outgrows its capacity moves to the end of the pool; the hole it leaves
// is reclaimed when the owning module is compacted.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace hlsgym::ir {

struct IdSpan {
  uint32_t offset = 0, size = 0, capacity = 0;
};

class IdPool {
 public:
  std::span<const uint32_t> get(IdSpan s) const { return {data_.data() + s.offset, s.size}; }
  std::span<uint32_t> get_mut(IdSpan s) { return {data_.data() + s.offset, s.size}; }

  IdSpan make(std::span<const uint32_t> ids) {
    IdSpan s{static_cast<uint32_t>(data_.size()), static_cast<uint32_t>(ids.size()),
             static_cast<uint32_t>(ids.size())};
    data_.insert(data_.end(), ids.begin(), ids.end());
    return s;
  }
  void assign(IdSpan& s, std::span<const uint32_t> ids) {
    if (ids.size() <= s.capacity) {
      std::copy(ids.begin(), ids.end(), data_.begin() + s.offset);
      s.size = static_cast<uint32_t>(ids.size());
    } else {
      s = make(ids);
    }
  }
  void push_back(IdSpan& s, uint32_t id) {
    if (s.size == s.capacity) {
      const uint32_t cap = std::max<uint32_t>(2, s.capacity * 2);
      const uint32_t off = static_cast<uint32_t>(data_.size());
      data_.resize(data_.size() + cap);
      std::copy_n(data_.begin() + s.offset, s.size, data_.begin() + off);
      s.offset = off;
      s.capacity = cap;
    }
    data_[s.offset + s.size++] = id;
  }
  // Removes the last occurrence of `id`, keeping order. Returns whether it was found.
  // From the back: lists hold distinct ids, and passes remove late users first (dead
  // code is found from the root), so a hub's list is not scanned whole per removal.
  bool erase(IdSpan& s, uint32_t id) {
    auto span = get_mut(s);
    auto rit = std::find(span.rbegin(), span.rend(), id);
    if (rit == span.rend()) return false;
    auto it = std::prev(rit.base());
    std::copy(it + 1, span.end(), it);
    --s.size;
    return true;
  }
  size_t storage_size() const { return data_.size(); }
  void clear() { data_.clear(); }
  void reserve(size_t n) { data_.reserve(n); }

 private:
  std::vector<uint32_t> data_;
};

}  // namespace hlsgym::ir
