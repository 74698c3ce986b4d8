// Binding a schedule to hardware:
// - functional units: per resource class, tasks whose busy intervals do not overlap
//   share an instance (interval partitioning in start order, reusing the instance that
//   freed first: as many instances as the peak overlap, which is the minimum). An
//   instance is as wide as the widest task bound to it (component-wise max area).
// - multiplexers: an instance shared by k tasks selects each of its `ports` operand
//   inputs among k sources on every lane: lanes x ports x width x ceil((k-1)/3) LUTs
//   (a LUT6 is a 4:1 multiplexer per bit; a k:1 tree needs about (k-1)/3 of them).
//   An int_alu instance is the exception: rtl builds every task's LUT logic (sharing an
//   adder costs as much in operand multiplexers as it saves) and selects the active
//   task's result, so its LUTs are the sum of its tasks' plus, per lane, that select:
//   per bit, ceil((c-1)/3) LUTs over the c tasks wider than the bit.
// - buffers: every task that allocates a buffer (not an alias such as reshape or
//   get-tuple-element) holds it from its start until the last reader -- through any
//   aliases -- ends; entry parameters and constants from cycle 0; outputs until the end.
//   Buffers of at most register_threshold_bits go to registers, larger ones to BRAM
//   unless they exceed the on-chip level (then DRAM, no area). Registers and BRAMs are
//   each bound by the left-edge algorithm: in start order, a buffer reuses the track
//   freed earliest if that track is free by its start, else opens a new track. A
//   track is as large as its largest buffer. BRAM blocks of a buffer:
//   banks x max(ceil(bits per bank / bram_bits), ceil(element bits / bram_width_bits)),
//   with one bank per lane of its producer so every lane has its own port.
// - memory ports (as rtl/ builds them): a track has one read port per reader active in
//   the same cycle (a task reading a buffer on it during its issue window; an output is
//   read after the schedule). A BRAM track takes one copy of its blocks per read port; a
//   register track words x bits FFs, a read register per port and the word multiplexers
//   and write decode of Target::register_file.
// - ROMs: a small constant array (Task::rom) has no track: per reading task and lane a
//   read register and LUT6 ROM logic (bits x ceil(words / 64) LUTs).
// - peak live memory: the maximum over time of the bytes of all live buffers (DRAM
//   included) plus the scratch of running loops.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "hwmodel/schedule_problem.h"
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"

namespace hlsgym::hwmodel {

inline constexpr uint32_t kNoInstance = UINT32_MAX;

struct UnitInstance {
  uint16_t resource = 0;
  uint8_t unit = kNoUnit;  // unit class of its tasks (FPGA: the resource's class)
  int index = 0;           // instance number within its resource
  int tasks = 0;
  int64_t busy_cycles = 0;  // total busy time of its tasks (one invocation)
  int32_t lanes = 0;
  uint16_t width = 0;
  uint8_t ports = 0;
  Area area;        // the unit itself
  double mux_lut = 0;
};

struct BufferTrack {
  bool registers = false;  // else BRAM
  int64_t bytes = 0;       // largest buffer on it
  double bram18k = 0;      // BRAM blocks of one copy (0 for registers)
  int buffers = 0;
  int64_t words = 0;       // elements of its largest buffer (one per word)
  int bits = 0;            // bits of its widest element
  int read_ports = 0;      // readers in the same cycle at most (each port a BRAM copy)
  Area area;               // what it costs (registers or BRAM)
};

struct Binding {
  std::vector<uint32_t> unit_of_task;    // instance index or kNoInstance
  std::vector<UnitInstance> units;
  std::vector<uint32_t> track_of_task;   // buffer track or kNoInstance (none / DRAM)
  std::vector<BufferTrack> tracks;
  // Per alias task, the tracks it reads through (tracks_through_aliases): the read ports'
  // view, kept for the clock model's read paths.
  std::vector<std::vector<uint32_t>> alias_tracks;
  std::vector<int64_t> buffer_end;       // cycle each task's buffer is freed
  Area unit_area, mux_area, register_area, memory_area;
  int64_t peak_live_bytes = 0;
  int64_t dram_bytes = 0;                // footprint of the buffers placed in DRAM
  int64_t dataflow_ii = 0;               // max over instances of their total busy time
  Area total() const {
    Area a = unit_area;
    a += mux_area;
    a += register_area;
    a += memory_area;
    return a;
  }
};

// A pipelined loop body (loop_pipelining.h): iterations start every `ii` cycles, so the
// flat schedule's gaps are not free. Each task keeps the instance of its resource the
// modulo schedule gave it (`instance`, per task; -1: one of its own), every buffer has a
// track of its own (the next iteration rewrites it only after this one's readers, as
// the modulo problem requires), and block RAM readers share no port (their windows
// recur every II cycles), as register files' readers never do.
struct ModuloBinding {
  int64_t ii = 0;
  std::span<const int> instance;
};

Binding bind(const TaskGraph& g, const ScheduleProblem& p, const Schedule& s, const Target& t,
             const ModuloBinding* modulo = nullptr);

// Elements of the buffer a task allocates (one per word of its track; at least 1).
int64_t elements_of(const Task& k);

// Per task: for an alias (reshape, get-tuple-element, ...), the tracks of the buffers it
// reads through; empty for other tasks, and for aliases of more than 16 tracks (a loop's
// state tuple, read by the loop's own datapath).
std::vector<std::vector<uint32_t>> tracks_through_aliases(const TaskGraph& g, const Binding& b);

// BRAM18K blocks for one buffer (see the file comment).
double bram_blocks(const Target& t, int64_t bytes, int elem_bits, int banks);

}  // namespace hlsgym::hwmodel
