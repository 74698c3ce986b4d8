// batchnorm_expander (XLA BatchNormExpander(training, inference, grad all on)): rewrites
// batch-norm-training, -inference and -grad into reduces, broadcasts, elementwise
// arithmetic and rsqrt with XLA's formulas:
//   training:  mean = sum(x)/N, var = sum((x - mean)^2)/N (two-pass; see below),
//              y = (x - mean) * rsqrt(var + eps) * scale + offset
//   inference: s = scale * rsqrt(var + eps), y = x * s + (offset - mean * s)
//   grad:      grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps), grad_offset = sum(dy),
//              dx = scale * rsqrt(var + eps) / N * (N*dy - sum(dy) - (x - mean) *
//                   sum(dy * (x - mean)) / (var + eps))
// N is the element count per feature (a constant: only static shapes are expanded, where
// XLA's get-dimension-size would fold to that constant). The interpreter evaluates batch
// norm in double and rounds once, the expansion rounds at every step in the element type,
// so results differ by rounding: reassociates_floats() is true.
// A sharded batch norm shards its expansion as XLA does: instructions shaped like the
// operand get the operand's sharding (the first of a tuple's), the others the batch
// norm's one device (maximal) or, when it has none, {replicated}; the result tuple keeps
// the batch norm's sharding.
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

// What every expansion needs: the operand shape, the feature dimension and the constants.
struct Context {
  expand::Builder& b;
  std::vector<int64_t> dims;      // operand dimensions
  std::vector<int64_t> features;  // {F}
  int64_t fi;
  ElementType t;
  std::vector<int64_t> reduce_dims;  // every dimension but fi
  double count;                      // elements per feature
  float epsilon;

  InstrId to_operand(InstrId feature_vector) { return b.broadcast(feature_vector, dims, {fi}); }
  InstrId add_reduce(InstrId x, ir::CompId add) {
    return b.reduce(x, b.scalar(t, 0.0), reduce_dims, add);
  }
  InstrId bin(Opcode op, InstrId x, InstrId y) { return b.binary(op, x, y); }
};

InstrId expand_training(Context& k, InstrId bn) {
  ir::Module& m = k.b.module();
  const InstrId x = m.operand(bn, 0), scale = m.operand(bn, 1), offset = m.operand(bn, 2);
  const InstrId eps = k.b.splat(k.t, k.epsilon, k.dims);
  const InstrId n_feature = k.b.splat(k.t, k.count, k.features);
  const ir::CompId add = expand::binary_computation(m, Opcode::kAdd, k.t, "scalar_add_computation");
  const InstrId sum = k.add_reduce(x, add);
  const InstrId mean = k.bin(Opcode::kDivide, sum, n_feature);
  // Two-pass variance, mean((x - mean)^2), not XLA's E[x^2] - E[x]^2: the one-pass form
  // cancels catastrophically in f32 when |mean| >> stddev (GPT-2's layer norms after
  // the residual adds lose every digit), and the centered x is needed anyway.
  const InstrId centered = k.bin(Opcode::kSubtract, x, k.to_operand(mean));
  const InstrId squared_sum = k.add_reduce(k.bin(Opcode::kMultiply, centered, centered), add);
  const InstrId var = k.bin(Opcode::kDivide, squared_sum, n_feature);
  const InstrId rsqrt = k.b.unary(Opcode::kRsqrt, k.bin(Opcode::kAdd, k.to_operand(var), eps));
  const InstrId normalized = k.bin(Opcode::kMultiply, centered, rsqrt);
  const InstrId scaled = k.bin(Opcode::kMultiply, normalized, k.to_operand(scale));
  const InstrId shifted = k.bin(Opcode::kAdd, scaled, k.to_operand(offset));
  const InstrId parts[] = {shifted, mean, var};
  return k.b.tuple(parts);
}

InstrId expand_inference(Context& k, InstrId bn) {
  ir::Module& m = k.b.module();
  const InstrId x = m.operand(bn, 0), scale = m.operand(bn, 1), offset = m.operand(bn, 2);
  const InstrId mean = m.operand(bn, 3), var = m.operand(bn, 4);
  const InstrId eps = k.b.splat(k.t, k.epsilon, k.features);
  const InstrId true_scale =
      k.bin(Opcode::kMultiply, scale, k.b.unary(Opcode::kRsqrt, k.bin(Opcode::kAdd, var, eps)));
  const InstrId true_shift = k.bin(Opcode::kSubtract, offset, k.bin(Opcode::kMultiply, mean, true_scale));
  return k.bin(Opcode::kAdd, k.bin(Opcode::kMultiply, x, k.to_operand(true_scale)), k.to_operand(true_shift));
}

InstrId expand_grad(Context& k, InstrId bn) {
  ir::Module& m = k.b.module();
  const InstrId x = m.operand(bn, 0), scale = m.operand(bn, 1), mean = m.operand(bn, 2);
  const InstrId var = m.operand(bn, 3), dy = m.operand(bn, 4);
  const InstrId eps_scalar = k.b.scalar(k.t, k.epsilon);
  const InstrId eps_operand = k.b.broadcast(eps_scalar, k.dims, {});
  const InstrId eps_feature = k.b.broadcast(eps_scalar, k.features, {});
  const ir::CompId add = expand::binary_computation(m, Opcode::kAdd, k.t, "scalar_add_computation");
  const InstrId var_b = k.to_operand(var);
  const InstrId rsqrt_b = k.b.unary(Opcode::kRsqrt, k.bin(Opcode::kAdd, var_b, eps_operand));
  const InstrId rsqrt = k.b.unary(Opcode::kRsqrt, k.bin(Opcode::kAdd, var, eps_feature));
  const InstrId centered = k.bin(Opcode::kSubtract, x, k.to_operand(mean));
  const InstrId sum_dy_centered = k.add_reduce(k.bin(Opcode::kMultiply, dy, centered), add);
  const InstrId grad_offset = k.add_reduce(dy, add);
  const InstrId grad_scale = k.bin(Opcode::kMultiply, sum_dy_centered, rsqrt);
  const InstrId i2 = k.to_operand(grad_offset);
  const InstrId i4 = k.bin(Opcode::kMultiply, k.to_operand(sum_dy_centered), centered);
  const InstrId i5 = k.bin(Opcode::kDivide, i4, k.bin(Opcode::kAdd, var_b, eps_operand));
  InstrId factor = k.bin(Opcode::kMultiply, k.to_operand(scale), rsqrt_b);
  factor = k.bin(Opcode::kDivide, factor, k.b.splat(k.t, k.count, k.dims));
  const InstrId i1 = k.bin(Opcode::kMultiply, dy, k.b.splat(k.t, k.count, k.dims));
  const InstrId i6 = k.bin(Opcode::kSubtract, k.bin(Opcode::kSubtract, i1, i2), i5);
  const InstrId parts[] = {k.bin(Opcode::kMultiply, factor, i6), grad_scale, grad_offset};
  return k.b.tuple(parts);
}

bool matches(const ir::Module& m, InstrId i) {
  const ir::Shape& x = m.shape(m.operand(i, 0));
  const int64_t fi = m.attrs(i).feature_index;
  if (!x.is_array() || !x.is_static() || !ir::is_floating(x.element_type())) return false;
  if (fi < 0 || fi >= x.rank() || x.element_count() == 0) return false;
  const auto ops = m.operands(i);
  for (size_t k = 1; k < ops.size(); ++k) {  // scale, offset, mean, var: [F]; grad: like x
    const ir::Shape& s = m.shape(ops[k]);
    const bool like_x = m.opcode(i) == Opcode::kBatchNormGrad && k == 4;
    const std::vector<int64_t> want = like_x ? x.dims() : std::vector<int64_t>{x.dim(fi)};
    if (!s.is_array() || s.element_type() != x.element_type() || s.dims() != want) return false;
  }
  return true;
}

InstrId expand_batch_norm(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const ir::Shape& x = m.shape(m.operand(i, 0));
  const int64_t fi = m.attrs(i).feature_index;
  Context k{b, x.dims(), {x.dim(fi)}, fi, x.element_type(), expand::all_dims_except(x.rank(), fi),
            static_cast<double>(x.element_count() / x.dim(fi)), m.attrs(i).epsilon};
  switch (m.opcode(i)) {
    case Opcode::kBatchNormTraining: return expand_training(k, i);
    case Opcode::kBatchNormInference: return expand_inference(k, i);
    default: return expand_grad(k, i);
  }
}

// The element shardings of a tuple sharding "{{a},{b}}" ({"{a}", "{b}"}), or {s} itself.
std::vector<std::string> sharding_elements(const std::string& s) {
  if (s.size() < 4 || s.rfind("{{", 0) != 0) return {s};
  std::vector<std::string> out;
  int depth = 0;
  size_t start = 1;
  for (size_t k = 1; k + 1 < s.size(); ++k) {
    if (s[k] == '{' && depth++ == 0) start = k;
    if (s[k] == '}' && --depth == 0) out.push_back(s.substr(start, k - start + 1));
  }
  return out;
}

// Shards the instructions of `c` that are not in `before` (the expansion of `bn`).
void shard_expansion(ir::Module& m, ir::CompId c, const std::vector<bool>& before, const ir::OpaqueAttribute& sharding,
                     const ir::Shape& operand_shape, InstrId result) {
  const std::vector<std::string> elements = sharding_elements(sharding.value);
  bool one_device = elements.front().rfind("{maximal device=", 0) == 0;
  for (const std::string& e : elements) one_device = one_device && e == elements.front();
  const std::string others = one_device ? elements.front() : "{replicated}";
  for (InstrId i : m.instructions(c)) {
    if (i < before.size() && before[i]) continue;
    std::string value = i == result ? sharding.value : m.shape(i) == operand_shape ? elements.front() : others;
    auto& opaque = m.mutable_payload(i).attrs.opaque;
    std::erase_if(opaque, [](const ir::OpaqueAttribute& a) { return a.key == "sharding"; });
    opaque.push_back({"sharding", std::move(value)});
  }
}

class BatchNormExpander final : public Pass {
 public:
  std::string_view name() const override { return "batchnorm_expander"; }
  std::string_view description() const override {
    return "expands batch-norm-training/inference/grad into reduces and elementwise arithmetic";
  }
  bool reassociates_floats() const override { return true; }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kBatchNormTraining, Opcode::kBatchNormInference,
                                          Opcode::kBatchNormGrad})) {
      if (!matches(m, i)) continue;
      const ir::CompId c = m.computation_of(i);
      std::vector<bool> before(m.instruction_slots(), false);
      for (InstrId k : m.instructions(c)) before[k] = true;
      const InstrId result = expand_batch_norm(m, i);
      if (const ir::OpaqueAttribute* s = m.attrs(i).find_opaque("sharding")) {
        const ir::OpaqueAttribute sharding = *s;  // a copy: shard_expansion edits payloads
        shard_expansion(m, c, before, sharding, m.shape(m.operand(i, 0)), result);
      }
      expand::replace_with(m, i, result);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_batchnorm_expander() { return std::make_unique<BatchNormExpander>(); }

}  // namespace hlsgym::passes
