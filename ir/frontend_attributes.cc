#include "ir/frontend_attributes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

namespace hlsgym::ir {
namespace {

constexpr std::string_view kAttribute = "frontend_attributes";
using KeyValues = std::vector<std::pair<std::string, std::string>>;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `{k="v", k2=v2}` as pairs. Quoted values may hold commas and \" escapes; XLA prints
// every value quoted, hand-written designs sometimes do not.
KeyValues parse(std::string_view text) {
  text = trimmed(text);
  if (!text.empty() && text.front() == '{') text.remove_prefix(1);
  if (!text.empty() && text.back() == '}') text.remove_suffix(1);
  KeyValues out;
  size_t p = 0;
  while (p < text.size()) {
    const size_t eq = text.find('=', p);
    if (eq == std::string_view::npos) break;
    std::string key(trimmed(text.substr(p, eq - p)));
    size_t v = eq + 1;
    while (v < text.size() && std::isspace(static_cast<unsigned char>(text[v]))) ++v;
    std::string value;
    if (v < text.size() && text[v] == '"') {
      for (++v; v < text.size() && text[v] != '"'; ++v) value += text[v] == '\\' && v + 1 < text.size() ? text[++v] : text[v];
      const size_t comma = text.find(',', v);
      p = comma == std::string_view::npos ? text.size() : comma + 1;
    } else {
      const size_t comma = text.find(',', v);
      value = trimmed(text.substr(v, comma == std::string_view::npos ? std::string_view::npos : comma - v));
      p = comma == std::string_view::npos ? text.size() : comma + 1;
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

std::string print(const KeyValues& kvs) {
  std::string out = "{";
  for (const auto& [k, v] : kvs) {
    if (out.size() > 1) out += ',';
    out += k + "=\"";
    for (char c : v) out += c == '"' || c == '\\' ? std::string{'\\', c} : std::string{c};
    out += '"';
  }
  return out + "}";
}

}  // namespace

std::optional<std::string> frontend_attribute(const Attributes& a, std::string_view key) {
  const OpaqueAttribute* fa = a.find_opaque(kAttribute);
  if (!fa) return std::nullopt;
  for (auto& [k, v] : parse(fa->value))
    if (k == key) return v;
  return std::nullopt;
}

void set_frontend_attribute(Attributes& a, std::string_view key, std::string_view value) {
  auto it = std::find_if(a.opaque.begin(), a.opaque.end(), [](const OpaqueAttribute& o) { return o.key == kAttribute; });
  KeyValues kvs = it == a.opaque.end() ? KeyValues{} : parse(it->value);
  auto kv = std::find_if(kvs.begin(), kvs.end(), [&](const auto& p) { return p.first == key; });
  if (value.empty()) {
    if (kv != kvs.end()) kvs.erase(kv);
  } else if (kv != kvs.end()) {
    kv->second = value;
  } else {
    kvs.emplace_back(key, value);
  }
  if (kvs.empty()) {
    if (it != a.opaque.end()) a.opaque.erase(it);
  } else if (it != a.opaque.end()) {
    it->value = print(kvs);
  } else {
    a.opaque.push_back({std::string(kAttribute), print(kvs)});
  }
}

std::optional<int> lanes_hint(const Module& m, InstrId i) {
  const auto text = frontend_attribute(m.attrs(i), "lanes");
  if (!text) return std::nullopt;
  int lanes = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), lanes);
  if (ec != std::errc() || end != text->data() + text->size() || lanes < 1 || lanes > kMaxLanes) return std::nullopt;
  return lanes;
}

void set_lanes_hint(Module& m, InstrId i, int lanes) {
  set_frontend_attribute(m.mutable_payload(i).attrs, "lanes", lanes >= 2 ? std::to_string(lanes) : "");
}

}  // namespace hlsgym::ir
