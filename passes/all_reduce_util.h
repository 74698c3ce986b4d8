// Collective helpers for all-reduce-simp: replica group sizes and a small replication
// analysis (after XLA's HloReplicationAnalysis, cross-replica mode, within one computation).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes {

// The common size of the replica groups of a collective, when replica_groups lists them
// ("{{0,1},{2,3}}" or the iota form "[2,2]<=[4]") and all have the same size; nullopt
// otherwise (no groups given means "all replicas", whose number the module does not say).
std::optional<int64_t> uniform_group_size(const ir::Module& m, ir::InstrId i);

// Whether a value is the same on every replica: computed without side effects from
// constants, iota, partition-id and entry parameters marked parameter_replication=true.
// Answers are memoised; each instruction is examined at most once.
class ReplicationAnalysis {
 public:
  explicit ReplicationAnalysis(const ir::Module& m) : m_(m) {}
  bool is_replicated(ir::InstrId i);

 private:
  // 0 unknown, 1 replicated, 2 not replicated.
  uint8_t leaf_state(ir::InstrId i) const;
  const ir::Module& m_;
  std::vector<uint8_t> state_;
};

}  // namespace hlsgym::passes
