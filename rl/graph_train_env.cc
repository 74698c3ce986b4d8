#include "rl/graph_train_env.h"

#include "ir/error.h"

namespace hlsgym::rl {

GraphTrainEnv::GraphTrainEnv(std::vector<std::pair<std::string, ir::Module>> graphs, EnvOptions o)
    : graphs_(std::move(graphs)), env_(std::move(o)) {
  if (graphs_.empty()) throw Error("no graphs to train on");
  observation_size_ = static_cast<int>(env_.reset(graphs_[0].second, graphs_[0].first).size());
}

std::vector<double> GraphTrainEnv::reset(uint64_t seed) {
  const auto& [id, g] = graphs_[seed % graphs_.size()];
  return env_.reset(g, id, seed);
}

TrainEnv::Step GraphTrainEnv::step(int action) {
  const StepResult r = env_.step(action);
  return {r.observation, r.reward, r.terminated || r.truncated};
}

}  // namespace hlsgym::rl
