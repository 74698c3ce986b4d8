// Pieces of the HLO text grammar shared by the module parser and the YAML loader
// (which accepts HLO syntax for shapes, literals and attribute values).
#pragma once
#include <span>
#include <string_view>

#include "frontend/text_cursor.h"
#include "ir/attributes.h"
#include "ir/literal.h"
#include "ir/opcode.h"
#include "ir/shape.h"

namespace hlsgym::frontend {

// Constants larger than this are refused (they would not fit a design or a test anyway,
// and refusing them keeps malformed input from allocating gigabytes).
inline constexpr int64_t kMaxConstantElements = int64_t{1} << 27;

// True if the cursor is at the start of a shape (an element type followed by '[', or '(').
bool at_shape(const TextCursor& c);
ir::Shape read_shape(TextCursor& c);
// Reads a literal of `shape` ("1.5", "{ {1,2},{3,4} }", "{...}", "(1, {2})").
ir::Literal read_literal(TextCursor& c, const ir::Shape& shape);

// Interprets `key=value` for an instruction of opcode `op`. Returns false when the key is
// not one hlsgym interprets (the caller keeps it verbatim). Throws on a malformed value.
// Called-computation keys (to_apply, body, ...) are not handled here.
bool read_attribute(TextCursor& c, ir::Opcode op, std::string_view key, ir::Attributes& attrs);

// True for an attribute name XLA's HLO text has that hlsgym keeps verbatim (metadata,
// sharding, replica_groups, ...). Any other name read_attribute does not interpret is a
// typo (`ENTRY=add` for `to_apply=add`) and an error, as in XLA's parser.
bool is_kept_attribute(std::string_view key);
// The attribute names of both kinds, for "did you mean" suggestions.
std::span<const std::string_view> known_attribute_names();

}  // namespace hlsgym::frontend
