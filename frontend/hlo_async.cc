#include "frontend/hlo_async.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ir/error.h"

namespace hlsgym::frontend {
namespace {
using ir::InstrId;
using ir::Module;
using ir::Opcode;

// Collective and copy pairs that are ops of their own, with the op they compute.
struct StartDonePair {
  Opcode start, done, sync;
};
constexpr StartDonePair kStartDonePairs[] = {
    {Opcode::kAllReduceStart, Opcode::kAllReduceDone, Opcode::kAllReduce},
    {Opcode::kAllGatherStart, Opcode::kAllGatherDone, Opcode::kAllGather},
    {Opcode::kCollectivePermuteStart, Opcode::kCollectivePermuteDone, Opcode::kCollectivePermute},
    {Opcode::kCopyStart, Opcode::kCopyDone, Opcode::kCopy},
};

const StartDonePair* pair_of_done(Opcode op) {
  for (const auto& p : kStartDonePairs)
    if (p.done == op) return &p;
  return nullptr;
}

bool is_pair_start(Opcode op) {
  return std::any_of(std::begin(kStartDonePairs), std::end(kStartDonePairs),
                     [&](const StartDonePair& p) { return p.start == op; });
}

class AsyncLowering {
 public:
  AsyncLowering(Module& m, const std::unordered_set<InstrId>& sugared) : m_(m), sugared_(sugared) {}

  void run() {
    for (ir::CompId c : m_.live_computations())
      for (InstrId i : m_.instructions(c))
        if (m_.is_live(i) && (m_.opcode(i) == Opcode::kAsyncDone || pair_of_done(m_.opcode(i)))) lower_done(i);
    for (ir::CompId c : m_.live_computations())
      for (InstrId i : m_.instructions(c))
        if (m_.opcode(i) == Opcode::kAsyncStart || m_.opcode(i) == Opcode::kAsyncUpdate || sugared_.count(i) ||
            is_pair_start(m_.opcode(i)))
          fail(i, described(i) + " has no matching done");
  }

 private:
  [[noreturn]] void fail(InstrId i, const std::string& message) const {
    throw Error(message, {m_.source_file(), m_.payload(i).line, m_.payload(i).column});
  }

  std::string described(InstrId i) const {
    const std::string op(ir::name(m_.opcode(i)));
    return "'" + m_.name(i) + "' (" + (sugared_.count(i) ? op + "-start" : op) + ")";
  }

  bool is_start_for(InstrId done, InstrId x) const {
    if (m_.opcode(done) == Opcode::kAsyncDone) return m_.opcode(x) == Opcode::kAsyncStart || sugared_.count(x);
    return m_.opcode(x) == pair_of_done(m_.opcode(done))->start;
  }

  // The links from the done back to its start: updates nearest first, the start last.
  std::vector<InstrId> chain_of(InstrId done) const {
    if (m_.operands(done).size() != 1) fail(done, described(done) + " takes exactly one operand, the async state");
    std::vector<InstrId> links;
    InstrId x = m_.operand(done, 0);
    while (m_.opcode(done) == Opcode::kAsyncDone && m_.opcode(x) == Opcode::kAsyncUpdate) {
      if (m_.operands(x).size() != 1) fail(x, described(x) + " takes exactly one operand, the async state");
      links.push_back(x);
      x = m_.operand(x, 0);
    }
    if (!is_start_for(done, x)) fail(done, described(done) + " must take its start's state, not " + described(x));
    links.push_back(x);
    InstrId next = done;
    for (InstrId link : links) {
      for (InstrId user : m_.users(link))
        if (user != next)
          fail(link, described(link) + " is used by " + described(user) +
                         "; an async state may only flow start -> update* -> done");
      if (m_.is_root(link)) fail(link, described(link) + " is a ROOT; an async state may only flow to its done");
      next = link;
    }
    return links;
  }

  void lower_done(InstrId done) {
    const std::vector<InstrId> links = chain_of(done);
    const InstrId start = links.back();
    Opcode sync;
    if (const StartDonePair* pair = pair_of_done(m_.opcode(done))) {
      sync = pair->sync;
    } else {
      // The async state is ((operands...), result, context...): element 1 is the value.
      const ir::Shape& state = m_.shape(start);
      if (!state.is_tuple() || state.tuple_elements().size() < 2 || !state.tuple_element(1).compatible(m_.shape(done)))
        fail(done, described(done) + " is " + m_.shape(done).to_string(false) + " but " + described(start) +
                       "'s state " + state.to_string(false) + " does not hold that result at index 1");
      sync = m_.opcode(start) == Opcode::kAsyncStart ? Opcode::kCall : m_.opcode(start);
    }
    const std::vector<InstrId> operands(m_.operands(start).begin(), m_.operands(start).end());
    ir::InstrPayload& p = m_.mutable_payload(done);
    p.attrs = m_.attrs(start);
    p.called = m_.called(start);
    m_.set_opcode(done, sync);
    m_.set_operands(done, operands);
    for (InstrId link : links) m_.remove_instruction(link);
  }

  Module& m_;
  const std::unordered_set<InstrId>& sugared_;
};
}  // namespace

std::optional<AsyncSugar> async_sugar(std::string_view opcode_name) {
  static constexpr std::pair<std::string_view, AsyncRole> kSuffixes[] = {
      {"-start", AsyncRole::kStart}, {"-update", AsyncRole::kUpdate}, {"-done", AsyncRole::kDone}};
  for (auto [suffix, role] : kSuffixes) {
    if (opcode_name.size() <= suffix.size() || !opcode_name.ends_with(suffix)) continue;
    if (auto op = ir::opcode_from_name(opcode_name.substr(0, opcode_name.size() - suffix.size())))
      return AsyncSugar{*op, role};
  }
  return std::nullopt;
}

void lower_async_chains(Module& m, const std::unordered_set<InstrId>& sugared_starts) {
  AsyncLowering(m, sugared_starts).run();
}

}  // namespace hlsgym::frontend
