// designs/targets/*.yaml -> Target, with strict validation: every map lists exactly the
// fields its kind allows, each value is checked for type and range, and every error
// names the file, the line and the field path (e.g. "units.fp_add.latency").
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <span>

#include "hwmodel/target.h"
#include "ir/element_type.h"
#include "ir/error.h"
#include "ir/spelling.h"

namespace hlsgym::hwmodel {
namespace {
using Keys = std::vector<std::string_view>;

class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    const YAML::Mark mk = n.Mark();
    throw Error(msg, {file_.string(), mk.line >= 0 ? mk.line + 1 : 0, mk.column >= 0 ? mk.column + 1 : 0});
  }

  // The map at `path` has exactly the fields `required` (plus any of `optional`).
  void expect_fields(const YAML::Node& map, const std::string& path, const Keys& required,
                     const Keys& optional = {}) const {
    if (!map.IsMap()) fail(map, where(path) + "must be a map with fields " + join(required));
    Keys all = required;
    all.insert(all.end(), optional.begin(), optional.end());
    for (auto kv : map) {
      const std::string k = kv.first.as<std::string>();
      if (std::find(all.begin(), all.end(), k) == all.end())
        fail(kv.first, "unknown field '" + dotted(path, k) + "'" + did_you_mean(k, all) +
                           " (expected " + join(all) + ")");
    }
    for (std::string_view k : required)
      if (!map[std::string(k)]) fail(map, "missing field '" + dotted(path, std::string(k)) + "'");
  }

  double number(const YAML::Node& map, const std::string& path, const char* key, double min,
                double max, bool min_exclusive = false) const {
    const YAML::Node n = map[key];
    const std::string f = dotted(path, key);
    double v = 0;
    if (!n.IsScalar()) fail(n, "field '" + f + "' must be a number");
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, "field '" + f + "' must be a number, got '" + n.as<std::string>() + "'");
    }
    const bool low = min_exclusive ? v <= min : v < min;
    if (!std::isfinite(v) || low || v > max)
      fail(n, "field '" + f + "' must be " + range_text(min, max, min_exclusive) + ", got " + n.as<std::string>());
    return v;
  }
  int64_t integer(const YAML::Node& map, const std::string& path, const char* key, int64_t min,
                  int64_t max) const {
    const double v = number(map, path, key, static_cast<double>(min), static_cast<double>(max));
    if (v != std::floor(v)) fail(map[key], "field '" + dotted(path, key) + "' must be a whole number");
    return static_cast<int64_t>(v);
  }
  std::string text(const YAML::Node& map, const std::string& path, const char* key) const {
    const YAML::Node n = map[key];
    if (!n.IsScalar() || n.as<std::string>().empty())
      fail(n, "field '" + dotted(path, key) + "' must be a non-empty string");
    return n.as<std::string>();
  }

  static std::string dotted(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  static std::string where(const std::string& path) { return path.empty() ? "a target " : "'" + path + "' "; }
  static std::string join(const Keys& k) {
    std::string s;
    for (size_t i = 0; i < k.size(); ++i) s += (i ? ", " : "") + std::string(k[i]);
    return s;
  }
  static std::string range_text(double min, double max, bool excl) {
    auto fmt = [](double x) {
      std::string s = std::to_string(x);
      s.erase(s.find_last_not_of('0') + 1);
      if (s.back() == '.') s.pop_back();
      return s;
    };
    if (min == 0 && max >= 1e15) return excl ? "a positive number" : "a non-negative number";
    if (min == 0) return std::string(excl ? "a positive number" : "a non-negative number") + " no larger than " + fmt(max);
    return "in " + std::string(excl ? "(" : "[") + fmt(min) + ", " + fmt(max) + "]";
  }

  std::filesystem::path file_;
};

// The list of numbers at `section`.`key`: non-negative, or with `increasing` positive and
// strictly increasing.
std::vector<double> number_list(const Reader& r, const YAML::Node& section_node, const std::string& section,
                                const char* key, bool increasing) {
  const YAML::Node n = section_node[key];
  const std::string f = Reader::dotted(section, key);
  if (!n.IsSequence() || n.size() == 0) r.fail(n, "field '" + f + "' must be a non-empty list of numbers");
  std::vector<double> v;
  for (size_t k = 0; k < n.size(); ++k) {
    double x = 0;
    try {
      x = n[k].as<double>();
    } catch (const YAML::Exception&) {
      r.fail(n[k], "field '" + f + "' must list numbers");
    }
    if (!std::isfinite(x) || x < 0 || (increasing && x <= 0))
      r.fail(n[k], "field '" + f + (increasing ? "' must list positive numbers" : "' must list non-negative numbers"));
    if (increasing && k > 0 && x <= v.back()) r.fail(n[k], "field '" + f + "' must increase");
    v.push_back(x);
  }
  return v;
}

constexpr double kHuge = 1e18;
const Keys kFpgaTop = {"target", "kind", "description", "clock_mhz", "static_mw", "default_lanes",
                       "resources", "dsp_multiplier", "bram", "energy_factors", "memory", "units"};
const Keys kCpuTop = {"target", "kind", "description", "clock_mhz", "static_mw", "cores",
                      "simd_bits", "overhead_cycles", "memory", "units"};

void read_fpga_unit(const Reader& r, const YAML::Node& n, const std::string& path, UnitClass c, UnitSpec& u) {
  if (is_mac(c)) {  // a multiplier feeding an adder: the instance count is its own, and
    // an int_mac's LUTs summing a product cut over several DSP slices when measured
    if (c == UnitClass::kIntMac) r.expect_fields(n, path, {"instances"}, {"split_product_lut"});
    else r.expect_fields(n, path, {"instances"});
    u.instances = static_cast<int>(r.integer(n, path, "instances", 1, 1'000'000));
    if (n["split_product_lut"]) u.split_product_lut = r.number(n, path, "split_product_lut", 0, kHuge);
    return;
  }
  r.expect_fields(n, path, {"latency", "lut", "ff", "dsp", "energy_pj", "instances"});
  u.latency = static_cast<int>(r.integer(n, path, "latency", 1, 10'000));
  u.lut = r.number(n, path, "lut", 0, kHuge);
  u.ff = r.number(n, path, "ff", 0, kHuge);
  const bool mul = c == UnitClass::kIntMul || c == UnitClass::kFpMul;
  if (n["dsp"].IsScalar() && n["dsp"].as<std::string>() == "packed") {
    if (!mul) r.fail(n["dsp"], "field '" + path + ".dsp': only int_mul and fp_mul may be 'packed'");
    u.dsp_packed = true;
  } else {
    u.dsp = r.number(n, path, "dsp", 0, kHuge);
  }
  u.energy_pj = r.number(n, path, "energy_pj", 0, kHuge);
  u.instances = static_cast<int>(r.integer(n, path, "instances", 1, 1'000'000));
}

void read_cpu_unit(const Reader& r, const YAML::Node& n, const std::string& path, UnitClass c, UnitSpec& u) {
  if (is_mac(c)) r.expect_fields(n, path, {"cycles_per_vector"});
  else r.expect_fields(n, path, {"cycles_per_vector", "energy_pj"});
  u.cycles_per_vector = r.number(n, path, "cycles_per_vector", 0, 1e6, true);
  if (!is_mac(c)) u.energy_pj = r.number(n, path, "energy_pj", 0, kHuge);
}

void read_units(const Reader& r, const YAML::Node& units, Target& t) {
  Keys all;
  for (int i = 0; i < kUnitClassCount; ++i) all.push_back(unit_class_name(static_cast<UnitClass>(i)));
  r.expect_fields(units, "units", all);
  for (int i = 0; i < kUnitClassCount; ++i) {
    const auto c = static_cast<UnitClass>(i);
    const std::string path = "units." + std::string(unit_class_name(c));
    const YAML::Node n = units[std::string(unit_class_name(c))];
    if (t.is_fpga()) read_fpga_unit(r, n, path, c, t.unit(c));
    else read_cpu_unit(r, n, path, c, t.unit(c));
  }
}

void read_memory(const Reader& r, const YAML::Node& mem, Target& t) {
  const std::vector<std::string> fpga_levels = {"on_chip", "dram"};
  if (!mem.IsSequence() || mem.size() == 0)
    r.fail(mem, "field 'memory' must be a list of levels, smallest first, the last one 'dram'");
  for (size_t k = 0; k < mem.size(); ++k) {
    const YAML::Node n = mem[k];
    const std::string path = "memory[" + std::to_string(k) + "]";
    r.expect_fields(n, path, {"level", "capacity_bytes", "bytes_per_cycle", "pj_per_64bit"}, {"latency"});
    MemoryLevel l;
    l.name = r.text(n, path, "level");
    l.capacity_bytes = r.integer(n, path, "capacity_bytes", 1, INT64_MAX / 2);
    l.bytes_per_cycle = r.number(n, path, "bytes_per_cycle", 0, 1e9, true);
    l.pj_per_64bit = r.number(n, path, "pj_per_64bit", 0, kHuge);
    if (n["latency"]) l.latency = static_cast<int>(r.integer(n, path, "latency", 0, 1'000'000));
    if (!t.memory.empty() && l.capacity_bytes <= t.memory.back().capacity_bytes)
      r.fail(n["capacity_bytes"], "field '" + path + ".capacity_bytes' must exceed the previous level's");
    if (t.is_fpga() && (k >= fpga_levels.size() || l.name != fpga_levels[k]))
      r.fail(n["level"], "field '" + path + ".level': an fpga target has levels on_chip, dram in this order");
    t.memory.push_back(std::move(l));
  }
  if (t.memory.back().name != "dram") r.fail(mem, "field 'memory': the last level must be 'dram'");
  if (t.is_fpga() && t.memory.size() != 2) r.fail(mem, "field 'memory': an fpga target has levels on_chip, dram");
}

// float_units: {unit: {format: {latency, lut, ff, dsp}, ...}, ...}, formats f32/f16/bf16.
void read_float_units(const Reader& r, const YAML::Node& table, Target& t) {
  if (!table.IsMap()) r.fail(table, "field 'float_units' must map unit names to {format: {latency, lut, ff, dsp}}");
  for (auto unit : table) {
    const std::string name = unit.first.as<std::string>(), path = "float_units." + name;
    if (!unit.second.IsMap() || unit.second.size() == 0)
      r.fail(unit.second, "field '" + path + "' must map formats (f32, f16, bf16) to {latency, lut, ff, dsp}");
    for (auto cell : unit.second) {
      const std::string format = cell.first.as<std::string>(), at = path + "." + format;
      const auto type = ir::element_type_from_name(format);
      if (!type || (*type != ir::ElementType::kF32 && *type != ir::ElementType::kF16 && *type != ir::ElementType::kBF16))
        r.fail(cell.first, "field '" + at + "': the format must be f32, f16 or bf16");
      r.expect_fields(cell.second, at, {"latency", "lut", "ff", "dsp"});
      t.float_units[name][*type] = {static_cast<int>(r.integer(cell.second, at, "latency", 1, 10'000)),
                                    r.number(cell.second, at, "lut", 0, kHuge), r.number(cell.second, at, "ff", 0, kHuge),
                                    r.number(cell.second, at, "dsp", 0, kHuge)};
    }
  }
}

void read_fpga(const Reader& r, const YAML::Node& root, Target& t) {
  t.default_lanes = static_cast<int>(r.integer(root, "", "default_lanes", 1, 65536));
  const YAML::Node res = root["resources"];
  r.expect_fields(res, "resources", {"dsp", "lut", "ff", "bram18k"}, {"logic_cells"});
  t.resources = {r.number(res, "resources", "dsp", 0, kHuge, true), r.number(res, "resources", "lut", 0, kHuge, true),
                 r.number(res, "resources", "ff", 0, kHuge, true), r.number(res, "resources", "bram18k", 0, kHuge, true)};
  if (res["logic_cells"]) t.resources.logic_cells = r.number(res, "resources", "logic_cells", 0, kHuge, true);
  const YAML::Node dsp = root["dsp_multiplier"];
  r.expect_fields(dsp, "dsp_multiplier", {"a_bits", "b_bits"}, {"signed_only", "min_out_bits", "min_slice_bits"});
  t.dsp_a_bits = static_cast<int>(r.integer(dsp, "dsp_multiplier", "a_bits", 1, 128));
  t.dsp_b_bits = static_cast<int>(r.integer(dsp, "dsp_multiplier", "b_bits", 1, 128));
  if (dsp["signed_only"]) {
    const std::string v = dsp["signed_only"].IsScalar() ? dsp["signed_only"].as<std::string>() : "";
    if (v != "true" && v != "false") r.fail(dsp["signed_only"], "field 'dsp_multiplier.signed_only' must be true or false");
    t.dsp_signed_only = v == "true";
  }
  if (dsp["min_slice_bits"])
    t.dsp_min_slice_bits = static_cast<int>(r.integer(dsp, "dsp_multiplier", "min_slice_bits", 1, 128));
  if (dsp["min_out_bits"]) t.dsp_min_out_bits = static_cast<int>(r.integer(dsp, "dsp_multiplier", "min_out_bits", 1, 256));
  const YAML::Node bram = root["bram"];
  r.expect_fields(bram, "bram", {"bits", "width_bits", "register_threshold_bits"}, {"aspects"});
  t.bram_bits = r.integer(bram, "bram", "bits", 1, INT64_MAX / 2);
  t.bram_width_bits = static_cast<int>(r.integer(bram, "bram", "width_bits", 1, 4096));
  t.register_threshold_bits = r.integer(bram, "bram", "register_threshold_bits", 0, INT64_MAX / 2);
  if (const YAML::Node as = bram["aspects"]) {  // [[depth, width], ...], each within one block
    if (!as.IsSequence() || as.size() == 0) r.fail(as, "field 'bram.aspects' must be a list of [depth, width] pairs");
    for (const YAML::Node& a : as) {
      if (!a.IsSequence() || a.size() != 2) r.fail(a, "field 'bram.aspects' must list [depth, width] pairs");
      BramAspect x;
      try {
        x = {a[0].as<int64_t>(), a[1].as<int>()};
      } catch (const YAML::Exception&) {
        r.fail(a, "field 'bram.aspects' must list whole-number [depth, width] pairs");
      }
      if (x.depth < 1 || x.width < 1 || x.width > t.bram_width_bits || x.depth * x.width > t.bram_bits)
        r.fail(a, "field 'bram.aspects': each [depth, width] must fit the block (width <= bram.width_bits, "
                  "depth x width <= bram.bits)");
      t.bram_aspects.push_back(x);
    }
  }
  if (const YAML::Node rf = root["register_file"]) {
    r.expect_fields(rf, "register_file", {"depths", "mux_luts_per_bit", "decode_luts"},
                    {"interpolate_from", "further_port_luts_per_bit"});
    auto list = [&](const char* key) { return number_list(r, rf, "register_file", key, false); };
    RegisterFileCost c{list("depths"), list("mux_luts_per_bit"), list("decode_luts")};
    if (rf["further_port_luts_per_bit"]) c.further_port_luts_per_bit = list("further_port_luts_per_bit");
    if (rf["interpolate_from"]) c.interpolate_from = r.number(rf, "register_file", "interpolate_from", 2, 1e9);
    if (c.mux_luts_per_bit.size() != c.depths.size() || c.decode_luts.size() != c.depths.size() ||
        (!c.further_port_luts_per_bit.empty() && c.further_port_luts_per_bit.size() != c.depths.size()))
      r.fail(rf, "register_file: depths, mux_luts_per_bit, decode_luts and further_port_luts_per_bit must have the "
                 "same length");
    for (size_t k = 0; k < c.depths.size(); ++k)
      if (c.depths[k] < 2 || (k > 0 && c.depths[k] <= c.depths[k - 1]))
        r.fail(rf["depths"], "register_file.depths must increase from at least 2");
    t.register_file = std::move(c);
  }
  // `{bits: [...], luts: [...]}` rows of LUTs by operand width (variable_shift_luts, int_divide_luts)
  auto luts_by_width = [&](const char* name, LutsByWidth& into) {
    const YAML::Node n = root[name];
    if (!n) return;
    r.expect_fields(n, name, {"bits", "luts"});
    LutsByWidth c{number_list(r, n, name, "bits", true), number_list(r, n, name, "luts", true)};
    if (c.bits.size() != c.luts.size()) r.fail(n, std::string(name) + ": bits and luts must have the same length");
    into = std::move(c);
  };
  luts_by_width("variable_shift_luts", t.variable_shift);
  luts_by_width("int_divide_luts", t.int_divide);
  if (const YAML::Node ops = root["int_alu_op_luts"]) {
    if (!ops.IsMap()) r.fail(ops, "int_alu_op_luts must map op names to LUTs");
    for (const auto& kv : ops) {
      const std::string name = kv.first.as<std::string>();
      const auto op = ir::opcode_from_name(name);
      if (!op) r.fail(kv.first, "int_alu_op_luts: unknown op '" + name + "'");
      t.alu_op_luts[*op] = r.number(ops, "int_alu_op_luts", name.c_str(), 0, 1e6);
    }
  }
  if (const YAML::Node lo = root["int_alu_literal_luts"]) {  // {bits: [...], OP: [one per bits], ...}
    if (!lo.IsMap()) r.fail(lo, "int_alu_literal_luts must map bits and op names to lists");
    LiteralOpCost c;
    c.bits = number_list(r, lo, "int_alu_literal_luts", "bits", true);
    for (const auto& kv : lo) {
      const std::string name = kv.first.as<std::string>();
      if (name == "bits") continue;
      const auto op = ir::opcode_from_name(name);
      if (!op) r.fail(kv.first, "int_alu_literal_luts: unknown op '" + name + "'");
      c.luts[*op] = number_list(r, lo, "int_alu_literal_luts", name.c_str(), false);
      if (c.luts[*op].size() != c.bits.size())
        r.fail(kv.second, "int_alu_literal_luts: '" + name + "' must have one entry per bits");
    }
    t.alu_literal_ops = std::move(c);
  }
  if (const YAML::Node cc = root["control"]) {
    const char* rows[] = {"bits", "counter_luts", "counter_ffs", "compare_luts", "adder_luts", "scale_luts"};
    r.expect_fields(cc, "control", {rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]}, {"timer_luts"});
    auto list = [&](const char* key) { return number_list(r, cc, "control", key, std::string_view(key) == "bits"); };
    ControlCost c{list("bits"), list("counter_luts"), list("counter_ffs"), list("compare_luts"), list("adder_luts"),
                  list("scale_luts")};
    if (cc["timer_luts"]) c.timer_luts = list("timer_luts");
    else c.timer_luts.assign(c.bits.size(), 0.0);  // absent: the increment is the carry chain alone
    for (const auto* row : {&c.counter_luts, &c.counter_ffs, &c.compare_luts, &c.adder_luts, &c.scale_luts, &c.timer_luts})
      if (row->size() != c.bits.size()) r.fail(cc, "control: every row must have as many entries as bits");
    t.control = std::move(c);
  }
  if (const YAML::Node tm = root["timing"]) {
    r.expect_fields(tm, "timing", {"lut_ns", "carry_ns", "read_port", "ops", "shared_unit", "write_port", "gather_start", "route"});
    TimingModel m;
    m.lut_ns = r.number(tm, "timing", "lut_ns", 0, 1000, true);
    m.carry_ns = r.number(tm, "timing", "carry_ns", 0, 1000, true);
    // a measured curve: increasing x, one y per x, at least two points
    // y (and y2, when given) over x
    auto curve = [&](const char* key, const char* x, const char* y, std::vector<double>& xs, std::vector<double>& ys,
                     const char* y2 = nullptr, std::vector<double>* ys2 = nullptr) {
      const std::string section = std::string("timing.") + key;
      const YAML::Node n = tm[key];
      r.expect_fields(n, section, y2 ? Keys{x, y, y2} : Keys{x, y});
      xs = number_list(r, n, section, x, true);
      for (auto [name, list] : {std::pair{y, &ys}, std::pair{y2, ys2}}) {
        if (!name) continue;
        *list = number_list(r, n, section, name, false);
        if (xs.size() != list->size() || xs.size() < 2) r.fail(n, section + ": " + x + " and " + name + " must have the same length, at least 2");
      }
    };
    curve("read_port", "words", "ns_16bit", m.read_words, m.read_ns_16bit, "ns_32bit", &m.read_ns_32bit);
    curve("shared_unit", "tasks", "ns", m.shared_tasks, m.shared_ns);
    curve("write_port", "words", "ns", m.write_words, m.write_ns);
    curve("gather_start", "bits", "ns", m.gather_bits, m.gather_ns);
    curve("route", "logic_cells", "factor", m.route_cells, m.route_factors);
    for (double f : m.route_factors)
      if (f <= 0) r.fail(tm["route"], "timing.route: every factor must be positive");
    const YAML::Node ops = tm["ops"];
    r.expect_fields(ops, "timing.ops", {"bits", "logic", "add", "compare", "compare_unsigned", "max", "abs", "clamp", "shift", "mac"});
    m.op_bits = number_list(r, ops, "timing.ops", "bits", true);
    if (m.op_bits.size() < 2) r.fail(ops["bits"], "timing.ops.bits must list at least 2 widths");
    for (const char* k : {"logic", "add", "compare", "compare_unsigned", "max", "abs", "clamp", "shift", "mac"}) {
      m.op_ns[k] = number_list(r, ops, "timing.ops", k, false);
      if (m.op_ns[k].size() != m.op_bits.size()) r.fail(ops[k], std::string("timing.ops.") + k + " must have one delay per bits entry");
    }
    t.timing = std::move(m);
  }
  if (const YAML::Node pnr = root["pnr"]) {
    r.expect_fields(pnr, "pnr", {"family", "device", "package"});
    t.pnr = {r.text(pnr, "pnr", "family"), r.text(pnr, "pnr", "device"), r.text(pnr, "pnr", "package")};
    if (t.pnr.family != "ice40") r.fail(pnr["family"], "field 'pnr.family': only ice40 is supported, got '" + t.pnr.family + "'");
  }
  if (const YAML::Node fu = root["float_units"]) read_float_units(r, fu, t);
  const YAML::Node ef = root["energy_factors"];
  r.expect_fields(ef, "energy_factors", {"fabric", "hard_block"});
  t.fabric_energy_factor = r.number(ef, "energy_factors", "fabric", 0, 1e6, true);
  t.hard_block_energy_factor = r.number(ef, "energy_factors", "hard_block", 0, 1e6, true);
}

void check_fpga_consistency(const Reader& r, const YAML::Node& root, const Target& t) {
  const double bram_bytes = t.resources.bram18k * static_cast<double>(t.bram_bits) / 8;
  if (static_cast<double>(t.memory[0].capacity_bytes) > bram_bytes)
    r.fail(root["memory"][0]["capacity_bytes"],
           "field 'memory[0].capacity_bytes' exceeds the part's BRAM (" +
               std::to_string(static_cast<int64_t>(bram_bytes)) + " bytes = bram18k x bram.bits / 8)");
  for (UnitClass c : {UnitClass::kIntMul, UnitClass::kFpMul})
    if (!t.unit(c).dsp_packed && t.unit(c).dsp > t.resources.dsp)
      r.fail(root["units"][std::string(unit_class_name(c))]["dsp"], "one " + std::string(unit_class_name(c)) +
                                                                       " lane needs more DSPs than the part has");
}

}  // namespace

Target parse_target(const std::string& yaml_text, const std::filesystem::path& file) {
  Reader r(file);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw Error("invalid YAML: " + e.msg, {file.string(), e.mark.line + 1, e.mark.column + 1});
  }
  if (!root.IsMap()) r.fail(root, "a target must be a YAML map with fields target, kind, clock_mhz, ...");
  Target t;
  t.file = file;
  try {
    if (!root["kind"]) r.fail(root, "missing field 'kind' (fpga or cpu)");
    const std::string kind = r.text(root, "", "kind");
    if (kind != "fpga" && kind != "cpu") r.fail(root["kind"], "field 'kind' must be fpga or cpu, got '" + kind + "'");
    t.kind = kind == "fpga" ? TargetKind::kFpga : TargetKind::kCpu;
    if (t.is_fpga()) r.expect_fields(root, "", kFpgaTop, {"register_file", "pnr", "variable_shift_luts", "int_divide_luts", "control", "timing", "float_units", "int_alu_op_luts", "int_alu_literal_luts"});
    else r.expect_fields(root, "", kCpuTop);
    t.name = r.text(root, "", "target");
    t.description = r.text(root, "", "description");
    t.clock_mhz = r.number(root, "", "clock_mhz", 0, 100'000, true);
    t.static_mw = r.number(root, "", "static_mw", 0, kHuge);
    if (t.is_fpga()) {
      read_fpga(r, root, t);
    } else {
      t.cores = static_cast<int>(r.integer(root, "", "cores", 1, 4096));
      t.simd_bits = static_cast<int>(r.integer(root, "", "simd_bits", 8, 4096));
      t.overhead_cycles = static_cast<int>(r.integer(root, "", "overhead_cycles", 0, 1'000'000));
    }
    read_memory(r, root["memory"], t);
    read_units(r, root["units"], t);
    if (t.is_fpga()) check_fpga_consistency(r, root, t);
  } catch (const YAML::Exception& e) {
    throw Error("invalid target: " + e.msg, {file.string(), e.mark.line + 1, e.mark.column + 1});
  }
  return t;
}

}  // namespace hlsgym::hwmodel
