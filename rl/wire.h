// A compact byte encoding of rl/'s results, for carrying them between processes (the MPI
// ranks of dist/) exactly: doubles travel as their bits, so a result decoded on rank 0 is
// the one computed on rank 3, and the output matches a single process's to the bit.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ir/error.h"

namespace hlsgym::rl {

class WireWriter {
 public:
  template <typename T>
  void pod(const T& x) {
    out_.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void str(const std::string& s) {
    pod<uint64_t>(s.size());
    out_ += s;
  }
  template <typename T>
  void pods(const T* p, size_t n) {
    pod<uint64_t>(n);
    out_.append(reinterpret_cast<const char*>(p), n * sizeof(T));
  }
  void doubles(const std::vector<double>& v) { pods(v.data(), v.size()); }
  void strs(const std::vector<std::string>& v) {
    pod<uint64_t>(v.size());
    for (const auto& s : v) str(s);
  }
  void opt(const std::optional<double>& x) {
    pod<uint8_t>(x.has_value());
    if (x) pod(*x);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class WireReader {
 public:
  explicit WireReader(const std::string& in) : in_(in) {}
  template <typename T>
  T pod() {
    T x;
    need(sizeof x);
    std::memcpy(&x, in_.data() + at_, sizeof x);
    at_ += sizeof x;
    return x;
  }
  std::string str() {
    const auto n = static_cast<size_t>(pod<uint64_t>());
    need(n);
    std::string s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> pods() {
    const auto n = static_cast<size_t>(pod<uint64_t>());
    need(n * sizeof(T));
    std::vector<T> v(n);
    if (n) std::memcpy(v.data(), in_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return v;
  }
  std::vector<double> doubles() { return pods<double>(); }
  std::vector<std::string> strs() {
    std::vector<std::string> v(static_cast<size_t>(pod<uint64_t>()));
    for (auto& s : v) s = str();
    return v;
  }
  std::optional<double> opt() {
    if (!pod<uint8_t>()) return std::nullopt;
    return pod<double>();
  }
  bool done() const { return at_ == in_.size(); }

 private:
  void need(size_t n) const {
    if (n > in_.size() - at_) throw Error("a message between ranks is truncated (a bug or a version mismatch)");
  }
  const std::string& in_;
  size_t at_ = 0;
};

}  // namespace hlsgym::rl
