// The transcendental units' Verilog: ir/transcendental_units.h's datapath, node by node,
// as pipeline wires (one per node, in the node's stage), so the RTL is the interpreter's
// unit algorithm by construction; tests/rtl/float_units_test.cc checks it bit for bit.
// Tables are multiplexer trees over constants; rounding is the
// normalize / round_and_pack every other float unit ends with.
#include <map>
#include <optional>
#include <vector>

#include "ir/transcendental_units.h"
#include "rtl/float_unit_builders.h"
#include "rtl/float_unit_parts.h"

namespace hlsgym::rtl::float_detail {
namespace {

using ir::FxNode;
using ir::FxOp;
using ir::u128;

std::string wide_constant(int width, u128 v) {
  if (width <= 64) return constant(width, static_cast<uint64_t>(v));
  const auto hi = static_cast<uint64_t>(v >> 64), lo = static_cast<uint64_t>(v);
  return hi ? fmt::format("{}'h{:x}{:016x}", width, hi, lo) : fmt::format("{}'h{:x}", width, lo);
}

class Printer {
 public:
  Printer(Pipeline& p, const ir::FxProgram& prog, const FloatFormat& f, const Sig& a)
      : p_(p), prog_(prog), f_(f), sigs_(prog.nodes.size()) {
    sigs_[0] = a;
  }

  Sig print() {
    for (size_t i = 1; i < prog_.nodes.size(); ++i) {
      const FxNode& n = prog_.nodes[i];
      while (p_.stage() < n.stage) p_.next_stage();
      std::optional<Pipeline::Rewind> back;
      if (n.stage < p_.stage()) back.emplace(p_, n.stage);
      sigs_[i] = node(static_cast<int>(i), n);
    }
    while (p_.stage() < prog_.nodes[static_cast<size_t>(prog_.output)].stage) p_.next_stage();
    read_all(prog_.output);  // by the output register
    mark_unused();
    return sigs_[static_cast<size_t>(prog_.output)];
  }

 private:
  int width(int k) const { return prog_.nodes[static_cast<size_t>(k)].width; }
  std::string name(int i) const { return fmt::format("n{}", i); }

  // Bits [hi:lo] of node k, as the current stage sees them; recorded for the lint.
  std::string read(int k, int hi, int lo) {
    auto& used = reads_[{k, p_.stage()}];
    used.resize(static_cast<size_t>(width(k)));
    for (int b = lo; b <= hi; ++b) used[static_cast<size_t>(b)] = true;
    const Sig& s = sigs_[static_cast<size_t>(k)];
    if (hi == s.width - 1 && lo == 0) return p_.at(s);
    return hi == lo ? fmt::format("{}[{}]", p_.at(s), hi) : fmt::format("{}[{}:{}]", p_.at(s), hi, lo);
  }
  std::string read_all(int k) { return read(k, width(k) - 1, 0); }
  // Node k zero-extended or truncated to w bits.
  std::string ext(int k, int w) {
    const int wk = width(k);
    if (wk >= w) return read(k, w - 1, 0);
    return fmt::format("{{{}'d0, {}}}", w - wk, read_all(k));
  }
  std::string sext(int k, int w) {
    const int wk = width(k);
    if (wk >= w) return read(k, w - 1, 0);
    const std::string x = read_all(k);
    const std::string top = wk == 1 ? x : fmt::format("{}[{}]", x, wk - 1);
    return fmt::format("{{{}, {}}}", replicate(w - wk, top), x);
  }

  Sig node(int i, const FxNode& n) {
    const int w = n.width;
    auto wire = [&](const std::string& expr) { return p_.wire(name(i), w, expr); };
    switch (n.op) {
      case FxOp::kInput: break;
      case FxOp::kConst: return wire(wide_constant(w, n.value));
      case FxOp::kAdd: return wire(fmt::format("{} + {}", ext(n.a, w), ext(n.b, w)));
      case FxOp::kSub: return wire(fmt::format("{} - {}", ext(n.a, w), ext(n.b, w)));
      case FxOp::kMul: return wire(fmt::format("{} * {}", ext(n.a, w), ext(n.b, w)));
      case FxOp::kMulSigned:
        return wire(fmt::format("$unsigned($signed({}) * $signed({}))", sext(n.a, w), sext(n.b, w)));
      case FxOp::kShr: return wire(ext_of(read(n.a, width(n.a) - 1, n.shift), width(n.a) - n.shift, w));
      case FxOp::kShl:
        return wire(ext_of(fmt::format("{{{}, {}}}", read_all(n.a), constant(n.shift, 0)), width(n.a) + n.shift, w));
      case FxOp::kShrVar: return wire(fmt::format("{} >> {}", read_all(n.a), read_all(n.b)));
      case FxOp::kShlVar: return wire(fmt::format("{} << {}", ext(n.a, w), read_all(n.b)));
      case FxOp::kSext: return wire(sext(n.a, w));
      case FxOp::kSlice: return wire(read(n.a, n.shift + w - 1, n.shift));
      case FxOp::kConcat: return wire(fmt::format("{{{}, {}}}", read_all(n.a), read_all(n.b)));
      case FxOp::kLess: case FxOp::kEq: {
        const int c = std::max(width(n.a), width(n.b));
        return wire(fmt::format("{} {} {}", ext(n.a, c), n.op == FxOp::kLess ? "<" : "==", ext(n.b, c)));
      }
      case FxOp::kMux: return wire(fmt::format("{} ? {} : {}", read_all(n.a), ext(n.b, w), ext(n.c, w)));
      case FxOp::kAnd: return wire(fmt::format("{} & {}", ext(n.a, w), ext(n.b, w)));
      case FxOp::kOr: return wire(fmt::format("{} | {}", ext(n.a, w), ext(n.b, w)));
      case FxOp::kNot: return wire(fmt::format("~{}", ext(n.a, w)));
      case FxOp::kTable: return table(i, n);
      case FxOp::kLeadingZeros: {
        const Sig x = p_.wire(name(i) + "_x", width(n.a), read_all(n.a));
        return leading_zeros(p_, name(i) + "_lz", x);
      }
      case FxOp::kRoundPack: return round(i, n);
    }
    throw std::logic_error("transcendental unit: node kind without Verilog");
  }

  // `expr` of `from` bits as `to` bits.
  static std::string ext_of(const std::string& expr, int from, int to) {
    if (from == to) return expr;
    if (from < to) return fmt::format("{{{}'d0, {}}}", to - from, expr);
    throw std::logic_error("transcendental unit: a shift narrows its operand");
  }

  // A tree of 2:1 multiplexers on the index bits, lowest bit first, over constant leaves
  // (entries past the table are 0, as ir::run reads them): Yosys folds the constants into
  // LUTs quickly, where a part-select of one long constant became a wide shifter.
  Sig table(int i, const FxNode& n) {
    const std::vector<u128>& entries = prog_.tables[static_cast<size_t>(n.table)];
    const int w = n.width, iw = width(n.a);
    std::vector<std::string> level;
    for (size_t k = 0; k < (size_t{1} << iw); ++k) level.push_back(wide_constant(w, k < entries.size() ? entries[k] : 0));
    for (int b = 0; b < iw; ++b) {
      const std::string sel = read(n.a, b, b);
      std::string cat;
      const size_t half = level.size() / 2;
      for (size_t j = half; j-- > 0;)
        cat += fmt::format("{}{} ? {} : {}", cat.empty() ? "" : ", ", sel, level[2 * j + 1], level[2 * j]);
      const Sig s = p_.wire(b + 1 == iw ? name(i) : fmt::format("{}_l{}", name(i), b + 1), static_cast<int>(half) * w,
                            half == 1 ? cat : "{" + cat + "}");
      level.assign(half, "");
      for (size_t j = 0; j < half; ++j) level[j] = fmt::format("{}[{}:{}]", s.name, (j + 1) * w - 1, j * w);
      if (b + 1 == iw) return s;
    }
    throw std::logic_error("transcendental unit: a table without index bits");
  }

  Sig round(int i, const FxNode& n) {
    const FloatFormat f = float_format(f_.type);
    const int need = f.precision() + 1;
    Sig sig = sigs_[static_cast<size_t>(n.b)];
    const int ws = std::max(width(n.b), need);
    // a narrower significand gains zeros below (the same value)
    sig = p_.wire(name(i) + "_sig", ws, ws == width(n.b) ? read_all(n.b)
                                                          : fmt::format("{{{}, {}}}", read_all(n.b), constant(ws - width(n.b), 0)));
    const int ew = std::max({width(n.c), bits_for(ws) + 2, f.exponent_bits + 3});
    const Sig top = p_.wire(name(i) + "_top", ew, sext(n.c, ew));
    const Sig sticky = p_.wire(name(i) + "_sticky", 1, read_all(n.d));
    const Normalized norm = normalize(p_, f, name(i) + "_norm",
                                      {.sig = sig, .top = top, .sticky = sticky, .has_sticky = true, .may_underflow = true});
    return round_and_pack(p_, f, name(i) + "_round", read_all(n.a), norm);
  }

  // Bits no logic reads, per node at the last stage that reads it (earlier copies feed
  // the next register whole), go to the unused list.
  void mark_unused() {
    std::map<int, int> last;
    for (const auto& [key, used] : reads_) last[key.first] = std::max(last.count(key.first) ? last[key.first] : 0, key.second);
    for (size_t k = 1; k < prog_.nodes.size(); ++k) {
      const Sig& s = sigs_[k];
      if (!last.count(static_cast<int>(k))) {
        p_.unused(s.name);
        continue;
      }
      const int stage = last[static_cast<int>(k)];
      const std::vector<bool>& used = reads_[{static_cast<int>(k), stage}];
      const Pipeline::Rewind back(p_, stage);
      const std::string copy = p_.at(s);
      for (int b = 0; b < s.width;) {
        if (used[static_cast<size_t>(b)]) { ++b; continue; }
        int e = b;
        while (e + 1 < s.width && !used[static_cast<size_t>(e + 1)]) ++e;
        p_.unused(s.width == 1 ? copy : b == e ? fmt::format("{}[{}]", copy, b) : fmt::format("{}[{}:{}]", copy, e, b));
        b = e + 1;
      }
    }
  }

  Pipeline& p_;
  const ir::FxProgram& prog_;
  FloatFormat f_;
  std::vector<Sig> sigs_;
  std::map<std::pair<int, int>, std::vector<bool>> reads_;  // (node, stage) -> bits read there
};

}  // namespace

Sig build_fx_datapath(Pipeline& p, const ir::FxProgram& program, const FloatFormat& f, const Sig& a) {
  return Printer(p, program, f, a).print();
}

Sig build_transcendental(Pipeline& p, ir::TranscendentalOp op, const FloatFormat& f, const Sig& a) {
  return build_fx_datapath(p, ir::transcendental_program(op, f.type), f, a);
}

}  // namespace hlsgym::rtl::float_detail
