#include "ir/printer.h"

#include <fmt/format.h>

#include <algorithm>

namespace hlsgym::ir {
namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'; }

// Words the parser reads as syntax where a name may stand.
bool is_reserved_word(std::string_view n) {
  static constexpr std::string_view kWords[] = {"ROOT", "ENTRY", "HloModule", "FileNames", "FunctionNames",
                                                "FileLocations", "StackFrames"};
  return std::find(std::begin(kWords), std::end(kWords), n) != std::end(kWords);
}

}  // namespace

// A name as the parser reads it back: characters outside [A-Za-z0-9_.-] become '_'
// (and a name that does not start with a letter or '_' gets one), and a reserved word
// is written with XLA's '%' prefix, which the parser drops.
std::string hlo_name(std::string_view n) {
  if (!n.empty() && is_name_start(n[0]) && std::all_of(n.begin(), n.end(), is_name_char))
    return is_reserved_word(n) ? "%" + std::string(n) : std::string(n);
  std::string s = n.empty() || !is_name_start(n[0]) ? "_" : "";
  for (char c : n) s += is_name_char(c) ? c : '_';
  return s;
}

namespace {

void append_ints(std::string& out, const std::vector<int64_t>& v) {
  out += '{';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(v[i]);
  }
  out += '}';
}

void attr_ints(std::string& out, std::string_view key, const std::vector<int64_t>& v) {
  out += ", ";
  out += key;
  out += '=';
  append_ints(out, v);
}

void attr_int(std::string& out, std::string_view key, int64_t v) {
  fmt::format_to(std::back_inserter(out), ", {}={}", key, v);
}

std::string window_text(const Window& w) {
  auto group = [&](auto get, bool skip_if_default, int64_t def) {
    bool all_default = true;
    std::string s;
    for (size_t d = 0; d < w.size(); ++d) {
      if (d) s += 'x';
      int64_t v = get(w[d]);
      all_default &= v == def;
      s += std::to_string(v);
    }
    return (skip_if_default && all_default) ? std::string() : s;
  };
  std::string out = "{";
  auto field = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ' ';
    out += name;
    out += '=';
    out += value;
  };
  field("size", group([](const WindowDim& d) { return d.size; }, false, 0));
  field("stride", group([](const WindowDim& d) { return d.stride; }, true, 1));
  bool any_pad = false;
  std::string pad;
  for (size_t d = 0; d < w.size(); ++d) {
    if (d) pad += 'x';
    pad += fmt::format("{}_{}", w[d].pad_low, w[d].pad_high);
    any_pad |= w[d].pad_low != 0 || w[d].pad_high != 0;
  }
  if (any_pad) field("pad", pad);
  field("lhs_dilate", group([](const WindowDim& d) { return d.base_dilation; }, true, 1));
  field("rhs_dilate", group([](const WindowDim& d) { return d.window_dilation; }, true, 1));
  field("rhs_reversal", group([](const WindowDim& d) { return int64_t{d.reversal}; }, true, 0));
  return out + "}";
}

std::string dim_labels_text(const ConvDims& d) {
  auto side = [](size_t rank, int64_t a, char ca, int64_t b, char cb, const std::vector<int64_t>& sp) {
    std::string s(rank, '?');
    s[static_cast<size_t>(a)] = ca;
    s[static_cast<size_t>(b)] = cb;
    for (size_t k = 0; k < sp.size(); ++k) s[static_cast<size_t>(sp[k])] = static_cast<char>('0' + k);
    return s;
  };
  const size_t rank = d.input_spatial.size() + 2;
  return side(rank, d.input_batch, 'b', d.input_feature, 'f', d.input_spatial) + "_" +
         side(rank, d.kernel_input_feature, 'i', d.kernel_output_feature, 'o', d.kernel_spatial) +
         "->" + side(rank, d.output_batch, 'b', d.output_feature, 'f', d.output_spatial);
}

bool always_prints_dimensions(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kReverse: case Opcode::kReduce:
    case Opcode::kConcatenate: case Opcode::kSort: case Opcode::kMap:
      return true;
    default:
      return false;
  }
}

constexpr std::string_view kDirections[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};

void append_semantic_attributes(std::string& out, const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const Attributes& a = m.attrs(i);
  if (!a.dimensions.empty() || always_prints_dimensions(op)) attr_ints(out, "dimensions", a.dimensions);
  if (a.tuple_index >= 0) attr_int(out, "index", a.tuple_index);
  if (a.iota_dimension >= 0) attr_int(out, "iota_dimension", a.iota_dimension);
  if (!a.slice.empty()) {
    out += ", slice={";
    for (size_t d = 0; d < a.slice.size(); ++d) {
      if (d) out += ", ";
      fmt::format_to(std::back_inserter(out), "[{}:{}", a.slice[d].start, a.slice[d].limit);
      if (a.slice[d].stride != 1) fmt::format_to(std::back_inserter(out), ":{}", a.slice[d].stride);
      out += ']';
    }
    out += '}';
  }
  if (!a.dynamic_slice_sizes.empty()) attr_ints(out, "dynamic_slice_sizes", a.dynamic_slice_sizes);
  if (!a.padding.empty()) {
    out += ", padding=";
    for (size_t d = 0; d < a.padding.size(); ++d) {
      if (d) out += 'x';
      fmt::format_to(std::back_inserter(out), "{}_{}", a.padding[d].low, a.padding[d].high);
      if (a.padding[d].interior) fmt::format_to(std::back_inserter(out), "_{}", a.padding[d].interior);
    }
  }
  if (a.window) out += ", window=" + window_text(*a.window);
  if (a.conv_dims) out += ", dim_labels=" + dim_labels_text(*a.conv_dims);
  if (a.feature_group_count != 1) attr_int(out, "feature_group_count", a.feature_group_count);
  if (a.batch_group_count != 1) attr_int(out, "batch_group_count", a.batch_group_count);
  if (const auto& d = a.dot_dims) {
    if (!d->lhs_batch.empty()) attr_ints(out, "lhs_batch_dims", d->lhs_batch);
    attr_ints(out, "lhs_contracting_dims", d->lhs_contracting);
    if (!d->rhs_batch.empty()) attr_ints(out, "rhs_batch_dims", d->rhs_batch);
    attr_ints(out, "rhs_contracting_dims", d->rhs_contracting);
  }
  if (const auto& g = a.gather_dims) {
    attr_ints(out, "offset_dims", g->offset_dims);
    attr_ints(out, "collapsed_slice_dims", g->collapsed_slice_dims);
    attr_ints(out, "start_index_map", g->start_index_map);
    if (!g->operand_batching_dims.empty()) attr_ints(out, "operand_batching_dims", g->operand_batching_dims);
    if (!g->start_indices_batching_dims.empty())
      attr_ints(out, "start_indices_batching_dims", g->start_indices_batching_dims);
    attr_int(out, "index_vector_dim", g->index_vector_dim);
    attr_ints(out, "slice_sizes", g->slice_sizes);
    if (g->indices_are_sorted) out += ", indices_are_sorted=true";
  }
  if (const auto& s = a.scatter_dims) {
    attr_ints(out, "update_window_dims", s->update_window_dims);
    attr_ints(out, "inserted_window_dims", s->inserted_window_dims);
    attr_ints(out, "scatter_dims_to_operand_dims", s->scatter_dims_to_operand_dims);
    if (!s->input_batching_dims.empty()) attr_ints(out, "input_batching_dims", s->input_batching_dims);
    if (!s->scatter_indices_batching_dims.empty())
      attr_ints(out, "scatter_indices_batching_dims", s->scatter_indices_batching_dims);
    attr_int(out, "index_vector_dim", s->index_vector_dim);
    if (s->indices_are_sorted) out += ", indices_are_sorted=true";
    if (s->unique_indices) out += ", unique_indices=true";
  }
  if (a.direction) fmt::format_to(std::back_inserter(out), ", direction={}", kDirections[static_cast<int>(*a.direction)]);
  if (!a.comparison_type.empty()) out += ", type=" + a.comparison_type;
  if (a.exponent_bits >= 0) attr_int(out, "exponent_bits", a.exponent_bits);
  if (a.mantissa_bits >= 0) attr_int(out, "mantissa_bits", a.mantissa_bits);
  if (op == Opcode::kBatchNormTraining || op == Opcode::kBatchNormInference || op == Opcode::kBatchNormGrad) {
    fmt::format_to(std::back_inserter(out), ", epsilon={}", a.epsilon);
    attr_int(out, "feature_index", a.feature_index);
  }
  if (a.k >= 0) attr_int(out, "k", a.k);
  if (a.largest) out += *a.largest ? ", largest=true" : ", largest=false";
  if (a.is_stable) out += *a.is_stable ? ", is_stable=true" : ", is_stable=false";
  if (!a.custom_call_target.empty() || op == Opcode::kCustomCall)
    out += ", custom_call_target=\"" + a.custom_call_target + "\"";
  if (!a.fusion_kind.empty()) out += ", kind=" + a.fusion_kind;
  if (!a.rng_distribution.empty()) out += ", distribution=" + a.rng_distribution;
  if (!a.rng_algorithm.empty()) out += ", algorithm=" + a.rng_algorithm;
  if (!a.fft_type.empty()) out += ", fft_type=" + a.fft_type;
  if (!a.fft_length.empty()) attr_ints(out, "fft_length", a.fft_length);
}

void append_called(std::string& out, const Module& m, InstrId i) {
  const auto& called = m.called(i);
  if (called.empty()) return;
  auto comp = [&](size_t k) { return hlo_name(m.computation(called[k]).name); };
  switch (m.opcode(i)) {
    case Opcode::kWhile:
      out += ", condition=" + comp(0) + ", body=" + comp(1);
      return;
    case Opcode::kSelectAndScatter:
      out += ", select=" + comp(0) + ", scatter=" + comp(1);
      return;
    case Opcode::kConditional:
      if (m.attrs(i).pred_branches && called.size() == 2) {
        out += ", true_computation=" + comp(0) + ", false_computation=" + comp(1);
        return;
      }
      out += ", branch_computations={";
      break;
    case Opcode::kFusion: case Opcode::kAsyncStart:
      out += ", calls=" + comp(0);
      return;
    case Opcode::kCustomCall:
      out += ", called_computations={";
      break;
    default:
      out += ", to_apply=" + comp(0);
      return;
  }
  for (size_t k = 0; k < called.size(); ++k) out += (k ? ", " : "") + comp(k);
  out += '}';
}

}  // namespace

std::string print_instruction(const Module& m, InstrId i, const PrintOptions& opts) {
  std::string out;
  if (m.is_root(i)) out += "ROOT ";
  out += hlo_name(m.name(i));
  out += " = ";
  m.shape(i).append_to(out);
  out += ' ';
  out += name(m.opcode(i));
  out += '(';
  if (m.opcode(i) == Opcode::kConstant) {
    out += m.literal(i).to_string();
  } else if (m.opcode(i) == Opcode::kParameter) {
    out += std::to_string(m.attrs(i).parameter_number);
  } else {
    auto ops = m.operands(i);
    for (size_t k = 0; k < ops.size(); ++k) {
      if (k) out += ", ";
      if (opts.print_operand_shapes) {
        m.shape(ops[k]).append_to(out);
        out += ' ';
      }
      out += hlo_name(m.name(ops[k]));
    }
  }
  out += ')';
  append_semantic_attributes(out, m, i);
  append_called(out, m, i);
  if (opts.print_opaque)
    for (const auto& a : m.attrs(i).opaque) out += ", " + a.key + "=" + a.value;
  return out;
}

std::string print_computation(const Module& m, CompId c, const PrintOptions& opts) {
  const Computation& comp = m.computation(c);
  std::string out;
  if (c == m.entry()) out += "ENTRY ";
  out += hlo_name(comp.name);
  out += " {\n";
  for (InstrId i : m.post_order(c)) {
    out += "  ";
    out += print_instruction(m, i, opts);
    out += '\n';
  }
  out += '}';
  for (const auto& t : comp.trailer) out += ", " + t.key + "=" + t.value;
  out += '\n';
  return out;
}

std::string print_module(const Module& m, const PrintOptions& opts) {
  std::string out = "HloModule " + hlo_name(m.name());
  for (const auto& a : m.header_attributes()) out += ", " + a.key + "=" + a.value;
  out += "\n\n";
  if (!m.preamble().empty()) out += m.preamble() + "\n\n";
  // Callees before callers (XLA's order), so the text does not depend on the order in
  // which computations were created; computations nothing calls come last.
  std::vector<CompId> order = m.computation_post_order();
  std::vector<bool> printed(m.computation_slots(), false);
  for (CompId c : order) printed[c] = true;
  for (CompId c : m.live_computations())
    if (!printed[c]) order.insert(order.end() - (order.empty() ? 0 : 1), c);
  for (CompId c : order) {
    out += print_computation(m, c, opts);
    out += '\n';
  }
  return out;
}

}  // namespace hlsgym::ir
