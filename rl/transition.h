// One environment step as an offline dataset stores it (rl/dataset.h) and as an
// off-policy learner replays it (rl/dqn.h).
#pragma once
#include <vector>

namespace hlsgym::rl {

struct Transition {
  std::vector<double> observation;
  int action = 0;
  double reward = 0;
  std::vector<double> next_observation;
  bool done = false;  // the episode ended after this step (no bootstrapping from next)
};

}  // namespace hlsgym::rl
