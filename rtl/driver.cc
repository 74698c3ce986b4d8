#include "rtl/driver.h"

#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hwmodel/float_unit_key.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "rtl/testbench.h"

namespace hlsgym::rtl {
namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  if (!(out << text)) throw Error("cannot write " + p.string());
}

// The first line that looks like an error in a build log.
// The first line that looks like an error in a build log: a Verilator error or warning
// (warnings are fatal under -Wall), else a compiler error.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line, compiler;
  while (std::getline(in, line)) {
    const bool verilator = line.rfind("%Error", 0) == 0 || line.rfind("%Warning", 0) == 0;
    if (verilator && line.rfind("%Error: Exiting", 0) != 0) return line;
    if (compiler.empty() && line.find("error:") != std::string::npos) compiler = line;
  }
  return compiler.empty() ? "(no error line found)" : compiler;
}

namespace {

std::optional<std::string> find_program(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string d;
  while (std::getline(dirs, d, ':')) {
    const fs::path p = fs::path(d.empty() ? "." : d) / program;
    std::error_code ec;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return std::nullopt;
}

uint64_t mask(int width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

std::string format_value(uint64_t bits, const PortInfo& p) {
  if (ir::is_signed_integral(p.type) && p.width < 64 && (bits >> (p.width - 1)) & 1)
    return std::to_string(static_cast<int64_t>(bits | ~mask(p.width)));
  if (ir::is_signed_integral(p.type)) return std::to_string(static_cast<int64_t>(bits));
  return std::to_string(bits);
}

std::string position(const ir::Shape& s, int64_t index) {
  if (s.rank() == 0) return "[]";
  std::vector<int64_t> idx(s.rank());
  for (int64_t d = s.rank() - 1; d >= 0; --d) {
    idx[d] = index % s.dim(d);
    index /= s.dim(d);
  }
  std::string out = "[";
  for (size_t k = 0; k < idx.size(); ++k) out += (k ? "," : "") + std::to_string(idx[k]);
  return out + "]";
}

void flatten(const ir::Literal& l, std::vector<const ir::Literal*>& out) {
  if (!l.is_tuple()) {
    out.push_back(&l);
    return;
  }
  for (const ir::Literal& e : l.tuple_elements()) flatten(e, out);
}

// Integers compare with the interpreter's reference order (wrap-around sums are the same in
// any order); floats with the order the lanes accumulate in, so bit for bit.
ir::EvalOptions reference_options(const ir::Module& m, const EmittedDesign& d) {
  ir::EvalOptions o;
  if (!d.floating) return o;
  o.accumulation = ir::AccumulationOrder::kHardware;
  o.transcendentals = ir::TranscendentalEval::kUnit;  // exp, log, ... as the units compute them
  o.power_exponent_of = [&m](ir::InstrId i) { return hwmodel::power_exponent(m, i); };  // fpowi<n> or fpow, as rtl
  o.split_of = [splits = d.splits](ir::InstrId i) {
    const auto it = splits.find(i);
    return it == splits.end() ? int64_t{1} : it->second;
  };
  return o;
}

// One vector's outputs from the results file, checked against the interpreter.
void check_vector(std::istream& res, const ir::Module& m, const EmittedDesign& d, const SimOptions& o, int64_t v,
                  SimResult& r) {
  std::string word, cycles_word, status;
  int64_t vk = -1, cycles = -1;
  res >> word >> vk >> cycles_word >> cycles;
  if (word != "vector" || vk != v) throw Error(fmt::format("rtl: the simulation results end before vector {}", v));
  std::getline(res, status);
  if (status.find("timeout") != std::string::npos) ++r.timeouts;
  r.measured_cycles = v == 0 ? cycles : std::max(r.measured_cycles, cycles);
  r.min_measured_cycles = v == 0 ? cycles : std::min(r.min_measured_cycles, cycles);
  const std::vector<ir::Literal> args = ir::random_inputs(m, o.seed + static_cast<uint64_t>(v));
  const ir::EvalResult want = ir::evaluate(m, args, reference_options(m, d));
  std::vector<const ir::Literal*> leaves;
  flatten(want.value, leaves);
  for (size_t k = 0; k < d.outputs.size(); ++k) {
    const PortInfo& p = d.outputs[k];
    for (int64_t e = 0; e < p.elements; ++e) {
      uint64_t got = 0;
      res >> std::hex >> got >> std::dec;
      const uint64_t expect = leaves.at(k)->get_bits(e) & mask(p.width);
      if ((got & mask(p.width)) == expect) continue;
      ++r.mismatches;
      if (!r.first)
        r.first = Mismatch{v, fmt::format("{} ({})", p.port, p.value), e, position(leaves[k]->shape(), e),
                           format_value(expect, p), format_value(got & mask(p.width), p)};
    }
  }
}

std::string vector_file(const ir::Module& m, const EmittedDesign& d, const SimOptions& o) {
  std::string s = fmt::format("hlsgym-vectors {} {}\n", o.vectors, 2 * d.estimated_cycles + 100);
  for (int v = 0; v < o.vectors; ++v) {
    const std::vector<ir::Literal> args = ir::random_inputs(m, o.seed + static_cast<uint64_t>(v));
    for (const PortInfo& in : d.inputs) {
      const ir::Literal& l = args.at(static_cast<size_t>(&in - d.inputs.data()));
      for (int64_t e = 0; e < in.elements; ++e) s += fmt::format("{:x} ", l.get_bits(e) & mask(in.width));
      s += "\n";
    }
  }
  return s;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

std::string require_tool(const std::string& program, const std::string& debian_package) {
  if (auto p = find_program(program)) return *p;
  throw Error(fmt::format("rtl: '{}' was not found on PATH; install the Debian package '{}' (apt-get install {})",
                          program, debian_package, debian_package));
}

Files write_files(const EmittedDesign& d, const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("rtl: cannot create the output folder {}: {}", dir.string(), ec.message()));
  Files f{fs::absolute(dir), fs::absolute(dir / (d.module_name + ".v")), fs::absolute(dir / ("tb_" + d.module_name + ".cpp"))};
  write_text(f.verilog, d.verilog);
  write_text(f.testbench, testbench(d));
  return f;
}

LintResult lint(const Files& f, const std::string& top) {
  const std::string verilator = require_tool("verilator", "verilator");
  const fs::path log = f.dir / "lint.log";
  const int rc = run_shell(fmt::format("{} --lint-only -Wall --top-module {} {} > {} 2>&1", shell_quote(verilator), top,
                                       shell_quote(f.verilog.string()), shell_quote(log.string())));
  return {rc == 0, read_text(log)};
}

BuildResult build_model(const EmittedDesign& d, const Files& f, bool trace, double timeout_seconds,
                        const BuildProgress& progress) {
  const std::string verilator = require_tool("verilator", "verilator");
  const std::string objdir = trace ? "obj_dir_trace" : "obj_dir";
  BuildResult b;
  b.trace = trace;
  b.log = f.dir / (trace ? "verilator_build_trace.log" : "verilator_build.log");
  b.executable = f.dir / objdir / "sim";
  const std::string cache = find_program("ccache") ? "OBJCACHE=ccache " : "";
  // coreutils timeout stops the whole build (make and the compilers under it)
  const std::string limit = timeout_seconds > 0 ? fmt::format("timeout -k 5 {:.3f} ", timeout_seconds) : "";
  const std::string cmd = fmt::format(
      "cd {} && {}{}{} --cc --exe --build -j 2 -Wall {}--top-module {} -Mdir {} -o sim {} {} > {} 2>&1",
      shell_quote(f.dir.string()), cache, limit, shell_quote(verilator), trace ? "--trace " : "", d.module_name, objdir,
      shell_quote(f.verilog.filename().string()), shell_quote(f.testbench.filename().string()),
      shell_quote(b.log.string()));
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<bool> done{false};
  std::thread watcher;
  if (progress)
    watcher = std::thread([&] {
      for (int tick = 1; !done; ++tick) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (tick % 25 != 0 || done) continue;  // every 5 s
        std::string last, line;
        std::ifstream in(b.log);
        while (std::getline(in, line))
          if (!line.empty()) last = line;
        progress(seconds_since(t0), last);
      }
    });
  const int rc = run_shell(cmd);
  done = true;
  if (watcher.joinable()) watcher.join();
  b.seconds = seconds_since(t0);
  if (!limit.empty() && (rc == 124 || rc == 137))
    throw Error(fmt::format("rtl: the Verilator build did not finish within --timeout {:g} s and was stopped; log: {}",
                            timeout_seconds, b.log.string()));
  if (rc != 0 || !fs::exists(b.executable))
    throw Error(fmt::format("rtl: the Verilator build failed (exit {}); log: {}; first error: {}", rc, b.log.string(),
                            first_error(read_text(b.log))));
  return b;
}

std::string describe(const Mismatch& m) {
  return fmt::format("vector {}: output {} element {} (linear index {}): expected {}, got {}", m.vector, m.output,
                     m.position, m.index, m.expected, m.actual);
}

SimResult simulate(const ir::Module& m, const EmittedDesign& d, const Files& f, const BuildResult& b,
                   const SimOptions& o) {
  SimResult r;
  r.vectors = o.vectors;
  r.estimated_cycles = d.estimated_cycles;
  r.build_seconds = b.seconds;
  r.verilog = f.verilog;
  const fs::path vectors = f.dir / "vectors.txt", results = f.dir / "results.txt", log = f.dir / "sim.log";
  write_text(vectors, vector_file(m, d, o));
  std::string cmd = fmt::format("{} {} {}", shell_quote(b.executable.string()), shell_quote(vectors.string()),
                                shell_quote(results.string()));
  if (o.trace) {
    if (!b.trace) throw std::logic_error("simulate: a trace needs a model built with trace");
    r.vcd = f.dir / "trace.vcd";
    cmd += " " + shell_quote(r.vcd.string());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = run_shell(cmd + " > " + shell_quote(log.string()) + " 2>&1");
  r.run_seconds = seconds_since(t0);
  if (rc != 0)
    throw Error(fmt::format("rtl: the simulation failed (exit {}); log: {}: {}", rc, log.string(), read_text(log)));
  std::ifstream res(results);
  for (int64_t v = 0; v < o.vectors; ++v) check_vector(res, m, d, o, v, r);
  std::string word;
  if (!(res >> word >> r.restart_interval) || word != "restart")
    throw Error("rtl: the simulation results end before the restart interval");
  return r;
}

SimResult cosimulate(const ir::Module& m, const EmittedDesign& d, const fs::path& dir, const SimOptions& o) {
  const Files f = write_files(d, dir);
  const BuildResult b = build_model(d, f, o.trace);
  return simulate(m, d, f, b, o);
}

}  // namespace hlsgym::rtl
