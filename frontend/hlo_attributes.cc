// Attribute values hlsgym interprets (ir::Attributes); all others stay verbatim.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "frontend/hlo_syntax.h"

namespace hlsgym::frontend {
namespace {
using ir::Opcode;

std::vector<int64_t> read_int_list(TextCursor& c) {
  std::vector<int64_t> v;
  c.expect('{', "to open a list of integers");
  if (c.consume('}')) return v;
  do {
    int64_t x;
    if (!c.integer(x)) c.fail("expected an integer in the list");
    v.push_back(x);
  } while (c.consume(','));
  c.expect('}', "to close the list of integers");
  return v;
}

int64_t read_int(TextCursor& c) {
  int64_t x;
  if (!c.integer(x)) c.fail("expected an integer");
  return x;
}

bool read_bool(TextCursor& c) {
  if (c.consume("true")) return true;
  if (c.consume("false")) return false;
  c.fail("expected true or false");
}

// "3x3" / "1_1x0_2" style: one group per dimension, separated by 'x'; each group is
// '_'-separated integers (possibly negative).
std::vector<std::vector<int64_t>> read_x_groups(TextCursor& c) {
  std::vector<std::vector<int64_t>> groups;
  c.skip_space();
  do {
    std::vector<int64_t> g;
    do {
      int64_t v;
      if (!c.integer(v)) c.fail("expected an integer in a dimension group like 1_1x2_2");
      g.push_back(v);
    } while (c.peek() == '_' && (c.set_pos(c.pos() + 1), true));
    groups.push_back(std::move(g));
  } while (c.peek() == 'x' && (c.set_pos(c.pos() + 1), true));
  return groups;
}

std::vector<ir::PadDim> read_padding(TextCursor& c) {
  std::vector<ir::PadDim> pads;
  for (auto& g : read_x_groups(c)) {
    if (g.size() < 2 || g.size() > 3) c.fail("padding needs low_high or low_high_interior per dimension");
    pads.push_back({g[0], g[1], g.size() == 3 ? g[2] : 0});
  }
  return pads;
}

std::vector<ir::SliceDim> read_slice(TextCursor& c) {
  std::vector<ir::SliceDim> dims;
  c.expect('{', "to open slice={...}");
  if (c.consume('}')) return dims;
  do {
    c.expect('[', "to open a slice range [start:limit(:stride)]");
    ir::SliceDim d;
    d.start = read_int(c);
    c.expect(':', "in a slice range");
    d.limit = read_int(c);
    if (c.consume(':')) d.stride = read_int(c);
    c.expect(']', "to close a slice range");
    dims.push_back(d);
  } while (c.consume(','));
  c.expect('}', "to close slice={...}");
  return dims;
}

ir::Window read_window(TextCursor& c) {
  ir::Window w;
  c.expect('{', "to open window={...}");
  auto ensure = [&](size_t n) {
    if (w.empty()) w.resize(n);
    else if (w.size() != n) c.fail("window fields have different numbers of dimensions");
  };
  while (!c.consume('}')) {
    std::string_view key = c.name();
    if (key.empty()) c.fail("expected a window field (size, stride, pad, lhs_dilate, rhs_dilate, rhs_reversal)");
    c.expect('=', "after a window field name");
    auto groups = read_x_groups(c);
    ensure(groups.size());
    for (size_t d = 0; d < groups.size(); ++d) {
      const auto& g = groups[d];
      if (key == "pad") {
        if (g.size() != 2) c.fail("window pad needs low_high per dimension");
        w[d].pad_low = g[0], w[d].pad_high = g[1];
        continue;
      }
      if (g.size() != 1) c.fail("window field '" + std::string(key) + "' takes one number per dimension");
      if (key == "size") w[d].size = g[0];
      else if (key == "stride") w[d].stride = g[0];
      else if (key == "lhs_dilate") w[d].base_dilation = g[0];
      else if (key == "rhs_dilate") w[d].window_dilation = g[0];
      else if (key == "rhs_reversal") w[d].reversal = g[0] != 0;
      else c.fail("unknown window field '" + std::string(key) + "'");
    }
  }
  return w;
}

// dim_labels=b01f_01io->b01f: letters name batch/feature (input, output), input/output
// feature (kernel); digits name spatial dimensions in order.
ir::ConvDims read_dim_labels(TextCursor& c) {
  c.skip_space();
  const size_t start = c.pos();
  std::string_view w = c.word();
  // word() stops at '>'; dim labels contain "->".
  if (c.peek() == '>') {
    c.set_pos(c.pos() + 1);
    c.word();
  }
  std::string_view text = c.text().substr(start, c.pos() - start);
  (void)w;
  const size_t us = text.find('_'), arrow = text.find("->");
  if (us == std::string_view::npos || arrow == std::string_view::npos || arrow < us)
    c.fail_at(start, "dim_labels must look like b01f_01io->b01f");
  std::string_view lhs = text.substr(0, us), rhs = text.substr(us + 1, arrow - us - 1),
                   out = text.substr(arrow + 2);
  ir::ConvDims d;
  auto spatial = [&](std::string_view labels, std::vector<int64_t>& dims) {
    std::vector<int64_t> by_index;
    for (size_t k = 0; k < labels.size(); ++k) {
      char ch = labels[k];
      if (ch >= '0' && ch <= '9') {
        size_t idx = static_cast<size_t>(ch - '0');
        if (by_index.size() <= idx) by_index.resize(idx + 1, -1);
        by_index[idx] = static_cast<int64_t>(k);
      }
    }
    for (int64_t v : by_index) {
      if (v < 0) c.fail_at(start, "dim_labels spatial dimensions must be numbered 0..n-1");
      dims.push_back(v);
    }
  };
  auto pos_of = [&](std::string_view labels, char ch) -> int64_t {
    size_t p = labels.find(ch);
    if (p == std::string_view::npos)
      c.fail_at(start, "dim_labels '" + std::string(labels) + "' lacks '" + std::string(1, ch) + "'");
    return static_cast<int64_t>(p);
  };
  d.input_batch = pos_of(lhs, 'b'), d.input_feature = pos_of(lhs, 'f');
  d.kernel_input_feature = pos_of(rhs, 'i'), d.kernel_output_feature = pos_of(rhs, 'o');
  d.output_batch = pos_of(out, 'b'), d.output_feature = pos_of(out, 'f');
  spatial(lhs, d.input_spatial);
  spatial(rhs, d.kernel_spatial);
  spatial(out, d.output_spatial);
  if (d.input_spatial.size() != d.kernel_spatial.size() ||
      d.input_spatial.size() != d.output_spatial.size())
    c.fail_at(start, "dim_labels sides have different numbers of spatial dimensions");
  return d;
}

std::optional<ir::ComparisonDirection> direction_from(std::string_view s) {
  using D = ir::ComparisonDirection;
  if (s == "EQ") return D::kEq;
  if (s == "NE") return D::kNe;
  if (s == "LT") return D::kLt;
  if (s == "LE") return D::kLe;
  if (s == "GT") return D::kGt;
  if (s == "GE") return D::kGe;
  return std::nullopt;
}

template <typename T>
T& ensure(std::optional<T>& o) {
  if (!o) o.emplace();
  return *o;
}

bool read_gather_scatter(TextCursor& c, Opcode op, std::string_view key, ir::Attributes& a) {
  if (op == Opcode::kGather) {
    auto& g = ensure(a.gather_dims);
    if (key == "offset_dims") g.offset_dims = read_int_list(c);
    else if (key == "collapsed_slice_dims") g.collapsed_slice_dims = read_int_list(c);
    else if (key == "start_index_map") g.start_index_map = read_int_list(c);
    else if (key == "operand_batching_dims") g.operand_batching_dims = read_int_list(c);
    else if (key == "start_indices_batching_dims") g.start_indices_batching_dims = read_int_list(c);
    else if (key == "index_vector_dim") g.index_vector_dim = read_int(c);
    else if (key == "slice_sizes") g.slice_sizes = read_int_list(c);
    else if (key == "indices_are_sorted") g.indices_are_sorted = read_bool(c);
    else return false;
    return true;
  }
  if (op == Opcode::kScatter) {
    auto& s = ensure(a.scatter_dims);
    if (key == "update_window_dims") s.update_window_dims = read_int_list(c);
    else if (key == "inserted_window_dims") s.inserted_window_dims = read_int_list(c);
    else if (key == "scatter_dims_to_operand_dims") s.scatter_dims_to_operand_dims = read_int_list(c);
    else if (key == "input_batching_dims") s.input_batching_dims = read_int_list(c);
    else if (key == "scatter_indices_batching_dims") s.scatter_indices_batching_dims = read_int_list(c);
    else if (key == "index_vector_dim") s.index_vector_dim = read_int(c);
    else if (key == "indices_are_sorted") s.indices_are_sorted = read_bool(c);
    else if (key == "unique_indices") s.unique_indices = read_bool(c);
    else return false;
    return true;
  }
  return false;
}

bool read_dot(TextCursor& c, std::string_view key, ir::Attributes& a) {
  if (key != "lhs_batch_dims" && key != "rhs_batch_dims" && key != "lhs_contracting_dims" &&
      key != "rhs_contracting_dims")
    return false;
  auto& d = ensure(a.dot_dims);
  auto v = read_int_list(c);
  if (key == "lhs_batch_dims") d.lhs_batch = std::move(v);
  else if (key == "rhs_batch_dims") d.rhs_batch = std::move(v);
  else if (key == "lhs_contracting_dims") d.lhs_contracting = std::move(v);
  else d.rhs_contracting = std::move(v);
  return true;
}
// XLA attribute names kept verbatim (hlo_parser.cc's attribute tables, 2024).
constexpr std::string_view kKeptAttributes[] = {
    "metadata", "sharding", "frontend_attributes", "backend_config", "statistics", "control-predecessors",
    "original_value", "result_accuracy", "parameter_replication", "replica_groups", "channel_id",
    "use_global_device_ids", "constrain_layout", "source_target_pairs", "slice_sizes", "is_host_transfer",
    "operand_precision", "algorithm", "sparsity", "custom_call_has_side_effect", "api_version",
    "operand_layout_constraints", "output_to_operand_aliasing", "custom_call_schedule", "schedule",
    "padding_type", "literal", "left_side", "lower", "unit_diagonal", "transpose_a", "infeed_config",
    "outfeed_config", "outfeed_shape", "async_execution_thread", "async_group_id", "async_wrapped_instruction",
    "cross_program_prefetch_index", "is_cross_program_prefetch", "domain", "delta", "lhs_ragged_dims",
    "rhs_group_dims", "dimensions", "window", "dim_labels", "is_composite", "split_count",
    "split_dimension", "concat_dimension",
    // Newer XLA: `origin` (original_value renamed, 2025) and scan's attributes.
    "origin", "num_carries", "is_reverse", "is_associative"};

// Names read_attribute interprets (for some opcode), for suggestions.
constexpr std::string_view kInterpretedAttributes[] = {
    "dimensions", "index", "iota_dimension", "feature_index", "epsilon", "feature_group_count",
    "batch_group_count", "exponent_bits", "mantissa_bits", "k", "largest", "is_stable", "direction", "type",
    "slice", "padding", "dynamic_slice_sizes", "window", "dim_labels", "custom_call_target", "kind",
    "distribution", "algorithm", "fft_type", "fft_length", "lhs_batch_dims", "rhs_batch_dims",
    "lhs_contracting_dims", "rhs_contracting_dims", "offset_dims", "collapsed_slice_dims", "start_index_map",
    "operand_batching_dims", "start_indices_batching_dims", "index_vector_dim", "indices_are_sorted",
    "update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims", "input_batching_dims",
    "scatter_indices_batching_dims", "unique_indices", "to_apply", "condition", "body", "calls",
    "branch_computations", "true_computation", "false_computation", "called_computations", "select",
    "scatter"};

constexpr auto kKnownAttributes = [] {
  std::array<std::string_view, std::size(kKeptAttributes) + std::size(kInterpretedAttributes)> all{};
  size_t n = 0;
  for (auto k : kKeptAttributes) all[n++] = k;
  for (auto k : kInterpretedAttributes) all[n++] = k;
  return all;
}();
}  // namespace

bool is_kept_attribute(std::string_view key) {
  return std::find(std::begin(kKeptAttributes), std::end(kKeptAttributes), key) != std::end(kKeptAttributes);
}

std::span<const std::string_view> known_attribute_names() { return kKnownAttributes; }

bool read_attribute(TextCursor& c, Opcode op, std::string_view key, ir::Attributes& a) {
  const bool conv_like = op == Opcode::kConvolution || op == Opcode::kCustomCall;
  if (op == Opcode::kDot || op == Opcode::kRaggedDot || op == Opcode::kScaledDot)
    if (read_dot(c, key, a)) return true;
  if (read_gather_scatter(c, op, key, a)) return true;
  if (key == "dimensions" && op != Opcode::kCustomCall) a.dimensions = read_int_list(c);
  else if (key == "index" && op == Opcode::kGetTupleElement) a.tuple_index = read_int(c);
  else if (key == "iota_dimension") a.iota_dimension = read_int(c);
  else if (key == "feature_index") a.feature_index = read_int(c);
  else if (key == "epsilon") {
    c.skip_space();
    std::string_view w = c.raw_value();
    try {
      a.epsilon = std::stof(std::string(w));
    } catch (...) {
      c.fail("expected a number for epsilon");
    }
  } else if (key == "feature_group_count") a.feature_group_count = read_int(c);
  else if (key == "batch_group_count") a.batch_group_count = read_int(c);
  else if (key == "exponent_bits") a.exponent_bits = read_int(c);
  else if (key == "mantissa_bits") a.mantissa_bits = read_int(c);
  else if (key == "k" && op == Opcode::kTopK) a.k = read_int(c);
  else if (key == "largest" && op == Opcode::kTopK) a.largest = read_bool(c);
  else if (key == "is_stable") a.is_stable = read_bool(c);
  else if (key == "direction") {
    const size_t at = c.pos();
    auto d = direction_from(c.word());
    if (!d) c.fail_at(at, "direction must be one of EQ, NE, LT, LE, GT, GE");
    a.direction = d;
  } else if (key == "type" && op == Opcode::kCompare) a.comparison_type = std::string(c.word());
  else if (key == "slice" && op == Opcode::kSlice) a.slice = read_slice(c);
  else if (key == "padding" && op == Opcode::kPad) a.padding = read_padding(c);
  else if (key == "dynamic_slice_sizes") a.dynamic_slice_sizes = read_int_list(c);
  else if (key == "window" && op != Opcode::kCustomCall) a.window = read_window(c);
  else if (key == "dim_labels" && conv_like && op == Opcode::kConvolution) a.conv_dims = read_dim_labels(c);
  else if (key == "custom_call_target") a.custom_call_target = std::string(c.quoted());
  else if (key == "kind" && op == Opcode::kFusion) a.fusion_kind = std::string(c.word());
  else if (key == "distribution" && op == Opcode::kRng) a.rng_distribution = std::string(c.word());
  else if (key == "algorithm" && op == Opcode::kRngBitGenerator) a.rng_algorithm = std::string(c.word());
  else if (key == "fft_type") a.fft_type = std::string(c.word());
  else if (key == "fft_length") a.fft_length = read_int_list(c);
  else return false;
  return true;
}

}  // namespace hlsgym::frontend
