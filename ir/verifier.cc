#include "ir/verifier.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/error.h"
#include "ir/shape_inference.h"
#include "ir/verifier_ops.h"

namespace hlsgym::ir {
namespace {

class Verifier {
 public:
  explicit Verifier(const Module& m) : m_(m) {}

  std::vector<VerifierIssue> run() {
    if (m_.entry() == kNoId || m_.entry() >= m_.computation_slots() || m_.computation(m_.entry()).dead) {
      issues_.push_back({kNoId, kNoId, "the module has no entry computation", 0});
      return issues_;
    }
    for (CompId c : m_.live_computations()) check_computation(c);
    // A computation that calls itself never returns (and the interpreter's recursion
    // would overflow the stack).
    InstrId site = kNoId;
    if (std::string cycle = find_call_cycle(m_, &site); !cycle.empty())
      report(site, "the call graph has a cycle: " + cycle);
    return issues_;
  }

 private:
  void report(InstrId i, const std::string& what) {
    issues_.push_back({i, m_.computation_of(i), m_.name(i) + ": " + what, m_.payload(i).line, m_.payload(i).column});
  }
  void report_comp(CompId c, const std::string& what) {
    issues_.push_back({kNoId, c, "computation " + m_.computation(c).name + ": " + what,
                       m_.computation(c).line});
  }

  void check_computation(CompId c) {
    const Computation& comp = m_.computation(c);
    if (comp.root == kNoId || !m_.is_live(comp.root)) report_comp(c, "has no ROOT instruction");
    for (size_t k = 0; k < comp.params.size(); ++k)
      if (comp.params[k] == kNoId || !m_.is_live(comp.params[k]))
        report_comp(c, fmt::format("parameter numbers skip {} (they must be 0..n-1)", k));
    check_acyclic(c);
    for (InstrId i : comp.order)
      if (m_.is_live(i)) check_instruction(c, i);
  }

  // Iterative DFS with colours; an edge to a grey node is a cycle.
  void check_acyclic(CompId c) {
    std::vector<uint8_t> colour(m_.instruction_slots(), 0);
    std::vector<std::pair<InstrId, uint32_t>> stack;
    for (InstrId start : m_.computation(c).order) {
      if (!m_.is_live(start) || colour[start]) continue;
      stack.emplace_back(start, 0);
      colour[start] = 1;
      while (!stack.empty()) {
        auto& [id, k] = stack.back();
        auto ops = m_.operands(id);
        if (k == ops.size()) {
          colour[id] = 2;
          stack.pop_back();
          continue;
        }
        InstrId next = ops[k++];
        if (next >= colour.size() || m_.computation_of(next) != c) continue;  // reported elsewhere
        if (colour[next] == 1) {
          report(next, "is part of a cycle (it depends on itself)");
          return;
        }
        if (colour[next] == 0) {
          colour[next] = 1;
          stack.emplace_back(next, 0);
        }
      }
    }
  }

  void check_instruction(CompId c, InstrId i) {
    if (std::string bad = check_shape_size(m_.shape(i)); !bad.empty()) return report(i, bad);
    const Opcode op = m_.opcode(i);
    const OpcodeInfo& inf = info(op);
    const auto ops = m_.operands(i);
    if (inf.arity >= 0 && static_cast<int>(ops.size()) != inf.arity) {
      // convolution was binary in older XLA and is listed variadic; others are strict.
      report(i, fmt::format("{} takes {} operands, has {}", inf.name, inf.arity, ops.size()));
      return;
    }
    for (InstrId o : ops) {
      if (!m_.is_live(o)) return report(i, "uses a removed instruction");
      if (m_.computation_of(o) != c) return report(i, "uses " + m_.name(o) + " from another computation");
    }
    for (CompId k : m_.called(i))
      if (k == kNoId || k >= m_.computation_slots() || m_.computation(k).dead)
        return report(i, "calls a computation that does not exist");
    if (op == Opcode::kConstant) {
      const auto& lit = m_.payload(i).literal;
      if (!lit) return report(i, "constant without a value");
      if (!lit->shape().compatible(m_.shape(i)))
        return report(i, "constant value shape " + lit->shape().to_string(false) +
                             " differs from its declared shape " + m_.shape(i).to_string(false));
    }
    if (!check_required_attributes(i)) return;
    const size_t before = issues_.size();
    check_shape(i);
    check_called_signatures(i);
    if (issues_.size() != before) return;
    if (std::string bad = check_operation(m_, i); !bad.empty()) report(i, bad);
  }

  // Attributes without which an op has no meaning (XLA's parser requires them too); the
  // interpreter and the passes rely on them being present and in range.
  bool check_required_attributes(InstrId i) {
    const Opcode op = m_.opcode(i);
    const Attributes& a = m_.attrs(i);
    const Shape& s = m_.shape(i);
    auto in_rank = [](int64_t d, const Shape& sh) { return sh.is_array() && d >= 0 && d < sh.rank(); };
    // The computations an op applies: without them the interpreter has nothing to run.
    const size_t needs_called = op == Opcode::kSelectAndScatter ? 2
                                : op == Opcode::kReduce || op == Opcode::kReduceWindow || op == Opcode::kScatter ||
                                          op == Opcode::kSort || op == Opcode::kMap || op == Opcode::kAllReduce ||
                                          op == Opcode::kAllReduceStart || op == Opcode::kReduceScatter ||
                                          op == Opcode::kCall || op == Opcode::kFusion
                                      ? 1 : 0;
    if (m_.called(i).size() < needs_called)
      return report(i, fmt::format("{} needs {}", name(op),
                                   op == Opcode::kSelectAndScatter ? "select= and scatter="
                                   : op == Opcode::kFusion         ? "calls="
                                                                   : "to_apply=")),
             false;
    switch (op) {
      case Opcode::kIota:
        if (!in_rank(a.iota_dimension, s))
          return report(i, a.iota_dimension < 0 ? "iota needs iota_dimension="
                                                : fmt::format("iota_dimension={} is outside {}", a.iota_dimension,
                                                              s.to_string(false))),
                 false;
        return true;
      case Opcode::kCompare:
        if (!a.direction) return report(i, "compare needs direction= (EQ, NE, LT, LE, GT, GE)"), false;
        return true;
      case Opcode::kReducePrecision:
        if (a.exponent_bits < 1 || a.mantissa_bits < 0)
          return report(i, "reduce-precision needs exponent_bits= (at least 1) and mantissa_bits="), false;
        return true;
      case Opcode::kBatchNormTraining: case Opcode::kBatchNormInference: case Opcode::kBatchNormGrad: {
        const auto ops = m_.operands(i);
        if (ops.empty() || !in_rank(a.feature_index, m_.shape(ops[0])))
          return report(i, fmt::format("{} needs feature_index= naming a dimension of its operand", name(op))), false;
        return true;
      }
      case Opcode::kGather: {
        const auto ops = m_.operands(i);
        if (!a.gather_dims || ops.empty() ||
            static_cast<int64_t>(a.gather_dims->slice_sizes.size()) != m_.shape(ops[0]).rank())
          return report(i, "gather needs offset_dims=, collapsed_slice_dims=, start_index_map=, index_vector_dim= "
                           "and slice_sizes= (one per operand dimension)"),
                 false;
        return true;
      }
      case Opcode::kScatter:
        if (m_.operands(i).size() < 3 || m_.operands(i).size() % 2 == 0)
          return report(i, fmt::format("scatter needs N operands, the scatter indices and N updates (3, 5, ... operands), "
                                       "has {}", m_.operands(i).size())),
                 false;
        if (!a.scatter_dims)
          return report(i, "scatter needs update_window_dims=, inserted_window_dims=, scatter_dims_to_operand_dims= "
                           "and index_vector_dim="),
                 false;
        return true;
      case Opcode::kCustomCall:
        if (a.custom_call_target.empty()) return report(i, "custom-call needs custom_call_target=\"...\""), false;
        return true;
      case Opcode::kRng:
        if (a.rng_distribution.empty()) return report(i, "rng needs distribution= (rng_uniform or rng_normal)"), false;
        return true;
      default:
        return true;
    }
  }

  void check_shape(InstrId i) {
    const Opcode op = m_.opcode(i);
    const Shape& declared = m_.shape(i);
    try {
      if (op == Opcode::kBroadcast) return check_broadcast(i);
      if (op == Opcode::kReshape || op == Opcode::kBitcast) {
        const Shape& in = m_.shape(m_.operand(i, 0));
        if (op == Opcode::kReshape && in.is_static() && declared.is_static() &&
            in.element_count() != declared.element_count())
          report(i, fmt::format("reshape from {} to {} changes the element count", in.to_string(false),
                                declared.to_string(false)));
        return;
      }
      if (!can_infer_shape(op)) return;
      Shape inferred = infer_shape(m_, op, m_.operands(i), m_.attrs(i), m_.called(i));
      // dot/convolution may accumulate into another element type; map/compare types follow
      // their inputs, so those are compared by dimensions only.
      const bool dims_only = op == Opcode::kDot || op == Opcode::kConvolution;
      const bool ok = dims_only ? inferred.dims() == declared.dims() : inferred.compatible(declared);
      if (!ok)
        report(i, fmt::format("declared shape {} but the operands give {}", declared.to_string(false),
                              inferred.to_string(false)));
    } catch (const Error& e) {
      report(i, e.message());
    }
  }

  void check_broadcast(InstrId i) {
    const Shape& in = m_.shape(m_.operand(i, 0));
    const Shape& out = m_.shape(i);
    const auto& dims = m_.attrs(i).dimensions;
    if (static_cast<int64_t>(dims.size()) != in.rank())
      return report(i, fmt::format("broadcast dimensions {} must have one entry per operand dimension of {}",
                                   fmt::join(dims, ","), in.to_string(false)));
    if (in.element_type() != out.element_type())
      return report(i, "broadcast changes the element type");
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k] < 0 || dims[k] >= out.rank() || out.dim(dims[k]) != in.dim(static_cast<int64_t>(k)))
        return report(i, fmt::format("broadcast dimension {} maps operand size {} onto a different "
                                     "output size in {}", dims[k], in.dim(static_cast<int64_t>(k)),
                                     out.to_string(false)));
  }

  void check_called_signatures(InstrId i) {
    const Opcode op = m_.opcode(i);
    const auto& called = m_.called(i);
    auto params = [&](CompId k) { return m_.computation(k).params.size(); };
    auto root_shape = [&](CompId k) -> const Shape* {
      InstrId r = m_.computation(k).root;
      return r == kNoId ? nullptr : &m_.shape(r);
    };
    if ((op == Opcode::kReduce || op == Opcode::kReduceWindow) && !called.empty()) {
      const size_t n = m_.operands(i).size();
      if (params(called[0]) != n)
        report(i, fmt::format("to_apply {} takes {} parameters but the reduction needs {}",
                              m_.computation(called[0]).name, params(called[0]), n));
      for (InstrId p : m_.computation(called[0]).params)
        if (p != kNoId && m_.shape(p).rank() != 0)
          return report(i, "to_apply must take scalars, " + m_.name(p) + " is " + m_.shape(p).to_string(false));
    }
    if (op == Opcode::kWhile && called.size() == 2) {
      const Shape& state = m_.shape(m_.operand(i, 0));
      const Shape* cond = root_shape(called[0]);
      const Shape* body = root_shape(called[1]);
      if (cond && !(cond->element_type() == ElementType::kPred && cond->rank() == 0))
        report(i, "while condition must return pred[], returns " + cond->to_string(false));
      if (body && !body->compatible(state))
        report(i, "while body returns " + body->to_string(false) + " but the loop state is " +
                      state.to_string(false));
      for (CompId k : called)
        if (params(k) != 1) report(i, "while condition and body take exactly one parameter");
    }
    if (op == Opcode::kWhile && called.size() != 2) report(i, "while needs condition= and body=");
    if (op == Opcode::kConditional) {
      if (called.size() + 1 != m_.operands(i).size())
        return report(i, "conditional needs one operand per branch after the predicate/index");
      for (size_t k = 0; k < called.size(); ++k) {
        const Shape* r = root_shape(called[k]);
        if (r && !r->compatible(m_.shape(i)))
          report(i, fmt::format("branch {} returns {} but the conditional is {}", k, r->to_string(false),
                                m_.shape(i).to_string(false)));
      }
    }
    if (op == Opcode::kCall && !called.empty() && params(called[0]) != m_.operands(i).size())
      report(i, fmt::format("calls {} with {} arguments, it takes {}", m_.computation(called[0]).name,
                            m_.operands(i).size(), params(called[0])));
  }

  const Module& m_;
  std::vector<VerifierIssue> issues_;
};

}  // namespace

std::vector<VerifierIssue> verify_all(const Module& m) { return Verifier(m).run(); }

void verify(const Module& m) {
  auto issues = verify_all(m);
  if (issues.empty()) return;
  const VerifierIssue& first = issues.front();
  std::string msg = first.message;
  if (issues.size() > 1) msg += fmt::format(" (and {} more problems)", issues.size() - 1);
  throw Error(msg, {m.source_file(), first.line, first.line > 0 ? first.column : 0});
}

}  // namespace hlsgym::ir
