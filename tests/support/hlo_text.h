// Helpers for tests that feed HLO text to the parser: the printed module (checked to be a
// fixed point of print∘parse) and the located error a malformed text gives.
#pragma once
#include <string>

namespace hlsgym::testing {

// Parses and verifies `text` (as file `file`), prints it, parses and prints the printed
// text again and fails the test unless both printings are equal. Returns the printing.
std::string print_round_trip(const std::string& text, const std::string& file = "m.hlo");

// The "FILE:LINE:COL: message" parsing (and verifying) `text` throws, or "NO ERROR".
std::string hlo_error(const std::string& text, const std::string& file = "m.hlo");

}  // namespace hlsgym::testing
