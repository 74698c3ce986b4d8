// What an agent trains on: an episodic environment with a flat observation vector and a
// discrete action set. Adapters wrap rl::Env over a set of graphs; tests use small MDPs
// with known optimal returns.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hlsgym::rl {

struct GnnGraph;  // rl/gnn.h

class TrainEnv {
 public:
  struct Step {
    std::vector<double> observation;
    double reward = 0;
    bool done = false;  // terminated or truncated: the episode is over
  };
  virtual ~TrainEnv() = default;
  virtual int observation_size() const = 0;
  virtual int action_count() const = 0;
  virtual std::vector<double> reset(uint64_t seed) = 0;
  virtual Step step(int action) = 0;
  // Extra inputs for a critic only (the paper's value function that also sees the cost
  // features), describing the current state; the same length every call.
  virtual std::vector<double> critic_features() const { return {}; }
  // The current state as a graph, for agents with a graph encoder (rl/gnn.h); null when the
  // environment has no graph (the test MDPs).
  virtual std::shared_ptr<const GnnGraph> graph_input() const { return nullptr; }
  // What the episode in progress is on (a graph's name), for the message that ends a job
  // when a process stepping this environment fails; empty when there is nothing to say.
  virtual std::string position() const { return {}; }
};

}  // namespace hlsgym::rl
