// Byte messages between ranks, for rl/'s actor-learner training: an ordered gather to rank
// 0 and a broadcast from it. The gather receives rank 1, 2, ... in turn with point-to-point
// messages, so the learner assembles rollouts in environment order whatever the timing;
// nothing relies on a collective's reduction order. Waits poll with short sleeps instead of
// Open MPI's busy spinning, which would steal the core of a learner oversubscribed on the
// same node (2 cores, 3 ranks in the tests).
#pragma once
#include <string>
#include <vector>

namespace hlsgym::dist {

// Rank 0: every rank's bytes in rank order (its own first). Other ranks: {} after sending.
std::vector<std::string> gather_to_root(const std::string& mine);
// Every rank: rank 0's bytes (`mine` is ignored elsewhere).
std::string broadcast_from_root(const std::string& mine);

}  // namespace hlsgym::dist
