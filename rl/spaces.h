// Observation and reward spaces by name (as CompilerGym names them).
//
// Observations (any concatenation, e.g. "opcount+cost"), each normalized to the
// episode's initial graph so that one policy sees graphs of any size alike:
//   opcount   instruction count per opcode / initial instruction count (Ganai et al.)
//   features  the graph features (ir::Features) / their initial values (raw where 0)
//   cost      instructions, flops, transcendentals, bytes, cycles, energy, area, memory,
//             each / its initial value (hardware entries need a target, else 0)
//   history   how often each action was taken / the episode length limit
//   graph-wl  which opcodes feed which (rl/graph_wl.h): hashed producer->consumer edge
//             and 2-hop path counts and named pass patterns / initial instruction count
//   gnn       no flat values: the graph itself, read by a message-passing network in the
//             learner (rl/gnn.h; ppo and a2c), whose embedding joins the other spaces
// Rewards: the decrease of a cost from one state to the next:
//   opcount (instructions), cycles, energy, area, memory (hardware model), and hw, a
//   weighted sum of the hardware costs each divided by its initial value.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace hlsgym::rl {

enum class ObservationKind { kOpcount, kFeatures, kCost, kHistory, kGraphWl, kGnn };
enum class RewardKind { kOpcount, kCycles, kEnergy, kArea, kMemory, kHw };

// "opcount+features" -> kinds; throws hlsgym::Error naming the valid names.
std::vector<ObservationKind> parse_observation_space(const std::string& spec);
RewardKind parse_reward_space(const std::string& name);
std::string reward_name(RewardKind k);
std::string observation_name(ObservationKind k);
// Values each observation space contributes in this build, and the whole spec's total;
// `actions` is the environment's action count (the history space has one per action).
inline constexpr int kCostObservationSize = 8;  // Env::append_observation's cost entries
int observation_kind_size(ObservationKind k, int actions);
int observation_space_size(const std::string& spec, int actions);  // throws like parse_observation_space
bool needs_hardware(RewardKind k);
// Whether the spec has the gnn space (the agent needs a graph encoder); throws like parse.
bool has_gnn_observation(const std::string& spec);

// Weights of the "hw" reward, e.g. {cycles: 1, energy: 0.5}; keys from
// {cycles, energy, area, memory}. Parsed from YAML text (a map of numbers).
using HwWeights = std::map<std::string, double>;
HwWeights parse_hw_weights_yaml(const std::string& yaml_text, const std::string& where);

}  // namespace hlsgym::rl
