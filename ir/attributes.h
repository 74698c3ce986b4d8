// The attributes of an instruction that hlsgym interprets (verifier, interpreter,
// passes, cost model). Everything else an HLO file carries (metadata, sharding,
// frontend_attributes, backend_config, replica_groups, ...) is kept verbatim in
// OpaqueAttribute so that printing gives it back.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hlsgym::ir {

struct SliceDim {
  int64_t start = 0, limit = 0, stride = 1;
  bool operator==(const SliceDim&) const = default;
};

struct PadDim {
  int64_t low = 0, high = 0, interior = 0;
  bool operator==(const PadDim&) const = default;
};

// One spatial dimension of a convolution / reduce-window / select-and-scatter window.
struct WindowDim {
  int64_t size = 1, stride = 1, pad_low = 0, pad_high = 0;
  int64_t base_dilation = 1;    // lhs_dilate
  int64_t window_dilation = 1;  // rhs_dilate
  bool reversal = false;
  bool operator==(const WindowDim&) const = default;
};
using Window = std::vector<WindowDim>;

// The input position that window tap `tap` of output position `out` reads along one
// dimension (padding and base dilation applied), or -1 where it falls in the padding or
// between dilated input elements. Shared by the interpreter and the RTL planner, so both
// agree on every window op.
inline int64_t window_source(const WindowDim& wd, int64_t out, int64_t tap, int64_t input_size) {
  const int64_t u = out * wd.stride - wd.pad_low + tap * wd.window_dilation;
  if (u < 0 || u % wd.base_dilation) return -1;
  const int64_t x = u / wd.base_dilation;
  return x < input_size ? x : -1;
}

struct DotDims {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contracting, rhs_contracting;
  bool operator==(const DotDims&) const = default;
};

// Convolution dimension numbers as `dim_labels=b01f_01io->b01f` spells them.
struct ConvDims {
  int64_t input_batch = 0, input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0, kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0, output_feature = 0;
  std::vector<int64_t> output_spatial;
  bool operator==(const ConvDims&) const = default;
};

struct GatherDims {
  std::vector<int64_t> offset_dims, collapsed_slice_dims, start_index_map;
  std::vector<int64_t> operand_batching_dims, start_indices_batching_dims;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> slice_sizes;
  bool indices_are_sorted = false;
  bool operator==(const GatherDims&) const = default;

  // The roles of the dimensions, in order (XLA's semantics; the interpreter and the RTL
  // planner both index by them): the operand dimensions the offsets run over (neither
  // collapsed nor batching), the output dimensions that are not offsets (the batch
  // position), and the start indices' dimensions other than index_vector_dim.
  std::vector<int64_t> offset_operand_dims(int64_t operand_rank) const {
    std::vector<int64_t> v;
    for (int64_t d = 0; d < operand_rank; ++d)
      if (!has(collapsed_slice_dims, d) && !has(operand_batching_dims, d)) v.push_back(d);
    return v;
  }
  std::vector<int64_t> batch_output_dims(int64_t output_rank) const {
    std::vector<int64_t> v;
    for (int64_t d = 0; d < output_rank; ++d)
      if (!has(offset_dims, d)) v.push_back(d);
    return v;
  }
  std::vector<int64_t> index_batch_dims(int64_t indices_rank) const {
    std::vector<int64_t> v;
    for (int64_t d = 0; d < indices_rank; ++d)
      if (d != index_vector_dim) v.push_back(d);
    return v;
  }

 private:
  static bool has(const std::vector<int64_t>& v, int64_t x) {
    for (int64_t y : v)
      if (y == x) return true;
    return false;
  }
};

struct ScatterDims {
  std::vector<int64_t> update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims;
  std::vector<int64_t> input_batching_dims, scatter_indices_batching_dims;
  int64_t index_vector_dim = 0;
  bool indices_are_sorted = false, unique_indices = false;
  bool operator==(const ScatterDims&) const = default;
};

enum class ComparisonDirection : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

// An attribute kept verbatim: key and the value text exactly as written after '='.
struct OpaqueAttribute {
  std::string key, value;
  bool operator==(const OpaqueAttribute&) const = default;
};

struct Attributes {
  // broadcast, transpose, reverse, reduce, concatenate (one entry), sort, map,
  // all-gather, all-to-all, reduce-scatter ...
  std::vector<int64_t> dimensions;
  int64_t parameter_number = -1;
  int64_t tuple_index = -1;      // get-tuple-element index=
  int64_t iota_dimension = -1;
  int64_t feature_index = -1;    // batch-norm-*
  float epsilon = 0.0f;          // batch-norm-*
  int64_t feature_group_count = 1, batch_group_count = 1;
  int64_t exponent_bits = -1, mantissa_bits = -1;  // reduce-precision
  int64_t k = -1;                                   // topk
  std::optional<bool> largest;                      // topk
  std::optional<bool> is_stable;                    // sort, topk
  std::optional<ComparisonDirection> direction;     // compare
  std::string comparison_type;                      // compare type= (FLOAT, TOTALORDER, ...)
  std::vector<SliceDim> slice;
  std::vector<PadDim> padding;
  std::vector<int64_t> dynamic_slice_sizes;
  std::optional<Window> window;
  std::optional<ConvDims> conv_dims;
  std::optional<DotDims> dot_dims;
  std::optional<GatherDims> gather_dims;
  std::optional<ScatterDims> scatter_dims;
  std::string custom_call_target;
  std::string fusion_kind;       // kLoop, kInput, kOutput, kCustom
  std::string rng_distribution;  // rng_uniform, rng_normal
  std::string rng_algorithm;     // rng_default, rng_three_fry, rng_philox
  std::string fft_type;
  std::vector<int64_t> fft_length;
  // conditional: true_computation=/false_computation= (pred) instead of branch_computations=
  bool pred_branches = false;
  std::vector<OpaqueAttribute> opaque;  // in the order written

  const OpaqueAttribute* find_opaque(std::string_view key) const {
    for (const auto& a : opaque)
      if (a.key == key) return &a;
    return nullptr;
  }
  bool operator==(const Attributes&) const = default;
};

}  // namespace hlsgym::ir
