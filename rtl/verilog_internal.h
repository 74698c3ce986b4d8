// Private to verilog*.cc: the text being built and the helpers every part uses.
// Everything emitted is Verilog-2005 (Yosys reads it without -sv) and is written to be
// clean under `verilator --lint-only -Wall`: every constant is sized, every select is
// static, every combinational variable gets a default before it is read.
#pragma once
#include <fmt/core.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <functional>
#include <optional>

#include "rtl/float_units.h"
#include "hwmodel/microarch.h"
#include "rtl/rtl.h"

namespace hlsgym::rtl {
// The microarchitecture this folder prints (hwmodel/microarch.h).
using hwmodel::Alt;
using hwmodel::Buffer;
using hwmodel::Cond;
using hwmodel::CondPlan;
using hwmodel::DynStart;
using hwmodel::Engine;
using hwmodel::Expr;
using hwmodel::Guard;
using hwmodel::IxNode;
using hwmodel::IxPool;
using hwmodel::Leaf;
using hwmodel::LoopNest;
using hwmodel::LoopPlan;
using hwmodel::Node;
using hwmodel::Plan;
using hwmodel::Port;
using hwmodel::TaskPlan;
using hwmodel::Timeline;
using hwmodel::Track;
using hwmodel::Unit;
using hwmodel::datapath_width;
using hwmodel::floor_div;
using hwmodel::storage_width;
using hwmodel::unravel;
using hwmodel::check_supported;
using hwmodel::make_plan;
}  // namespace hlsgym::rtl

namespace hlsgym::rtl::verilog_detail {

using hwmodel::bits_for;  // counter widths: the same function the control inventory prices
// A sized constant: 8'd5, 64'h...; `bits` is masked to `width`.
std::string sized(int width, uint64_t bits);
// "[W-1:0] " or "" for one bit.
std::string range(int width);
// `name` (of `from_width` bits, signed or not) sign/zero-extended or truncated to `to`.
std::string resize(const std::string& name, int from_width, bool is_signed, int to);

struct Text {
  std::string decls;   // declarations (module scope)
  std::string logic;   // always blocks and assigns
  void decl(const std::string& s) { decls += s + "\n"; }
  void line(const std::string& s) { logic += s + "\n"; }
};

// Storage: every binding track is a Verilog memory (reg [W-1:0] trkK [0:D-1]) whose words
// are as wide as the widest value it holds; every constant is a ROM (rom_<name>).
class Emitter {
 public:
  explicit Emitter(const Plan& p);
  const Plan& plan;
  Text text;
  Inventory inv;
  std::vector<int> track_width;             // word bits per track
  std::vector<int64_t> track_depth;         // words per track
  std::vector<bool> track_read;             // some logic reads the track
  std::set<int> roms_read;                   // constant buffers some logic reads
  int rom_reads_ = 0;                        // read registers of ROMs so far (names)
  int narrow_writes_ = 0;                    // truncated write values so far (names)
  // Memory ports. A port serves users that are never active in the same cycle (their
  // conditions exclude each other): one write port per writing lane, and read ports
  // shared by readers whose issue windows do not overlap (interval partitioning), so a
  // track with one writing lane and one reader at a time is a simple dual-port memory.
  struct PortUse {
    std::string cond, addr, value, comment;
    int64_t from = 0, to = 0;  // read: the schedule cycles [from, to) it may issue in
    int64_t reader = 0;        // read: the task (or output port) reading
  };
  std::vector<std::vector<std::vector<PortUse>>> write_ports, read_ports;  // [track][port]
  std::map<std::string, std::string> functions;  // popcount/clz helpers by name
  std::map<std::string, std::string> float_modules;  // IEEE-754 units instantiated, by module name
  std::set<std::string> unused;              // selects of bits dropped on purpose (truncations)

  // `name` resized like resize(); bits a truncation drops are recorded in `unused`.
  std::string narrow(const std::string& name, int from_width, bool is_signed, int to);
  // A word of `word` bits (`name`, a signal or an array element) holding buffer `b`'s value
  // in its low Buffer::word_bits() bits (hwmodel/value_bits.h), widened back (sign- or
  // zero-extended) or cut to `to` bits. `sink`: record the word's unread bits in `unused`.
  std::string widen(const Buffer& b, const std::string& name, int word, int to, bool sink);

  // The Verilog array holding buffer `b` and the address bits of its words.
  std::string array_of(int buffer) const;
  int addr_bits(int buffer) const;
  // Element `addr` (an expression of addr_bits(buffer) bits) of `buffer` read at element
  // type `type`, as a value of its datapath width, without a port: combinational (small
  // register tracks only: scalars) or inside a clocked block (ROMs). Marks it read.
  std::string read(int buffer, ir::ElementType type, const std::string& addr);
  // A synchronous read through a read port of the buffer's track: `addr` is presented
  // while `cond` holds (during schedule cycles [from, to)) by `reader` (a task, or an
  // output port); the returned expression is the data one cycle later. Readers share a
  // block-RAM port when their windows do not overlap; a register file's port serves one
  // reader (hwmodel/binding.cc prices the same ports).
  std::string read_port(int buffer, ir::ElementType type, const std::string& cond, const std::string& addr,
                        int64_t from, int64_t to, int64_t reader);
  // `addr` (a signed index-width expression) as the address of buffer `b`.
  std::string address(int buffer, const std::string& index_signal);
  // A clocked write of `value` (datapath width of the buffer's type) to element `addr`
  // through write port `port` of the buffer's track.
  void write(int buffer, int port, const std::string& cond, const std::string& addr, const std::string& value,
             const std::string& comment = "");
  int track_of(int buffer) const { return plan.buffers[buffer].track; }
  // Cycle `c` of `timeline` on one axis for port sharing; readers on different timelines
  // (a loop phase and its caller's schedule run at once) never share a block-RAM port
  // (same_timeline), however their cycles compare.
  static int64_t window(int timeline, int64_t c) { return timeline * (int64_t{1} << 40) + c; }
  static bool same_timeline(int64_t a, int64_t b) { return (a >> 40) == (b >> 40); }
  // A window on a pipelined loop's body recurs every II cycles: its readers share no port
  // (hwmodel/binding.h, ModuloBinding).
  bool recurring(int64_t w) const { return plan.timelines[static_cast<size_t>(w >> 40)].period > 0; }
};

// Bits of the signed index arithmetic (index_expr.h) in the emitted Verilog.
inline constexpr int kIndexBits = 32;

// Statements computing expression node `n` into `dst`; `args` are the signal names of
// its arguments. Extra declarations it needs go to `e.text`.
std::string op_statement(Emitter& e, const Expr& x, int n, const std::string& dst, const std::vector<std::string>& args);

void emit_units(Emitter& e);

// ---- IEEE-754 units in the datapath (verilog_float.cc) ----

// The unit expression node `n` takes (rtl/float_units.h, without its result register:
// the reader's register counts as its last cycle), or nullopt for logic (integer ops,
// select and bitcast of float data).
std::optional<FloatUnit> node_float_unit(const Expr& x, int n);
// Whether some node of the expression is a float unit (the task is evaluated in stages).
bool has_float_unit(const Expr& x);
// An instance of unit `u` named `name` whose result is the wire `name`_y (declared):
// operands `a` (and `b`, and `c` for clamp; `sub`, a bit expression, for fadd) presented
// at stage s give it at stage s + latency - 1, for the reader's register. Adds the module
// to e.float_modules.
std::string float_instance(Emitter& e, const FloatUnit& u, const std::string& name, const std::string& a,
                           const std::string& b = "", const std::string& sub = "1'b0", const std::string& c = "");

// One task's expression on one lane evaluated stage by stage: leaves at `leaf_stage`,
// logic (integer ops, select) combinational where its operands are, a float unit's
// operands at the latest of theirs (a float unit's result registered first), its result
// `latency - 1` stages later. Signals brought to a later stage pass delay registers,
// made once per signal and stage.
class Stager {
 public:
  Stager(Emitter& e, std::string prefix) : e_(e), prefix_(std::move(prefix)) {}
  struct Value {
    std::string name;
    int stage = 0;
  };
  // Where a unit comes from: (unit, operand stage, operands, subtract) -> its result
  // wire. Default: an instance of its own, named after the node.
  using UnitSource = std::function<std::string(const FloatUnit&, int, const std::vector<std::string>&, bool)>;
  void set_unit_source(UnitSource f) { units_ = std::move(f); }
  // `name` (of `width` bits, valid at stage `from`) at stage `to` >= from.
  std::string at(const std::string& name, int width, int from, int to);
  // The expression's root; `leaf(k)` names leaf k's signal.
  Value evaluate(const Expr& x, const std::function<std::string(int)>& leaf, int leaf_stage);
  // Writes the delay registers and the logic (call once, after the last at()).
  void finish();

 private:
  Emitter& e_;
  std::string prefix_;
  UnitSource units_;
  std::map<std::string, int> delayed_;  // signal -> the last stage its delay chain reaches
  std::string regs_, logic_;
};

// The condition, one cycle before, that cycle `start` of timeline `timeline` comes next:
// the go pulse of a task or phase starting there.
std::string start_of(const Plan& p, int timeline, int64_t start);
// That timeline (any copy of it, hwmodel/microarch.h) is in cycle `c`; in a cycle of [from, to).
std::string at_cycle(const Plan& p, int timeline, int64_t c);
std::string in_window(const Plan& p, int timeline, int64_t from, int64_t to);

// The whole module; fills `inv`.
std::string emit_verilog(const Plan& p, Inventory& inv);

}  // namespace hlsgym::rtl::verilog_detail
