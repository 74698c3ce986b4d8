// A trained pass-ordering policy on disk, and applying it to a graph.
//
// Format (text, versioned): a header line "hlsgym-policy 1", then key-value lines
// (algo, observation, reward, optionally target = the hardware target a hardware-reward
// policy was trained for, max_steps, actions = the pass names the action indices
// meant when training), then the agent's full state (rl/agent.h: PPO, A2C or DQN). Loading checks the header,
// the version, that every action names a pass this build has (in the same order) and that
// the network reads as many values as the recorded observation space has in this build, so
// a policy never silently drives the wrong passes. Saved atomically (temp file + rename):
// a checkpoint interrupted mid-write leaves the previous one intact.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"
#include <memory>
#include <optional>

#include "rl/agent.h"

namespace hlsgym::rl {

struct PolicyFile {
  std::string algo = "ppo", observation = "opcount", reward = "opcount";
  std::string target;  // `train --target` (fpga, cpu or a file); empty: no hardware in training
  int max_steps = 30;
  std::vector<std::string> actions;
  std::unique_ptr<Agent> agent;
};

void save_policy(const PolicyFile& p, const std::string& path);
PolicyFile load_policy(const std::string& path);  // throws hlsgym::Error naming the file
bool is_policy_file(const std::string& path);     // starts with the header line

// The order the policy picks for `graph`: a greedy episode of max_steps in which a pass
// that changed nothing is masked until the state changes, then that order run again (up to
// 4 times) while a round still lowers the reward's cost, as XLA's HloPassFix runs its
// pipelines. Passes that changed nothing are left out of the order (replaying it gives the
// same module).
// `pass_runs`, when given, receives the pass runs (environment steps) the episode took.
std::vector<std::string> policy_order(PolicyFile& p, const ir::Module& graph, const EnvOptions& env_base,
                                      int64_t* pass_runs = nullptr);

// policy_order's episode with what a search that continues from its end needs
// (rl/guided_search.h): the environment in the final state, room for `extra_steps` more
// steps in it, and the actions the episode found to change nothing there (so a search
// does not pay for them again).
struct PolicyEpisode {
  std::vector<std::string> order;
  int64_t pass_runs = 0;
  std::optional<Env> end;
  std::vector<int> noops_at_end;
  std::vector<int> cost_steps;  // the steps of the episode that changed the cost, in order
};
PolicyEpisode policy_episode(PolicyFile& p, const ir::Module& graph, const EnvOptions& env_base, int extra_steps = 0);

// The policies shipped in designs/policies/, one per (reward, target) they were trained
// for: `--order learned` / `--policy learned` picks the one matching the run's --reward
// and --target (designs/policies/README.md says how each was trained).
struct ShippedPolicy {
  std::string name;    // designs/policies/NAME.policy
  std::string reward;  // the reward it was trained on
  std::string target;  // the hardware target; empty: any (a reward without hardware)
};
const std::vector<ShippedPolicy>& shipped_policies();
// The shipped policy for `reward` on `target` (empty target: fpga, the default target);
// throws hlsgym::Error naming the shipped ones when there is none for the combination.
std::string shipped_policy_name(const std::string& reward, const std::string& target);

// Environment options matching the policy (observation, reward, episode length).
EnvOptions policy_env_options(const PolicyFile& p, EnvOptions base);

}  // namespace hlsgym::rl
