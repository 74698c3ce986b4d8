#include "passes/order.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/error.h"
#include "passes/default_order.h"
#include "passes/pipeline.h"
#include "passes/registry.h"

namespace hlsgym::passes {
namespace {

// Splits on commas and whitespace.
std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    if (ch == ',' || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<std::string> read_order_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the order file");
  std::vector<std::string> names;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    for (auto& n : split_names(line)) {
      if (!Registry::global().find(n)) {
        try {
          Registry::global().create(n);
        } catch (const Error& e) {
          throw Error(path + ":" + std::to_string(lineno) + ": " + e.what());
        }
      }
      names.push_back(std::move(n));
    }
  }
  if (names.empty()) throw Error(path + ": the order file lists no passes");
  return names;
}

}  // namespace

PassPtr make_pipeline(const std::vector<std::string>& names) {
  auto p = std::make_unique<Pipeline>("order");
  for (const auto& n : names) p->add(Registry::global().create(n));
  return p;
}

Order parse_order(const std::string& spec) {
  Order o;
  o.spec = spec;
  if (spec == "default") {
    o.names = default_order_names();
    o.pipeline = make_default_order();
    return o;
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec)) o.names = read_order_file(spec);
  else o.names = split_names(spec);
  if (o.names.empty()) throw Error("the pass order is empty; give `default`, p1,p2,... or a file");
  o.pipeline = make_pipeline(o.names);
  return o;
}

}  // namespace hlsgym::passes
