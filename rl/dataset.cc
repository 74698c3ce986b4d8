#include "rl/dataset.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "ir/error.h"
#include "ir/line_endings.h"
#include "ir/output_file.h"
#include "rl/action_names.h"
#include "rl/parallel.h"
#include "rl/random.h"
#include "rl/wire.h"

namespace hlsgym::rl {
namespace {

constexpr const char* kMagic = "# hlsgym-dataset";

std::vector<DatasetRow> collect_graph(Env& env, const std::string& name, const ir::Module& graph, size_t graph_index,
                                      const CollectOptions& o, const Behavior& behavior) {
  std::vector<DatasetRow> rows;
  for (int e = 0; e < o.episodes_per_graph; ++e) {
    std::mt19937_64 rng = substream(o.seed, graph_index, e);
    std::vector<double> obs = env.reset(graph, name, o.seed + static_cast<uint64_t>(e));
    for (int step = 0;; ++step) {
      const bool explore = !behavior || unit_interval(rng) < o.epsilon;
      const int action = explore ? static_cast<int>(rng() % static_cast<uint64_t>(Env::action_count())) : behavior(env, obs);
      StepResult r = env.step(action);
      const bool done = r.terminated || r.truncated;
      rows.push_back({name, e, step, Transition{obs, action, r.reward, r.observation, done}});
      if (done) break;
      obs = std::move(r.observation);
    }
  }
  return rows;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + '"';
}

// Splits one CSV line (fields may be quoted with "" escapes).
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(std::move(cur));
  return out;
}

template <typename T>
T parse_number(const std::string& s, const std::string& where, const char* column) {
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    throw Error(fmt::format("{}: column {}: '{}' is not a number", where, column, s));
  return v;
}

}  // namespace

std::vector<Transition> Dataset::transitions() const {
  std::vector<Transition> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(r.t);
  return out;
}

namespace {
void check_collect_options(const CollectOptions& o) {
  if (o.episodes_per_graph <= 0) throw Error("collect: episodes per graph must be positive");
  if (!(o.epsilon >= 0 && o.epsilon <= 1)) throw Error("collect: epsilon must be in [0, 1]");
}
}  // namespace

std::vector<DatasetRow> collect_graph_rows(Env& env, const std::vector<std::pair<std::string, ir::Module>>& graphs,
                                           size_t index, const CollectOptions& o, const Behavior& behavior) {
  check_collect_options(o);
  return collect_graph(env, graphs.at(index).first, graphs.at(index).second, index, o, behavior);
}

Dataset assemble_dataset(const EnvOptions& env_options, const CollectOptions& o,
                         std::vector<std::vector<DatasetRow>> per_graph) {
  Dataset d;
  d.info.observation = env_options.observation;
  d.info.reward = env_options.reward;
  d.info.shaping = env_options.shaping;
  d.info.episode_len = env_options.max_steps;
  d.info.episodes_per_graph = o.episodes_per_graph;
  d.info.epsilon = o.epsilon;
  d.info.seed = o.seed;
  d.info.behavior = o.behavior_name;
  d.info.actions = action_names();
  for (auto& rows : per_graph)
    for (auto& r : rows) d.rows.push_back(std::move(r));
  d.info.observation_size = d.rows.empty() ? 0 : static_cast<int>(d.rows[0].t.observation.size());
  return d;
}

Dataset collect(const std::vector<std::pair<std::string, ir::Module>>& graphs, const EnvOptions& env_options,
                const CollectOptions& o, const std::function<Behavior()>& make_behavior) {
  if (graphs.empty()) throw Error("collect: no graphs");
  check_collect_options(o);
  std::vector<std::vector<DatasetRow>> per_graph(graphs.size());
  // One environment (its own state cache) and one behavior (policies keep scratch) per
  // thread, made on the thread's first graph.
  const int threads = std::max(o.threads, 1);
  std::vector<std::optional<Env>> envs(static_cast<size_t>(threads));
  std::vector<Behavior> behaviors(static_cast<size_t>(threads));
  parallel_for(static_cast<int>(graphs.size()), threads, [&](int g, int t) {
    auto& env = envs[static_cast<size_t>(t)];
    if (!env) {
      env.emplace(env_options);
      if (make_behavior) behaviors[static_cast<size_t>(t)] = make_behavior();
    }
    const auto i = static_cast<size_t>(g);
    per_graph[i] = collect_graph(*env, graphs[i].first, graphs[i].second, i, o, behaviors[static_cast<size_t>(t)]);
  });
  return assemble_dataset(env_options, o, std::move(per_graph));
}

std::string encode_rows(const std::vector<DatasetRow>& rows) {
  WireWriter w;
  w.pod<uint64_t>(rows.size());
  for (const DatasetRow& r : rows) {
    w.str(r.graph), w.pod<int32_t>(r.episode), w.pod<int32_t>(r.step);
    w.doubles(r.t.observation), w.pod<int32_t>(r.t.action), w.pod(r.t.reward), w.doubles(r.t.next_observation);
    w.pod<uint8_t>(r.t.done);
  }
  return w.take();
}

std::vector<DatasetRow> decode_rows(const std::string& bytes) {
  WireReader r(bytes);
  std::vector<DatasetRow> rows(static_cast<size_t>(r.pod<uint64_t>()));
  for (DatasetRow& row : rows) {
    row.graph = r.str(), row.episode = r.pod<int32_t>(), row.step = r.pod<int32_t>();
    row.t.observation = r.doubles(), row.t.action = r.pod<int32_t>(), row.t.reward = r.pod<double>();
    row.t.next_observation = r.doubles(), row.t.done = r.pod<uint8_t>() != 0;
  }
  return rows;
}

void save_dataset(const Dataset& d, const std::string& path) {
  {
    std::ostringstream out;
    const nlohmann::json info = {{"observation", d.info.observation}, {"reward", d.info.reward},
                                 {"shaping", d.info.shaping},         {"observation_size", d.info.observation_size},
                                 {"episode_len", d.info.episode_len}, {"episodes_per_graph", d.info.episodes_per_graph},
                                 {"behavior", d.info.behavior},       {"epsilon", d.info.epsilon},
                                 {"seed", d.info.seed},               {"actions", d.info.actions}};
    out << kMagic << ' ' << DatasetInfo::kVersion << ' ' << info.dump() << '\n';
    out << "graph,episode,step,action,pass,reward,done";
    for (int i = 0; i < d.info.observation_size; ++i) out << ",o" << i;
    for (int i = 0; i < d.info.observation_size; ++i) out << ",n" << i;
    out << '\n';
    fmt::memory_buffer line;
    for (const auto& r : d.rows) {
      line.clear();
      fmt::format_to(std::back_inserter(line), "{},{},{},{},{},{},{}", csv_field(r.graph), r.episode, r.step, r.t.action,
                     d.info.actions.at(static_cast<size_t>(r.t.action)), r.t.reward, r.t.done ? 1 : 0);
      for (double x : r.t.observation) fmt::format_to(std::back_inserter(line), ",{}", x);
      for (double x : r.t.next_observation) fmt::format_to(std::back_inserter(line), ",{}", x);
      line.push_back('\n');
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
    if (!out) throw Error(path + ": writing the dataset failed");
    // Whole or not at all, with an end line so a copy cut short is refused on load.
    ir::write_file_atomically(path, ir::with_end_marker(std::move(out).str()));
  }
}

Dataset load_dataset(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error(path + ": cannot read the dataset");
  std::ostringstream text;
  text << file.rdbuf();
  const std::string normalized = normalize_line_endings(std::move(text).str());  // CRLF/CR files too
  std::istringstream in(normalized);
  std::string line;
  std::getline(in, line);
  const std::string magic = std::string(kMagic) + ' ';
  if (line.rfind(magic, 0) != 0) throw Error(path + ":1: not an hlsgym dataset (no '# hlsgym-dataset' header)");
  const size_t space = line.find(' ', magic.size());
  const std::string version = line.substr(magic.size(), space - magic.size());
  if (version != std::to_string(DatasetInfo::kVersion))
    throw Error(fmt::format("{}:1: dataset version {} is not supported (this build reads {})", path, version,
                            DatasetInfo::kVersion));
  // A dataset cut short (a killed `collect`, a partial copy) is refused, not read as complete.
  in = std::istringstream(std::string(ir::strip_end_marker(normalized, path)));
  std::getline(in, line);
  Dataset d;
  try {
    const auto j = nlohmann::json::parse(space == std::string::npos ? std::string("{}") : line.substr(space + 1));
    d.info.observation = j.at("observation");
    d.info.reward = j.at("reward");
    d.info.shaping = j.value("shaping", false);
    d.info.observation_size = j.at("observation_size");
    d.info.episode_len = j.at("episode_len");
    d.info.episodes_per_graph = j.value("episodes_per_graph", 0);
    d.info.behavior = j.value("behavior", "");
    d.info.epsilon = j.value("epsilon", 1.0);
    d.info.seed = j.value("seed", uint64_t{0});
    d.info.actions = j.at("actions").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}:1: bad dataset header: {}", path, e.what()));
  }
  check_action_names(d.info.actions, path);
  const size_t n = static_cast<size_t>(d.info.observation_size);
  std::getline(in, line);  // column names
  for (int lineno = 3; std::getline(in, line); ++lineno) {
    if (line.empty()) continue;
    const std::string where = fmt::format("{}:{}", path, lineno);
    const auto f = csv_split(line);
    if (f.size() != 7 + 2 * n)
      throw Error(fmt::format("{}: {} columns, expected {} (7 + 2 x observation_size {})", where, f.size(), 7 + 2 * n, n));
    DatasetRow r;
    r.graph = f[0];
    r.episode = parse_number<int>(f[1], where, "episode");
    r.step = parse_number<int>(f[2], where, "step");
    r.t.action = parse_number<int>(f[3], where, "action");
    if (r.t.action < 0 || r.t.action >= static_cast<int>(d.info.actions.size()))
      throw Error(fmt::format("{}: action {} out of range 0..{}", where, r.t.action, d.info.actions.size() - 1));
    r.t.reward = parse_number<double>(f[5], where, "reward");
    r.t.done = parse_number<int>(f[6], where, "done") != 0;
    r.t.observation.resize(n);
    r.t.next_observation.resize(n);
    for (size_t i = 0; i < n; ++i) r.t.observation[i] = parse_number<double>(f[7 + i], where, "o");
    for (size_t i = 0; i < n; ++i) r.t.next_observation[i] = parse_number<double>(f[7 + n + i], where, "n");
    d.rows.push_back(std::move(r));
  }
  return d;
}

}  // namespace hlsgym::rl
