// The HLS-style tables of a report, as rows that the text and the JSON views both print:
// loops (one loop nest per task), memories (one per binding track) and the interface.
// Private to report*.cc.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "hwmodel/estimate.h"
#include "hwmodel/target.h"
#include "ir/module.h"

namespace hlsgym::hwmodel::report_detail {

struct LoopRow {
  std::string name, op, unit;
  int64_t trips = 0;              // iterations of the loop nest (elements, or outputs x terms)
  int64_t lanes = 1;
  int64_t issue_cycles = 0;       // cycles it issues iterations (its unit's busy time)
  int64_t iteration_latency = 0;  // read, then the unit's pipeline
  int64_t start = 0;
  double ii = 1;                  // issue cycles per iteration on one lane (idle slots included)
  bool pipelined = true;          // a task's loop nest is; a while loop's when built so
  // A while loop (loop_pipelining.h): the II asked for (0: the smallest), the II its
  // modulo schedule reaches (built or not; 0 when none was found or tried), what keeps
  // that above 1, and why it is not built when it is not.
  int64_t target_ii = 0;
  int64_t pipeline_ii = 0;
  std::string pipeline_reason;
  std::string not_pipelined_because;
};

struct MemoryRow {
  int track = 0;
  bool bram = false;
  int64_t words = 0;
  int bits = 0;
  int read_ports = 0;
  Area area;
  std::vector<std::string> holds;  // the values it holds over time
};

struct PortRow {
  std::string name, direction;
  int64_t elements = 1;
  int bits = 0;
  bool scalar = false;
};

// A row per computing task's loop nest, then one per while loop (control_flow.h):
// pipelined at its II, or its iterations (condition, decide, body, copy-back) one after
// the other.
std::vector<LoopRow> loop_rows(const ir::Module& m, const Target& t, const EstimateDetails& d);
std::vector<MemoryRow> memory_rows(const ir::Module& m, const EstimateDetails& d);
std::vector<PortRow> port_rows(const ir::Module& m);
// Cycles to move the interface's data one element per cycle: inputs in, outputs out
// (one more for the synchronous read of each array output).
int64_t transfer_cycles(const std::vector<PortRow>& ports, const std::string& direction);

// JSON pieces every report view writes (report_json.cc): an escaped string, a number
// (null when not finite).
std::string quote(std::string_view s);
std::string num(double v);

std::string tables_text(const ir::Module& m, const Target& t, const Estimate& e);
std::string tables_json(const ir::Module& m, const Target& t, const Estimate& e);

}  // namespace hlsgym::hwmodel::report_detail
