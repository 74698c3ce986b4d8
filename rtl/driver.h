// Running the emitted design: Verilator lint, build (once per design) and simulation of
// random input vectors compared element by element with ir::evaluate.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "rtl/rtl.h"

namespace hlsgym::rtl {

struct Files {
  std::filesystem::path dir, verilog, testbench;
};

// Writes <module>.v and tb_<module>.cpp into `dir` (created if needed).
Files write_files(const EmittedDesign& d, const std::filesystem::path& dir);

// The full path of `program` on PATH; throws hlsgym::Error naming the Debian package to
// install when it is missing.
std::string require_tool(const std::string& program, const std::string& debian_package);

// Runs a shell command; returns its exit status (128 + signal when killed).
int run_shell(const std::string& command);
// `s` quoted for the shell.
std::string shell_quote(const std::string& s);

struct LintResult {
  bool clean = false;
  std::string output;  // verilator's messages
};
// `verilator --lint-only -Wall` on the file.
LintResult lint(const Files& f, const std::string& top);

struct BuildResult {
  std::filesystem::path executable, log;
  double seconds = 0;
  bool trace = false;
};
// `verilator --cc --exe --build -j 2 -Wall` (OBJCACHE=ccache when ccache is installed).
// Throws hlsgym::Error with the log path and the first error when the build fails.
BuildResult build_model(const EmittedDesign& d, const Files& f, bool trace);

struct Mismatch {
  int64_t vector = 0;
  std::string output;    // port name (IR value name)
  int64_t index = 0;     // linear element index
  std::string position;  // multi-dimensional index, e.g. "[1,2]"
  std::string expected, actual;
};
std::string describe(const Mismatch& m);

struct SimOptions {
  int vectors = 16;
  uint64_t seed = 1;  // vector k uses ir::random_inputs(m, seed + k)
  bool trace = false; // writes <dir>/trace.vcd (needs a trace build)
};

struct SimResult {
  int64_t vectors = 0;
  int64_t mismatches = 0;        // output elements that differ, over all vectors
  int64_t estimated_cycles = 0;
  int64_t measured_cycles = 0;   // start to done, the largest over the vectors
  int64_t min_measured_cycles = 0;
  int64_t restart_interval = 0;  // clock edges from an accepted start to the next, start held high
  int timeouts = 0;
  std::optional<Mismatch> first;
  double build_seconds = 0, run_seconds = 0;
  std::filesystem::path verilog, vcd;
  bool passed() const { return mismatches == 0 && timeouts == 0 && measured_cycles == estimated_cycles &&
                               min_measured_cycles == estimated_cycles; }
};

// Runs `vectors` random vectors through an already built model.
SimResult simulate(const ir::Module& m, const EmittedDesign& d, const Files& f, const BuildResult& b,
                   const SimOptions& o);
// write_files + build_model + simulate.
SimResult cosimulate(const ir::Module& m, const EmittedDesign& d, const std::filesystem::path& dir,
                     const SimOptions& o);

}  // namespace hlsgym::rtl
