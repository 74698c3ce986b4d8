// rl::Env over a set of graphs as a TrainEnv: every reset picks a graph (from the seed the
// agent passes) and starts an episode on it.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rl/env.h"
#include "rl/train_env.h"

namespace hlsgym::rl {

class GraphTrainEnv final : public TrainEnv {
 public:
  GraphTrainEnv(std::vector<std::pair<std::string, ir::Module>> graphs, EnvOptions o);
  int observation_size() const override { return observation_size_; }
  int action_count() const override { return Env::action_count(); }
  std::vector<double> reset(uint64_t seed) override;
  Step step(int action) override;
  // The cost features of Ganai et al.'s critic: flops, transcendentals, bytes accessed and
  // instructions of the current state relative to the episode's initial graph, and the
  // initial graph's size (log-scaled), so the critic can tell a large graph from a small one.
  std::vector<double> critic_features() const override;
  static constexpr int kCriticFeatures = 6;
  std::string position() const override { return "graph " + graph_; }
  // Built on the first call in each state and kept until the state changes (a pass that
  // changed nothing keeps the graph, so the encoder's cache of it holds).
  std::shared_ptr<const GnnGraph> graph_input() const override;

  // Another environment over the same graphs for another rollout worker's thread
  // (`train --workers`). It shares this one's graphs and its thread-safe state caches (the
  // metrics of every state met, the default order's cost per graph), so what one worker
  // measured is free to the others; the episode and the pass objects are its own.
  std::unique_ptr<GraphTrainEnv> worker_copy() const;
  // The state caches shared with worker copies (uncostable states, refused steps).
  const MetricsCache& cache() const { return env_.cache(); }
  // The transitions shared with worker copies (rl/transition_memo.h).
  const TransitionMemo& memo() const { return env_.memo(); }

  // Each graph once, shared with the environment's episodes (reset copies nothing), with
  // its structural hash computed once.
  struct Graph {
    std::string id;
    std::shared_ptr<const ir::Module> module;
    uint64_t hash = 0;
  };

 private:
  GraphTrainEnv(const GraphTrainEnv&) = default;

  std::shared_ptr<const std::vector<Graph>> graphs_;
  Env env_;
  int observation_size_ = 0;
  std::string graph_;  // the episode's graph
  mutable std::shared_ptr<const GnnGraph> graph_input_;
  mutable uint64_t graph_input_hash_ = 0;
};

}  // namespace hlsgym::rl
