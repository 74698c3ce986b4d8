// Asynchronous HLO (`async-start` -> `async-update`* -> `async-done`, the sugared
// `negate-start`/`-update`/`-done` forms, and all-reduce-, all-gather-,
// collective-permute- and copy-start/-done) read as the synchronous op it computes.
//
// Why lower: an async pair only says that other work may run while the op is in flight;
// its value is the wrapped op applied to the start's operands. hlsgym schedules the graph
// itself, so the synchronous op is the faithful meaning, and it is one every pass, the
// interpreter and the hardware model already know.
#pragma once
#include <optional>
#include <string_view>
#include <unordered_set>

#include "ir/module.h"

namespace hlsgym::frontend {

enum class AsyncRole { kStart, kUpdate, kDone };

// `<opcode>-start`, `<opcode>-update`, `<opcode>-done` for an opcode that has no such op of
// its own: XLA's printer writes an async-start whose computation wraps one instruction so.
struct AsyncSugar {
  ir::Opcode wrapped;
  AsyncRole role;
};
std::optional<AsyncSugar> async_sugar(std::string_view opcode_name);

// Rewrites every done of the module into the synchronous op (keeping the done's name,
// shape and place; taking the start's operands, attributes and called computations) and
// removes its start and updates. A generic async-start becomes a call of its wrapped
// computation. `sugared_starts` are the starts read from the sugared form: the parser
// gives them the wrapped opcode (and its attributes) and the start's declared shape.
// Throws hlsgym::Error at the instruction's FILE:LINE:COL for a chain XLA's verifier also
// refuses (a start without done, a start or update used by anything but the next link,
// a done whose shape is not the one the start computes).
void lower_async_chains(ir::Module& m, const std::unordered_set<ir::InstrId>& sugared_starts);

}  // namespace hlsgym::frontend
