#include "passes/applicability.h"

#include <map>
#include <string>

namespace hlsgym::passes {
namespace {

using ir::Opcode;

// Passes left out act on patterns of common opcodes (algsimp, cse, dce, fusion, ...) or
// on computations rather than instructions (computation-deduplicator, hlo-module-dce), or
// are HLS directives that change only hints.
const std::map<std::string, std::vector<Opcode>, std::less<>>& table() {
  static const std::map<std::string, std::vector<Opcode>, std::less<>> t = {
      {"all-reduce-simp", {Opcode::kAllReduce, Opcode::kAllGather, Opcode::kReduceScatter}},
      {"batch-dot-simplification", {Opcode::kDot}},
      {"batchnorm_expander", {Opcode::kBatchNormTraining, Opcode::kBatchNormInference, Opcode::kBatchNormGrad}},
      {"bitcast_dtypes_expander", {Opcode::kBitcastConvert}},
      {"broadcast_canonicalizer", {Opcode::kBroadcast}},
      {"call-inliner", {Opcode::kCall}},
      {"change-op-data-type", {Opcode::kDot, Opcode::kConvolution}},
      {"comparison-expander", {Opcode::kCompare}},
      {"conditional-canonicalizer", {Opcode::kConditional}},
      {"conditional-to-select", {Opcode::kConditional}},
      {"convert-mover", {Opcode::kConvert}},
      {"convolution-group-converter", {Opcode::kConvolution}},
      {"convolution-pred-expander", {Opcode::kConvolution}},
      {"convolution_4d_expander", {Opcode::kConvolution}},
      {"cse_barrier_expander", {Opcode::kOptimizationBarrier}},
      {"defuser", {Opcode::kFusion}},
      {"dot-merger", {Opcode::kDot}},
      {"dot_decomposer", {Opcode::kDot}},
      {"dot_dimension_sorter", {Opcode::kDot}},
      {"dynamic-index-splitter", {Opcode::kDynamicSlice, Opcode::kDynamicUpdateSlice}},
      {"flatten-call-graph", {Opcode::kCall, Opcode::kWhile, Opcode::kConditional}},
      {"gather_expander", {Opcode::kGather}},
      {"logistic-expander", {Opcode::kLogistic}},
      {"loop-unroll-by-2", {Opcode::kWhile}},
      {"map-inline", {Opcode::kMap}},
      {"operand_upcaster", {Opcode::kDot, Opcode::kConvolution}},
      {"result_caster", {Opcode::kDot, Opcode::kConvolution}},
      {"scatter_expander", {Opcode::kScatter}},
      {"select_and_scatter_expander", {Opcode::kSelectAndScatter}},
      {"sharding-remover", {Opcode::kCustomCall}},
      {"simplify-conditional", {Opcode::kConditional}},
      {"simplify-fp-conversions", {Opcode::kConvert}},
      {"simplify-sorts", {Opcode::kSort}},
      {"simplify-while-loops", {Opcode::kWhile}},
      {"stable-sort-expander", {Opcode::kSort}},
      {"strength-reduction", {Opcode::kMultiply}},
      {"transpose-folding", {Opcode::kDot}},
      {"tree_reduction_rewriter", {Opcode::kReduce}},
      {"while-loop-constant-sinking", {Opcode::kWhile}},
      {"while-loop-invariant-code-motion", {Opcode::kWhile}},
      {"while_loop_unroller", {Opcode::kWhile}},
  };
  return t;
}

}  // namespace

const std::vector<ir::Opcode>& opcodes_acted_on(std::string_view pass) {
  static const std::vector<ir::Opcode> none;
  const auto it = table().find(pass);
  return it == table().end() ? none : it->second;
}

bool cannot_change(std::string_view pass, const std::array<int32_t, ir::kOpcodeCount>& opcode_counts) {
  const std::vector<ir::Opcode>& ops = opcodes_acted_on(pass);
  if (ops.empty()) return false;
  for (ir::Opcode op : ops)
    if (opcode_counts[static_cast<size_t>(op)] > 0) return false;
  return true;
}

}  // namespace hlsgym::passes
