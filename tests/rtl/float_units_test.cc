// The float units of rtl/float_units.h in Verilator, every output bit compared with
// ir::evaluate on the same operands (the interpreter's own add, compare, convert, ...
// on literals, not a re-derivation).
//
// Vectors (FLOAT_UNIT_VECTORS cycles, default 131072; every unit sees one per cycle):
// - 16-bit unary ops (abs, negate, sqrt, converts from f16/bf16) and converts from 8- and
//   16-bit integers: all 65536 bit patterns (from 65536 cycles on);
// - f16/bf16 binary ops: all pairs of a stratified subset of s values (s the largest
//   power of two with s^2 <= the cycles: 256 by default, with every special, subnormal
//   and extreme exponent of both signs), then random pairs weighted to specials,
//   subnormals, extremes, ties and cancellation;
// - f32 ops and converts from 32/64-bit integers: weighted random operands (the
//   transcendentals: three in four with |x| in [2^-30, 2^8)).
// The full-size run (hwmodel/README.md): FLOAT_UNIT_VECTORS=17825792 (2^24 pairs of a
// 4096-value subset, then 2^20 random pairs).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <tuple>

#include "frontend/hlo_parser.h"
#include "hwmodel/unit_model.h"
#include "ir/evaluate.h"
#include "tests/rtl/float_unit_bench.h"
#include "tests/rtl/float_unit_vectors.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

using ir::ElementType;
using rtl::FloatOp;
using rtl::FloatUnit;

constexpr int64_t kChunk = 65536;  // cycles per exchange with the simulation
constexpr int64_t kProgressEvery = 16 * kChunk;  // a long run says how far it is

std::string type_name(ElementType t) { return std::string(ir::element_type_name(t)); }

int64_t vector_count() {
  const char* env = std::getenv("FLOAT_UNIT_VECTORS");
  const int64_t n = env ? std::atoll(env) : 131072;
  return std::max<int64_t>(kChunk, (n + kChunk - 1) / kChunk * kChunk);
}

// The streams: per float type a pair (a, b); a sub bit; every 16-bit pattern in turn
// (x16); a 64-bit integer. Stream is their position in streams().
// f32_t feeds the f32 transcendentals: mostly |x| in [2^-30, 2^8), where their tables
// and polynomials work (the weighted stream spends most vectors on other exponents).
enum Stream : size_t { kF32A, kF32B, kF16A, kF16B, kBF16A, kBF16B, kSub, kX16, kI64, kF32T };
std::vector<BenchStream> streams() {
  return {{"f32_a", 32}, {"f32_b", 32}, {"f16_a", 16}, {"f16_b", 16}, {"bf16_a", 16},
          {"bf16_b", 16}, {"sub", 1},   {"x16", 16},   {"i64", 64},   {"f32_t", 32}};
}

// The catalog's units and the streams feeding them.
std::vector<BenchUnit> units() {
  std::vector<BenchUnit> out;
  for (const FloatUnit& u : rtl::float_unit_catalog()) {
    if (ir::is_integral(u.type)) {  // int -> float: 8/16-bit sources every pattern
      out.push_back({u, ir::bit_width(u.type) <= 16 ? "x16" : "i64"});
      continue;
    }
    const std::string a = type_name(u.type) + "_a", b = type_name(u.type) + "_b";
    const rtl::FloatUnitPorts p = rtl::float_unit_ports(u);
    if (p.operands == 3) out.push_back({u, a, b, "", u.type == ElementType::kF32 ? "f32_t" : "x16"});  // clamp
    else if (p.operands == 2) out.push_back({u, a, b, p.sub ? "sub" : ""});
    else if (u.type != ElementType::kF32) out.push_back({u, "x16"});  // 16-bit unary ops: every pattern
    else out.push_back({u, rtl::transcendental_of(u.op) || u.op == FloatOp::kPowi ? "f32_t" : a});
  }
  return out;
}

// The HLO op computing unit u (subtract: the add unit with sub high).
std::string reference_hlo(const FloatUnit& u, bool subtract) {
  static const char* const kDirections[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  const std::string in = type_name(u.type), n = std::to_string(kChunk);
  std::string root = fmt::format("{}[{}] ", in, n), op;
  switch (u.op) {
    case FloatOp::kAdd: op = subtract ? "subtract(a, b)" : "add(a, b)"; break;
    case FloatOp::kMultiply: op = "multiply(a, b)"; break;
    case FloatOp::kDivide: op = "divide(a, b)"; break;
    case FloatOp::kMinimum: op = "minimum(a, b)"; break;
    case FloatOp::kMaximum: op = "maximum(a, b)"; break;
    case FloatOp::kSqrt: op = "sqrt(a)"; break;
    case FloatOp::kAbs: op = "abs(a)"; break;
    case FloatOp::kNegate: op = "negate(a)"; break;
    case FloatOp::kCompare:
      root = fmt::format("pred[{}] ", n);
      op = fmt::format("compare(a, b), direction={}{}", kDirections[static_cast<int>(u.direction)],
                       u.total_order ? ", type=TOTALORDER" : "");
      break;
    case FloatOp::kConvert:
      root = fmt::format("{}[{}] ", type_name(u.result_type), n);
      op = "convert(a)";
      break;
    case FloatOp::kPowi:  // the interpreter in its unit mode, the exponent a broadcast constant
      op = "power(a, c)";
      break;
    case FloatOp::kPow: op = "power(a, b)"; break;  // the general unit for every element (Checked::evaluate)
    case FloatOp::kClamp: op = "clamp(a, b, c)"; break;
    case FloatOp::kRemainder: op = "remainder(a, b)"; break;
    case FloatOp::kAtan2: op = "atan2(a, b)"; break;  // the interpreter in its unit mode
    case FloatOp::kReducePrecision:
      op = fmt::format("reduce-precision(a), exponent_bits={}, mantissa_bits={}", u.reduce_exponent_bits, u.reduce_mantissa_bits);
      break;
    default:  // a transcendental (the interpreter in its unit mode) or a rounding
      op = std::string(ir::name(rtl::float_unit_opcode(u.op))) + "(a)";
      break;
  }
  const int operands = rtl::float_unit_ports(u).operands;
  const bool binary = operands >= 2;
  const std::string exponent =
      u.op == FloatOp::kPowi ? fmt::format("  e = {0}[] constant({2})\n  c = {0}[{1}] broadcast(e), dimensions={{}}\n", in, n, u.exponent) : "";
  const std::string third = operands == 3 ? fmt::format("  c = {}[{}] parameter(2)\n", in, n) : "";
  return fmt::format("HloModule ref\nENTRY e {{\n  a = {0}[{1}] parameter(0)\n{2}{5}  ROOT r = {3}{4}\n}}\n", in, n,
                     binary ? fmt::format("  b = {}[{}] parameter(1)\n", in, n) : "", root, op, exponent + third);
}

uint64_t mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// One chunk of every stream, cycles [first, first + kChunk), as the bench reads them
// (cycle-major).
class StreamChunk {
 public:
  StreamChunk(int64_t first, int64_t total) : values_(kChunk * streams().size()) {
    const int64_t side = pair_side(total);
    std::mt19937_64 rng(0x5eed + static_cast<uint64_t>(first));
    const rtl::FloatFormat f32 = rtl::float_format(ElementType::kF32);
    for (int64_t c = 0; c < kChunk; ++c) {
      const int64_t t = first + c;
      uint64_t* v = &values_[static_cast<size_t>(c) * streams().size()];
      v[kF32A] = weighted_float(f32, rng, 0);
      v[kF32B] = weighted_float(f32, rng, v[kF32A]);
      for (auto [type, a, b] : {std::tuple{ElementType::kF16, kF16A, kF16B}, std::tuple{ElementType::kBF16, kBF16A, kBF16B}}) {
        const rtl::FloatFormat f = rtl::float_format(type);
        if (t < side * side) {
          const std::vector<uint64_t>& s = stratified(f, side);
          v[a] = s[static_cast<size_t>(t / side)];
          v[b] = s[static_cast<size_t>(t % side)];
        } else {
          v[a] = weighted_float(f, rng, 0);
          v[b] = weighted_float(f, rng, v[a]);
        }
      }
      v[kSub] = rng() & 1;
      v[kX16] = static_cast<uint64_t>(t) & 0xffff;
      v[kI64] = weighted_int(rng);
      v[kF32T] = (rng() & 3) == 0 ? weighted_float(f32, rng, 0)
                                  : ((rng() & 1) << 31) | ((127 - 30 + rng() % 38) << 23) | (rng() & 0x7fffff);
    }
  }
  const std::vector<uint64_t>& values() const { return values_; }
  uint64_t at(int64_t cycle, size_t stream) const { return values_[static_cast<size_t>(cycle) * streams().size() + stream]; }

  // The subset side for `total` cycles: the largest power of two whose square fits.
  static int64_t pair_side(int64_t total) {
    int64_t s = 1;
    while ((2 * s) * (2 * s) <= total) s *= 2;
    return s;
  }

 private:
  static const std::vector<uint64_t>& stratified(const rtl::FloatFormat& f, int64_t side) {
    static std::map<std::pair<int, int64_t>, std::vector<uint64_t>> cache;
    auto& v = cache[{static_cast<int>(f.type), side}];
    if (v.empty()) v = stratified_values(f, static_cast<size_t>(side), 7);
    return v;
  }
  std::vector<uint64_t> values_;
};

size_t stream_index(const std::string& name) {
  const auto s = streams();
  for (size_t k = 0; k < s.size(); ++k)
    if (s[k].name == name) return k;
  throw std::logic_error("no stream " + name);
}

// A unit's interpreter reference and its running check.
struct Checked {
  BenchUnit bench;
  int latency = 0;
  rtl::FloatUnitPorts ports;
  size_t a = 0, b = 0, c = 0, sub = 0;       // stream indices
  ir::Module op, subtract;                   // the reference op (subtract: add's a - b)
  std::vector<uint64_t> expected[2];         // previous and current chunk
  int64_t checked = 0, mismatches = 0;
  std::vector<std::string> first;

  explicit Checked(const BenchUnit& u)
      : bench(u), latency(rtl::float_unit_latency(u.unit)), ports(rtl::float_unit_ports(u.unit)), a(stream_index(u.a)),
        b(u.b.empty() ? 0 : stream_index(u.b)), c(u.c.empty() ? 0 : stream_index(u.c)),
        sub(u.sub.empty() ? 0 : stream_index(u.sub)),
        op(frontend::parse_hlo(reference_hlo(u.unit, false))) {
    if (ports.sub) subtract = frontend::parse_hlo(reference_hlo(u.unit, true));
  }

  std::vector<uint64_t> evaluate(const ir::Module& m, const StreamChunk& in) const {
    const ir::Computation& entry = m.computation(m.entry());
    std::vector<ir::Literal> args;
    for (size_t k = 0; k < entry.params.size(); ++k) {
      args.emplace_back(m.shape(entry.params[k]));
      const size_t stream = k == 0 ? a : k == 1 ? b : c;
      for (int64_t x = 0; x < kChunk; ++x) args.back().set_bits(x, in.at(x, stream) & mask(ports.operand_bits));
    }
    ir::EvalOptions options;
    options.transcendentals = ir::TranscendentalEval::kUnit;  // the units' own algorithms
    if (bench.unit.op == FloatOp::kPow)  // every element by the general unit, as the RTL's fpow
      options.power_exponent_of = [](ir::InstrId) { return std::optional<int>(); };
    const ir::Literal r = ir::evaluate(m, args, options).value;
    std::vector<uint64_t> out(kChunk);
    for (int64_t c = 0; c < kChunk; ++c) out[c] = r.get_bits(c) & mask(ports.result_bits);
    return out;
  }

  void next_chunk(const StreamChunk& in) {
    expected[0] = std::move(expected[1]);
    expected[1] = evaluate(op, in);
    if (!ports.sub) return;
    const std::vector<uint64_t> minus = evaluate(subtract, in);
    for (int64_t c = 0; c < kChunk; ++c)
      if (in.at(c, sub) & 1) expected[1][c] = minus[c];
  }

  // Output `got` at cycle `c` of the current chunk: the result of cycle c - latency.
  void check(int64_t c, uint64_t got, const StreamChunk* prev, const StreamChunk& cur, int64_t first_cycle) {
    int64_t at = c - latency;
    const StreamChunk* in = &cur;
    const std::vector<uint64_t>* want = &expected[1];
    if (at < 0) {
      if (first_cycle == 0) return;  // before the first vector
      at += kChunk, in = prev, want = &expected[0];
    }
    ++checked;
    if ((got & mask(ports.result_bits)) == (*want)[at]) return;
    if (++mismatches > 5) return;
    std::string ops = fmt::format("a={:#x}", in->at(at, a) & mask(ports.operand_bits));
    if (ports.operands >= 2) ops += fmt::format(" b={:#x}", in->at(at, b) & mask(ports.operand_bits));
    if (ports.operands == 3) ops += fmt::format(" c={:#x}", in->at(at, c) & mask(ports.operand_bits));
    if (ports.sub) ops += fmt::format(" sub={}", in->at(at, sub) & 1);
    first.push_back(fmt::format("{}: {} expected {:#x} got {:#x}", rtl::float_unit_name(bench.unit), ops, (*want)[at],
                                got & mask(ports.result_bits)));
  }
};

TEST(FloatUnits, MatchTheInterpreterBitForBit) {
  const std::vector<BenchUnit> bench = units();
  const rtl::BuildResult built = build_bench(rtl_work_dir("float_units"), streams(), bench);
  std::vector<Checked> checks;
  int max_latency = 0;
  for (const BenchUnit& u : bench) {
    checks.emplace_back(u);
    max_latency = std::max(max_latency, checks.back().latency);
  }
  BenchProcess sim(built.executable, streams().size(), bench.size());
  const int64_t total = vector_count();
  std::optional<StreamChunk> prev;
  auto output = [&](const std::vector<uint64_t>& out, int64_t c, size_t u) { return out[static_cast<size_t>(c) * bench.size() + u]; };
  for (int64_t first = 0; first < total; first += kChunk) {
    if (total > kProgressEvery && first % kProgressEvery == 0) fmt::print(stderr, "  cycle {} of {}\n", first, total);
    StreamChunk cur(first, total);
    for (Checked& k : checks) k.next_chunk(cur);
    const std::vector<uint64_t> out = sim.run(cur.values());
    for (size_t u = 0; u < checks.size(); ++u)
      for (int64_t c = 0; c < kChunk; ++c) checks[u].check(c, output(out, c, u), prev ? &*prev : nullptr, cur, first);
    prev.emplace(std::move(cur));
  }
  // The last results leave the pipelines during `max_latency` more cycles (inputs 0): the
  // results of the last chunk's final cycles, read as if they began the next chunk.
  const std::vector<uint64_t> out = sim.run(std::vector<uint64_t>(static_cast<size_t>(max_latency) * streams().size()));
  for (size_t u = 0; u < checks.size(); ++u)
    for (int64_t c = 0; c < checks[u].latency; ++c) checks[u].check(c + kChunk, output(out, c, u), nullptr, *prev, total);
  int64_t mismatches = 0;
  fmt::print("{} cycles; f16/bf16 pairs: all pairs of {} stratified values, then random\n", total,
             StreamChunk::pair_side(total));
  for (const Checked& k : checks) {
    EXPECT_EQ(k.checked, total) << rtl::float_unit_name(k.bench.unit);
    mismatches += k.mismatches;
    fmt::print("  {:<22} latency {:>2}  {:>9} vectors  {} mismatches\n", rtl::float_unit_name(k.bench.unit), k.latency,
               k.checked, k.mismatches);
    for (const std::string& m : k.first) ADD_FAILURE() << m;
  }
  EXPECT_EQ(mismatches, 0);
}

// Types and pairs without a unit are user errors naming them.
TEST(FloatUnits, RefuseTypesWithoutAUnit) {
  auto message = [](const FloatUnit& u) {
    try {
      rtl::float_unit_verilog(u);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message({FloatOp::kAdd, ElementType::kF64}).find("no unit for element type f64"), std::string::npos);
  EXPECT_NE(message({FloatOp::kConvert, ElementType::kF32, ElementType::kF32}).find("no convert from f32 to f32"),
            std::string::npos);
  EXPECT_NE(message({FloatOp::kConvert, ElementType::kS32, ElementType::kU8}).find("no convert from s32 to u8"),
            std::string::npos);
}

// Verilog-2005: Yosys reads every unit without -sv (Verilator's -Wall build above lints them).
TEST(FloatUnits, YosysReadsEveryUnitAsVerilog2005) {
  const std::string yosys = rtl::require_tool("yosys", "yosys");
  const std::filesystem::path dir = rtl_work_dir("float_units_yosys");
  std::string files;
  for (const FloatUnit& u : rtl::float_unit_catalog()) {
    const std::string name = rtl::float_unit_name(u) + ".v";
    std::ofstream(dir / name) << rtl::float_unit_verilog(u);
    files += " " + name;
  }
  const std::filesystem::path log = dir / "yosys.log";
  const int rc = rtl::run_shell(fmt::format("cd {} && {} -q -l {} -p {} > /dev/null 2>&1", rtl::shell_quote(dir.string()),
                                            rtl::shell_quote(yosys), rtl::shell_quote(log.string()),
                                            rtl::shell_quote("read_verilog" + files + "; hierarchy")));
  EXPECT_EQ(rc, 0) << rtl::read_text(log);
}

// designs/targets/fpga.yaml lists every unit with the latency the generator builds it
// with, and nothing else; fmul's DSPs are what the target's multiplier packing gives the
// mantissa product (hwmodel::lane_area of fp_mul), as Yosys measured them.
TEST(FloatUnits, TargetFileHasEveryUnitAtItsLatency) {
  const hwmodel::Target& t = rtl_fpga();
  size_t listed = 0;
  for (const auto& [unit, formats] : t.float_units) listed += formats.size();
  EXPECT_EQ(listed, rtl::float_unit_catalog().size());
  for (const FloatUnit& u : rtl::float_unit_catalog()) {
    const rtl::FloatUnitKey key = rtl::float_unit_key(u);
    const hwmodel::FloatUnitCost* cost = t.float_unit(key.unit, key.format);
    if (!cost) {
      ADD_FAILURE() << "fpga.yaml float_units has no " << key.unit << "." << type_name(key.format);
      continue;
    }
    EXPECT_EQ(cost->latency, rtl::float_unit_latency(u)) << rtl::float_unit_name(u);
    if (u.op == FloatOp::kMultiply) {
      EXPECT_EQ(cost->dsp, hwmodel::lane_area(t, hwmodel::UnitClass::kFpMul, u.type).dsp) << rtl::float_unit_name(u);
    }
  }
}

}  // namespace
}  // namespace hlsgym::testing
