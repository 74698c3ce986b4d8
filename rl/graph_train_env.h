// rl::Env over a set of graphs as a TrainEnv: every reset picks a graph (from the seed the
// agent passes) and starts an episode on it.
#pragma once
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

 private:
  std::vector<std::pair<std::string, ir::Module>> graphs_;
  Env env_;
  int observation_size_ = 0;
};

}  // namespace hlsgym::rl
