#include "passes/default_order.h"

#include <algorithm>

#include "passes/registry.h"

namespace hlsgym::passes {

// Pass names are XLA's. Target-dependent passes that XLA runs in this pipeline are kept
// in the table for completeness (layout assignment, CPU fusion, copy insertion, conv
// canonicalization, TopK rewriting, the parallel task assigner): hlsgym does not have
// them, so they drop out of the runnable order. XLA's `call-inliner` here inlines only
// single-call-site calls; hlsgym's inlines every call (as XLA's does in other pipelines).
const std::vector<OrderStage>& xla_cpu_default_stages() {
  static const std::vector<OrderStage> stages = {
      {"sharding-removal", false, {"sharding-remover", "dce"}},
      {"HLO passes through layout assignment", false,
       {"operand_upcaster", "result_caster", "rng-expander", "rng-bit-generator-expander",
        "zero_sized_hlo_elimination", "dynamic-index-splitter", "conditional-to-select",
        "map-inline", "comparison-expander", "cholesky_expander", "qr_expander", "eigh_expander",
        "triangular_solve_expander", "all_gather_decomposer", "all_to_all_decomposer",
        "reduce-scatter-decomposer", "stochastic_convert_decomposer", "call-inliner",
        "batch-dot-simplification", "dot_decomposer", "all-reduce-promotion", "bf16-normalization",
        "batch-dot-simplification", "convolution-group-converter", "batchnorm_expander",
        "logistic-expander", "conditional-canonicalizer", "dynamic-dimension-simplifier",
        "dynamic_padder", "select_and_scatter_expander", "scatter_expander",
        "convolution-canonicalization", "change-op-data-type"}},
      {"simplification", true,
       {"algsimp", "simplify-sorts", "dce", "gather_expander", "tree_reduction_rewriter",
        "zero_sized_hlo_elimination", "while-loop-invariant-code-motion", "tuple-simplifier",
        "while-loop-constant-sinking", "simplify-while-loops", "dce", "reshape-mover",
        "constant_folding", "simplify-conditional"}},
      {"HLO passes through layout assignment (after simplification)", false,
       {"bitcast_dtypes_expander", "topk-rewriter", "transpose-folding", "cse",
        "cse_barrier_expander", "tuple-simplifier", "flatten-call-graph", "layout-assignment"}},
      {"hlo normalization", false, {"reshape-decomposer", "reduce-decomposer", "broadcast_canonicalizer"}},
      {"HLO passes after layout assignment", false, {"reshape-decomposer", "fusion"}},
      {"simplification after layout assignment", true, {"algsimp", "dce", "cse"}},
      {"HLO passes after layout assignment (end)", false,
       {"cpu-parallel-task-assigner", "dce", "copy-insertion", "dce"}},
  };
  return stages;
}

namespace {
// In the table (XLA runs them) but target-dependent: never part of hlsgym's default order,
// even where hlsgym has a pass of that name (its `fusion` is an HLS action, not XLA's
// CPU fusion heuristics).
bool target_dependent(const std::string& n) {
  static const char* const kNames[] = {"fusion", "layout-assignment", "copy-insertion",
                                       "cpu-parallel-task-assigner", "convolution-canonicalization",
                                       "topk-rewriter", "bf16-normalization"};
  for (const char* k : kNames)
    if (n == k) return true;
  return false;
}
bool in_order(const std::string& n) { return !target_dependent(n) && Registry::global().find(n); }
}  // namespace

std::vector<OrderStage> default_order_stages() {
  std::vector<OrderStage> out;
  for (const OrderStage& stage : xla_cpu_default_stages()) {
    OrderStage s{stage.name, stage.fixed_point, {}};
    for (const auto& n : stage.passes)
      if (in_order(n)) s.passes.push_back(n);
    if (!s.passes.empty()) out.push_back(std::move(s));
  }
  return out;
}

PassPtr make_default_order() {
  const Registry& reg = Registry::global();
  auto order = std::make_unique<Pipeline>("default");
  for (const OrderStage& stage : default_order_stages()) {
    auto p = std::make_unique<Pipeline>(stage.name);
    for (const auto& n : stage.passes) p->add(reg.create(n));
    if (stage.fixed_point) order->add(std::make_unique<FixedPoint>(std::move(p), kDefaultFixedPointLimit));
    else order->add(std::move(p));
  }
  return order;
}

std::vector<std::string> default_order_names() {
  std::vector<std::string> out;
  for (const OrderStage& stage : xla_cpu_default_stages())
    for (const auto& n : stage.passes)
      if (in_order(n)) out.push_back(n);
  return out;
}

std::vector<std::string> default_fixed_point_names() {
  std::vector<std::string> out;
  for (const OrderStage& stage : xla_cpu_default_stages())
    if (stage.fixed_point)
      for (const auto& n : stage.passes)
        if (in_order(n) && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

std::vector<std::string> default_order_missing() {
  std::vector<std::string> out;
  for (const OrderStage& stage : xla_cpu_default_stages())
    for (const auto& n : stage.passes)
      if (!in_order(n) && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

}  // namespace hlsgym::passes
