// The offline pipeline's dataset: transitions (observation, action, reward, next
// observation, done) collected by a behavior policy on a set of graphs, for training
// without touching the compiler (rl/dqn.h's offline mode) and for outside tools.
//
// File: CSV that pandas/numpy read directly (`pd.read_csv(path, comment='#')`):
//   # hlsgym-dataset 1 {"observation": ..., "reward": ..., "observation_size": N, "actions": [...], ...}
//   graph,episode,step,action,pass,reward,done,o0..o{N-1},n0..n{N-1}
// Numbers are written in their shortest round-trip form, so loading gives the exact
// doubles back. Loading checks the version, the action names against this build
// (rl/action_names.h) and every row's width, naming file and line.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"
#include "rl/transition.h"

namespace hlsgym::rl {

struct DatasetInfo {
  static constexpr int kVersion = 1;
  std::string observation = "opcount", reward = "opcount", behavior = "random";
  int observation_size = 0, episode_len = 30, episodes_per_graph = 0;
  double epsilon = 1;
  uint64_t seed = 1;
  bool shaping = false;
  std::vector<std::string> actions;
};

struct DatasetRow {
  std::string graph;
  int episode = 0, step = 0;
  Transition t;
};

struct Dataset {
  DatasetInfo info;
  std::vector<DatasetRow> rows;
  std::vector<Transition> transitions() const;
};

// A greedy behavior: the action to take in `env`'s current state with observation `obs`.
using Behavior = std::function<int(const Env& env, const std::vector<double>& obs)>;

struct CollectOptions {
  int episodes_per_graph = 4;
  // With probability epsilon a uniformly random action, else the behavior's; 1 (or no
  // behavior) is the uniform random policy.
  double epsilon = 1;
  uint64_t seed = 1;
  int threads = 2;  // graphs are spread over threads; the result does not depend on it
  std::string behavior_name = "random";
};

// Episodes of env.max_steps steps on every graph. Each (graph, episode) draws from its own
// RNG stream, so the dataset is a function of the seed alone. `make_behavior` is called
// once per thread (policies keep scratch state) and may return an empty Behavior.
Dataset collect(const std::vector<std::pair<std::string, ir::Module>>& graphs, const EnvOptions& env,
                const CollectOptions& o, const std::function<Behavior()>& make_behavior = {});

// collect() in pieces, for callers that spread the graphs over processes (dist/): the rows of
// graph `index` of the set (its episodes' RNG streams depend on the index, not on who runs
// it), and the dataset from every graph's rows in graph order (the one collect() returns).
std::vector<DatasetRow> collect_graph_rows(Env& env, const std::vector<std::pair<std::string, ir::Module>>& graphs,
                                           size_t index, const CollectOptions& o, const Behavior& behavior = {});
Dataset assemble_dataset(const EnvOptions& env, const CollectOptions& o, std::vector<std::vector<DatasetRow>> per_graph);
std::string encode_rows(const std::vector<DatasetRow>& rows);       // rl/wire.h bytes
std::vector<DatasetRow> decode_rows(const std::string& bytes);      // throws hlsgym::Error

void save_dataset(const Dataset& d, const std::string& path);  // atomic (temp file + rename)
Dataset load_dataset(const std::string& path);                // throws hlsgym::Error naming file:line

}  // namespace hlsgym::rl
