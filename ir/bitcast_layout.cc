#include "ir/bitcast_layout.h"

namespace hlsgym::ir {

namespace {

// The dimensions of `s` from most to least minor as its layout stores them in memory;
// without a layout (or one that is not a permutation of the dimensions), row-major (the
// last dimension most minor).
std::vector<int64_t> minor_to_major(const Shape& s) {
  const std::vector<int64_t>& given = s.layout().minor_to_major;
  if (s.layout().present && static_cast<int64_t>(given.size()) == s.rank()) {
    std::vector<bool> seen(given.size(), false);
    bool permutation = true;
    for (int64_t d : given) {
      permutation &= d >= 0 && d < s.rank() && !seen[static_cast<size_t>(d)];
      if (permutation) seen[static_cast<size_t>(d)] = true;
    }
    if (permutation) return given;
  }
  std::vector<int64_t> order(static_cast<size_t>(s.rank()));
  for (int64_t d = 0; d < s.rank(); ++d) order[static_cast<size_t>(d)] = s.rank() - 1 - d;
  return order;
}

}  // namespace

bool bitcast_is_reshape(const Shape& from, const Shape& to) {
  auto row_major = [](const Shape& s) {
    const std::vector<int64_t> order = minor_to_major(s);
    for (size_t k = 0; k < order.size(); ++k)
      if (order[k] != static_cast<int64_t>(order.size() - 1 - k)) return false;
    return true;
  };
  return row_major(from) && row_major(to);
}

int64_t bitcast_source(const Shape& from, const Shape& to, int64_t k) {
  // k's index in `to`, then its offset in memory under `to`'s layout ...
  std::vector<int64_t> out_index(static_cast<size_t>(to.rank()));
  for (int64_t d = to.rank() - 1; d >= 0; --d) {
    out_index[static_cast<size_t>(d)] = k % to.dim(d);
    k /= to.dim(d);
  }
  const std::vector<int64_t> to_order = minor_to_major(to);
  int64_t offset = 0;
  for (auto d = to_order.rbegin(); d != to_order.rend(); ++d) offset = offset * to.dim(*d) + out_index[static_cast<size_t>(*d)];
  // ... and the index in `from` that its layout stores at that offset.
  std::vector<int64_t> in_index(static_cast<size_t>(from.rank()));
  for (int64_t d : minor_to_major(from)) {
    in_index[static_cast<size_t>(d)] = offset % from.dim(d);
    offset /= from.dim(d);
  }
  const std::vector<int64_t> strides = row_major_strides(from.dims());
  int64_t source = 0;
  for (size_t d = 0; d < in_index.size(); ++d) source += in_index[d] * strides[d];
  return source;
}

}  // namespace hlsgym::ir
