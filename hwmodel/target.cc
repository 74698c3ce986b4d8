#include "hwmodel/target.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "hwmodel/timing.h"
#include "ir/error.h"

namespace hlsgym::hwmodel {
namespace fs = std::filesystem;

namespace {

std::string read_whole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error("cannot open target file", {p.string()});
  std::ostringstream ss;
  ss << in.rdbuf();
  // CRLF and CR-only line ends read as LF (yaml-cpp reads no CR-only file), so errors
  // name the right line on any of them.
  const std::string raw = std::move(ss).str();
  std::string text;
  text.reserve(raw.size());
  for (size_t k = 0; k < raw.size(); ++k) {
    if (raw[k] != '\r') text += raw[k];
    else if (k + 1 >= raw.size() || raw[k + 1] != '\n') text += '\n';
  }
  return text;
}

bool looks_like_path(const std::string& s) {
  const std::string ext = fs::path(s).extension().string();
  return s.find('/') != std::string::npos || ext == ".yaml" || ext == ".yml";
}

}  // namespace

std::vector<std::string> available_targets(const std::vector<fs::path>& search_dirs) {
  std::vector<std::string> names;
  for (const fs::path& dir : search_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
    if (!names.empty()) break;
  }
  std::sort(names.begin(), names.end());
  return names;
}

Target load_target(const std::string& name_or_path, const std::vector<fs::path>& search_dirs) {
  if (name_or_path.empty()) throw Error("empty target name (expected fpga, cpu or a .yaml file)");
  if (looks_like_path(name_or_path)) return parse_target(read_whole(name_or_path), name_or_path);
  for (const fs::path& dir : search_dirs) {
    const fs::path p = dir / (name_or_path + ".yaml");
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return parse_target(read_whole(p), p);
  }
  std::string looked, found;
  for (const fs::path& d : search_dirs) looked += (looked.empty() ? "" : ", ") + d.string();
  for (const std::string& n : available_targets(search_dirs)) found += (found.empty() ? "" : ", ") + n;
  throw Error("unknown target '" + name_or_path + "' (looked in " + (looked.empty() ? "no folder" : looked) +
              "; available: " + (found.empty() ? "none" : found) + ")");
}

std::vector<BramAspect> Target::bram_aspect_ratios() const {
  if (!bram_aspects.empty()) return bram_aspects;
  std::vector<BramAspect> r;
  const int64_t data_bits = bram_bits / 9 * 8;  // 16 Kib of an 18 Kib block hold data at widths below 9
  for (int width = 1; width <= bram_width_bits; width = width == 4 ? 9 : width * 2) {
    const int64_t depth = (width < 9 ? data_bits : bram_bits) / width;
    if (depth > 0) r.push_back({depth, width});
  }
  return r;
}

const FloatUnitCost* Target::float_unit(const std::string& unit, ir::ElementType format) const {
  const auto row = float_units.find(unit);
  if (row == float_units.end()) return nullptr;
  const auto cell = row->second.find(format);
  return cell == row->second.end() ? nullptr : &cell->second;
}

namespace {

// The cost of `words` words from the calibrated `column` (mux_luts_per_bit or decode_luts):
// the next larger row, or the line between the neighbouring rows from `interpolate_from`
// up, or beyond the last row that row scaled by the depth.
double register_file_cost(const RegisterFileCost& rf, const std::vector<double>& column, int64_t words) {
  const std::vector<double>& depths = rf.depths;
  const double w = static_cast<double>(words);
  size_t k = 0;
  while (k + 1 < depths.size() && depths[k] < w) ++k;
  if (w > depths[k]) return column[k] * w / depths[k];
  if (k > 0 && w < depths[k] && rf.interpolate_from > 0 && depths[k - 1] >= rf.interpolate_from)
    return column[k - 1] + (column[k] - column[k - 1]) * (w - depths[k - 1]) / (depths[k] - depths[k - 1]);
  return column[k];
}

}  // namespace

double RegisterFileCost::port_luts(int64_t depth, int bits) const {
  if (depth <= 1 || depths.empty()) return 0;
  return bits * register_file_cost(*this, mux_luts_per_bit, depth);
}

double RegisterFileCost::further_port_luts(int64_t depth, int bits) const {
  if (further_port_luts_per_bit.empty()) return port_luts(depth, bits);
  if (depth <= 1 || depths.empty()) return 0;
  return bits * register_file_cost(*this, further_port_luts_per_bit, depth);
}

double RegisterFileCost::decode(int64_t words) const {
  if (words <= 1 || depths.empty()) return 0;
  return register_file_cost(*this, decode_luts, words);
}

double RegisterFileCost::luts(int64_t words, int bits, int read_ports) const {
  if (read_ports <= 0) return decode(words);
  return port_luts(words, bits) + (read_ports - 1) * further_port_luts(words, bits) + decode(words);
}

double LutsByWidth::luts_for(int width) const {
  if (bits.empty()) return 0;
  for (size_t k = 0; k < bits.size(); ++k)
    if (static_cast<double>(width) <= bits[k]) return luts[k];
  return luts.back() * static_cast<double>(width) / bits.back();
}

namespace {
// y at x on the polyline (scale(xs), ys), extended beyond its ends by the nearest segment
// (xs increasing, scale monotonic).
template <typename Scale>
double on_polyline(const std::vector<double>& xs, const std::vector<double>& ys, double x, Scale scale) {
  size_t k = 1;
  while (k + 1 < xs.size() && x > scale(xs[k])) ++k;
  const double x0 = scale(xs[k - 1]), x1 = scale(xs[k]);
  return ys[k - 1] + (x - x0) / (x1 - x0) * (ys[k] - ys[k - 1]);
}
double identity(double x) { return x; }

// A per-width row: linear between the listed widths, in proportion beyond the last.
double per_width(const std::vector<double>& bits, const std::vector<double>& row, int width) {
  if (bits.empty()) return 0;
  if (bits.size() == 1 || width >= bits.back()) return row.back() * width / bits.back();
  return std::max(0.0, on_polyline(bits, row, width, identity));
}
}  // namespace

double ControlCost::at(const std::vector<double>& row, int width) const { return per_width(bits, row, width); }

std::optional<double> LiteralOpCost::luts_for(ir::Opcode op, int width) const {
  const auto it = luts.find(op);
  if (it == luts.end()) return std::nullopt;
  return per_width(bits, it->second, width);
}

// Word multiplexers grow by one level per doubling: interpolate in log2(words).
double TimingModel::read_port(int64_t words, int bits) const {
  const double levels = ceil_log2(std::max<int64_t>(words, 1));
  auto at = [&](const std::vector<double>& ns) { return on_polyline(read_words, ns, levels, [](double w) { return std::log2(w); }); };
  const double f = std::clamp((bits - 16) / 16.0, 0.0, 1.0);
  return (1 - f) * at(read_ns_16bit) + f * at(read_ns_32bit);
}

// A select among n grows by a level per doubling of n, as the word multiplexer does.
double TimingModel::shared_unit(int64_t tasks) const {
  if (tasks <= 1) return 0;
  return on_polyline(shared_tasks, shared_ns, std::log2(static_cast<double>(tasks)), [](double n) { return std::log2(n); });
}

double TimingModel::write_port(int64_t words) const {
  if (words <= 1) return 0;
  return on_polyline(write_words, write_ns, std::log2(static_cast<double>(words)), [](double n) { return std::log2(n); });
}

double TimingModel::gather_start(int index_bits) const {
  const double x = std::clamp<double>(index_bits, gather_bits.front(), gather_bits.back());
  return on_polyline(gather_bits, gather_ns, x, identity);
}

double TimingModel::route_factor(double logic_cells) const {
  const double x = std::clamp(logic_cells, route_cells.front(), route_cells.back());
  return on_polyline(route_cells, route_factors, x, identity);
}

double TimingModel::op(std::string_view kind, int bits) const {
  const auto it = op_ns.find(kind);
  if (it == op_ns.end()) throw Error("timing model has no operation '" + std::string(kind) + "'");
  return on_polyline(op_bits, it->second, bits, identity);
}

}  // namespace hlsgym::hwmodel
