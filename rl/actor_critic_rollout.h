// Internal to rl/: one actor-critic rollout, shared by actor_critic.cc (collection and the
// update) and actor_learner.cc (rollouts assembled from several processes).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "rl/actor_critic.h"

namespace hlsgym::rl {

struct ActorCritic::Rollout {
  // Row-major: workers on different threads write neighbouring rows, which must not share
  // cache lines (a column-major row is strided across all of them).
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> obs, critic_obs;
  std::vector<int> actions;
  std::vector<double> rewards, values, logp, advantages, returns;
  std::vector<char> done;  // not vector<bool>: workers write neighbouring rows concurrently
  // With a graph encoder: each row's state graph (rows of one state share it).
  std::vector<std::shared_ptr<const GnnGraph>> graphs;
};

}  // namespace hlsgym::rl
