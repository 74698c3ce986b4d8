// The interpreter's driver: walks each computation in dependency order, dispatches ops to
// their family (evaluate_*.cc), and runs control flow (call, while, conditional, fusion).
#include "ir/evaluate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "ir/error.h"
#include "ir/evaluate_internal.h"
#include "ir/input_range.h"

namespace hlsgym::ir {
namespace eval {

void OpContext::fail(const std::string& what) const {
  throw Error(fmt::format("{} ({}): {}", m.name(i), name(m.opcode(i)), what),
              {m.source_file(), m.payload(i).line, 0});
}

}  // namespace eval

namespace {
using eval::OpContext;

// Custom-calls that only annotate placement or sharding: identity on one device.
bool is_identity_custom_call(const std::string& t) {
  return t == "Sharding" || t == "MoveToHost" || t == "MoveToDevice" ||
         t == "annotate_device_placement" || t == "xla.sdy.FuncResultSharding" ||
         t == "SPMDFullToShardShape" || t == "SPMDShardToFullShape" || t == "LayoutConstraint";
}

// Participants per group from replica_groups ("{{0,1},{2,3}}" or "[2,4]<=[8]"); 1 if unknown.
int64_t group_size(const Module& m, InstrId i) {
  const OpaqueAttribute* g = m.attrs(i).find_opaque("replica_groups");
  if (!g || g->value.size() < 3) return 1;
  const std::string& v = g->value;
  if (v[0] == '[') {
    const size_t comma = v.find(','), close = v.find(']');
    if (comma == std::string::npos || comma > close) return std::max<int64_t>(1, std::atoll(v.c_str() + 1));
    return std::max<int64_t>(1, std::atoll(v.c_str() + comma + 1));
  }
  const size_t open = v.find('{', 1), close = v.find('}', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return 1;
  if (close == open + 1) return 1;
  return 1 + std::count(v.begin() + static_cast<std::ptrdiff_t>(open), v.begin() + static_cast<std::ptrdiff_t>(close), ',');
}

class Evaluator {
 public:
  Evaluator(const Module& m, const EvalOptions& o)
      : m_(m), opts_(o), steps_(o.steps_spent ? *o.steps_spent : own_steps_) {
    apply_ = [this](CompId c, std::span<const Literal* const> args) { return run(c, args); };
  }

  Literal run(CompId c, std::span<const Literal* const> args) {
    const auto& order = order_of(c);
    steps_ += eval::kStepsPerCall;
    std::unordered_map<InstrId, Literal> values;
    values.reserve(order.size());
    // The bytes this frame holds are released when it returns, whatever way it returns.
    struct Frame {
      double& live;
      double held = 0;
      ~Frame() { live -= held; }
    } frame{live_bytes_};
    for (InstrId i : order) {
      std::vector<const Literal*> ops;
      ops.reserve(m_.operands(i).size());
      for (InstrId o : m_.operands(i)) ops.push_back(&values.at(o));
      OpContext ctx{m_, i, std::move(ops), apply_, nullptr, &opts_};
      const double bytes = static_cast<double>(m_.shape(i).byte_size());
      if (opts_.max_bytes > 0 && live_bytes_ + bytes > opts_.max_bytes)
        throw EvalBudgetExceeded(fmt::format("{}: its value would take the values alive to {:.3g} bytes, over the "
                                             "interpreter's memory budget of {:.3g}", m_.name(i), live_bytes_ + bytes,
                                             opts_.max_bytes),
                                 {m_.source_file(), m_.payload(i).line, m_.payload(i).column});
      // Charged before the op runs: one dot or placeholder can take minutes by itself.
      steps_ += eval::work_of(m_, i);
      if (opts_.max_steps > 0 && steps_ > opts_.max_steps)
        throw EvalBudgetExceeded(fmt::format("the interpretation exceeded its budget of {:.3g} steps (elements "
                                             "computed, products summed) at {}", opts_.max_steps, m_.name(i)),
                                 {m_.source_file(), m_.payload(i).line, m_.payload(i).column});
      const Literal& value = values.emplace(i, eval_one(ctx, args)).first->second;
      if (opts_.observer) opts_.observer(c, i, value);
      frame.held += bytes;
      live_bytes_ += bytes;
    }
    return std::move(values.at(m_.computation(c).root));
  }

  bool uses_placeholders = false;
  std::vector<std::string> placeholder_ops;

 private:
  double own_steps_ = 0, live_bytes_ = 0;
  const std::vector<InstrId>& order_of(CompId c) {
    auto it = orders_.find(c);
    if (it == orders_.end()) {
      // Only what the root needs: instructions off the root's cone cannot change results.
      std::vector<InstrId> all = m_.post_order(c), needed;
      std::vector<bool> live(m_.instruction_slots(), false);
      live[m_.computation(c).root] = true;
      for (auto r = all.rbegin(); r != all.rend(); ++r)
        if (live[*r])
          for (InstrId o : m_.operands(*r)) live[o] = true;
      for (InstrId i : all)
        if (live[i]) needed.push_back(i);
      it = orders_.emplace(c, std::move(needed)).first;
    }
    return it->second;
  }

  Literal placeholder(const OpContext& c) {
    if (!opts_.allow_placeholders) c.fail("cannot be evaluated (hlsgym does not interpret it)");
    uses_placeholders = true;
    const std::string& n = m_.name(c.i);
    if (std::find(placeholder_ops.begin(), placeholder_ops.end(), n) == placeholder_ops.end())
      placeholder_ops.push_back(n);
    return eval::placeholder_value(c);
  }

  Literal eval_one(const OpContext& c, std::span<const Literal* const> args) {
    const Opcode op = m_.opcode(c.i);
    switch (op) {
      case Opcode::kParameter: {
        const auto n = static_cast<size_t>(c.attrs().parameter_number);
        if (n >= args.size()) c.fail("no argument given for this parameter");
        if (!args[n]->shape().compatible(c.shape()))
          c.fail(fmt::format("argument has shape {}, expected {}", args[n]->shape().to_string(false),
                             c.shape().to_string(false)));
        return *args[n];
      }
      case Opcode::kConstant:
        if (m_.literal(c.i).elided()) return placeholder(c);
        return m_.literal(c.i);
      case Opcode::kCall: case Opcode::kFusion: return run(m_.called(c.i)[0], c.args);
      case Opcode::kWhile: return run_while(c);
      case Opcode::kFft: return eval::eval_fft(c);
      case Opcode::kConditional: {
        const Literal& sel = *c.args[0];
        const size_t branches = m_.called(c.i).size();
        size_t b = sel.shape().element_type() == ElementType::kPred ? (sel.get_int(0) ? 0 : 1)
                                                                     : static_cast<size_t>(sel.get_int(0));
        if (sel.shape().element_type() != ElementType::kPred && (sel.get_int(0) < 0 || b >= branches))
          b = branches - 1;  // out-of-range index runs the last branch
        const Literal* arg[] = {c.args[b + 1]};
        return run(m_.called(c.i)[b], arg);
      }
      case Opcode::kCustomCall: {
        const std::string& t = c.attrs().custom_call_target;
        if (t == "cuda_threefry2x32") return eval::eval_threefry(c);
        if (is_identity_custom_call(t) && c.args.size() == 1 && c.args[0]->shape().compatible(c.shape()))
          return *c.args[0];
        return placeholder(c);
      }
      case Opcode::kPartitionId: case Opcode::kReplicaId: return Literal(c.shape());
      case Opcode::kGetDimensionSize: {
        // Shapes are static but for `<=N` bounds, whose run-time size is not tracked.
        const Shape& of = m_.shape(m_.operand(c.i, 0));
        if (c.attrs().dimensions.size() != 1 || c.attrs().dimensions[0] < 0 || c.attrs().dimensions[0] >= of.rank())
          c.fail("get-dimension-size needs one dimension of its operand");
        const int64_t d = c.attrs().dimensions[0];
        if (d < static_cast<int64_t>(of.dynamic_dims().size()) && of.dynamic_dims()[static_cast<size_t>(d)])
          c.fail("get-dimension-size of a bounded dynamic dimension: its run-time size is not tracked");
        Literal size(c.shape());
        size.set_int(0, of.dim(d));
        return size;
      }
      case Opcode::kRng: case Opcode::kRngBitGenerator: case Opcode::kRngGetAndUpdateState:
        return placeholder(c);
      case Opcode::kBatchNormTraining: case Opcode::kBatchNormInference: case Opcode::kBatchNormGrad:
        return eval::eval_batch_norm(c);
      case Opcode::kDot: case Opcode::kConvolution: return eval::eval_contraction(c);
      case Opcode::kAllReduce: case Opcode::kAllGather: case Opcode::kReduceScatter:
      case Opcode::kAllToAll: case Opcode::kCollectivePermute:
        return collective(c);
      default: break;
    }
    if (eval::handles_elementwise(op)) return eval::eval_elementwise(c);
    if (eval::handles_movement(op)) return eval::eval_movement(c);
    if (eval::handles_reduction(op)) return eval::eval_reduction(c);
    if (eval::handles_indexing(op)) return eval::eval_indexing(c);
    c.fail("the interpreter does not support this op");
  }

  Literal run_while(const OpContext& c) {
    Literal state = *c.args[0];
    const CompId cond = m_.called(c.i)[0], body = m_.called(c.i)[1];
    for (int64_t it = 0;; ++it) {
      if (it >= opts_.max_while_iterations)
        throw EvalBudgetExceeded(fmt::format("{} (while): the loop ran more than {} iterations", m_.name(c.i),
                                             opts_.max_while_iterations),
                                 {m_.source_file(), m_.payload(c.i).line, m_.payload(c.i).column});
      const Literal* arg[] = {&state};
      if (!run(cond, arg).get_int(0)) return state;
      state = run(body, arg);
    }
  }

  // Every participant holds the same value (one device's view, deterministic).
  Literal collective(const OpContext& c) {
    const Opcode op = m_.opcode(c.i);
    const int64_t g = group_size(m_, c.i);
    if (op == Opcode::kAllReduce || op == Opcode::kReduceScatter) {
      std::vector<Literal> outs;
      for (const Literal* a : c.args) {
        Literal acc = *a;
        const CompId fn = m_.called(c.i)[0];
        for (int64_t k = 1; k < g; ++k)
          for (int64_t e = 0; e < acc.element_count(); ++e) {
            Literal x = eval::scalar_at(acc, e), y = eval::scalar_at(*a, e);
            const Literal* p[] = {&x, &y};
            eval::copy_element(run(fn, p), 0, acc, e);
          }
        outs.push_back(std::move(acc));
      }
      if (op == Opcode::kReduceScatter) {  // participant 0 keeps the first shard
        for (size_t k = 0; k < outs.size(); ++k) {
          const Shape& s = c.shape().is_tuple() ? c.shape().tuple_element(static_cast<int64_t>(k)) : c.shape();
          Literal shard(s);
          for (int64_t e = 0; e < shard.element_count(); ++e) {
            auto idx = eval::unravel(e, s.dims());
            eval::copy_element(outs[k], eval::ravel(idx, row_major_strides(outs[k].shape().dims())), shard, e);
          }
          outs[k] = std::move(shard);
        }
      }
      if (outs.size() == 1) return std::move(outs[0]);
      Literal t(c.shape());
      for (size_t k = 0; k < outs.size(); ++k) t.tuple_elements()[k] = std::move(outs[k]);
      return t;
    }
    // A rank-0 operand (the verifier passes it through) has no dimension to gather along.
    if (op == Opcode::kAllGather && c.args.size() == 1 && !c.attrs().dimensions.empty() &&
        c.args[0]->shape().rank() > 0) {
      const int64_t d = c.attrs().dimensions[0];
      Literal out(c.shape());
      const int64_t part = c.args[0]->shape().dim(d);
      const auto in_strides = row_major_strides(c.args[0]->shape().dims());
      for (int64_t e = 0; e < out.element_count(); ++e) {
        auto idx = eval::unravel(e, c.shape().dims());
        idx[d] %= std::max<int64_t>(part, 1);
        eval::copy_element(*c.args[0], eval::ravel(idx, in_strides), out, e);
      }
      return out;
    }
    if (c.args.size() == 1 && c.args[0]->shape().compatible(c.shape())) return *c.args[0];
    return placeholder(c);
  }

  const Module& m_;
  EvalOptions opts_;
  double& steps_;  // own_steps_ or EvalOptions::steps_spent
  eval::Apply apply_;
  std::unordered_map<CompId, std::vector<InstrId>> orders_;
};

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void random_fill(Literal& l, uint64_t& state) {
  if (l.is_tuple()) {
    for (auto& e : l.tuple_elements()) random_fill(e, state);
    return;
  }
  const ElementType t = l.shape().element_type();
  for (int64_t k = 0; k < l.element_count(); ++k) {
    const uint64_t r = splitmix(state);
    if (t == ElementType::kPred) l.set_int(k, static_cast<int64_t>(r & 1));
    else if (is_floating(t) || is_complex(t)) l.set_double(k, static_cast<double>(r >> 11) * 0x1.0p-51 - 2.0);
    else if (is_unsigned_integral(t)) l.set_bits(k, (r & 1) ? (r >> 1) : (r >> 1) % 64);
    // Signed: mostly small values of both signs, sometimes the full range (wrap-around).
    else l.set_int(k, (r & 3) == 0 ? static_cast<int64_t>(r >> 2) : static_cast<int64_t>((r >> 2) % 129) - 64);
  }
}

// Uniform in [lo, hi] (integers: each value of the range equally likely), rounded to
// the type, one draw per element as random_fill.
void fill_in_range(Literal& l, const InputRange& r, uint64_t& state) {
  const ElementType t = l.shape().element_type();
  for (int64_t k = 0; k < l.element_count(); ++k) {
    const double u = static_cast<double>(splitmix(state) >> 11) * 0x1.0p-53;  // [0, 1)
    if (is_floating(t) || is_complex(t)) {
      l.set_double(k, r.lo + (r.hi - r.lo) * u);
      if (l.get_double(k) > r.hi || l.get_double(k) < r.lo) l.set_double(k, l.get_double(k) > r.hi ? r.hi : r.lo);
    } else {
      const double v = std::min(r.hi, r.lo + std::floor((r.hi - r.lo + 1) * u));
      if (is_unsigned_integral(t)) l.set_bits(k, static_cast<uint64_t>(v));
      else l.set_int(k, static_cast<int64_t>(v));
    }
  }
}

}  // namespace

namespace {
// Integer scalar parameters of the entry that become part of a while loop's initial
// state (directly, in the state tuple, or through converts/copies): likely trip counts
// or loop bounds. Random values there (negative, or thousands) make a loop run for no
// iteration or for hours; small positive ones exercise the body a few times.
std::vector<bool> loop_bound_parameters(const Module& m) {
  const auto& params = m.computation(m.entry()).params;
  std::vector<bool> bound(params.size(), false);
  auto mark = [&](InstrId v) {
    for (int hops = 0; hops < 8 && v != kNoId; ++hops) {
      const Opcode op = m.opcode(v);
      if (op == Opcode::kParameter) {
        const auto n = static_cast<size_t>(m.attrs(v).parameter_number);
        const Shape& s = m.shape(v);
        if (m.computation_of(v) == m.entry() && n < bound.size() && s.is_array() && s.rank() == 0 &&
            is_integral(s.element_type()))
          bound[n] = true;
        return;
      }
      if (op != Opcode::kConvert && op != Opcode::kCopy && op != Opcode::kReshape && op != Opcode::kBitcast) return;
      v = m.operand(v, 0);
    }
  };
  for (InstrId i : m.computation(m.entry()).order) {
    if (!m.is_live(i) || m.opcode(i) != Opcode::kWhile || m.operands(i).empty()) continue;
    const InstrId init = m.operand(i, 0);
    if (m.opcode(init) == Opcode::kTuple)
      for (InstrId o : m.operands(init)) mark(o);
    else
      mark(init);
  }
  return bound;
}
}  // namespace

std::vector<Literal> random_inputs(const Module& m, uint64_t seed) {
  std::vector<Literal> args;
  uint64_t state = seed * 0x2545f4914f6cdd1dull + 0x1234567;
  const std::vector<bool> bound = loop_bound_parameters(m);
  const auto& params = m.computation(m.entry()).params;
  for (size_t k = 0; k < params.size(); ++k) {
    Literal l(m.shape(params[k]));
    if (const std::optional<InputRange> r = input_range(m, params[k])) fill_in_range(l, *r, state);
    else random_fill(l, state);
    if (bound[k]) l.set_int(0, 1 + static_cast<int64_t>((state >> 33) % 4));  // 1..4
    args.push_back(std::move(l));
  }
  return args;
}

EvalResult evaluate(const Module& m, std::span<const Literal> args, const EvalOptions& opts) {
  const auto& params = m.computation(m.entry()).params;
  if (args.size() != params.size())
    throw Error(fmt::format("the entry takes {} arguments, {} given", params.size(), args.size()),
                {m.source_file()});
  Evaluator ev(m, opts);
  std::vector<const Literal*> ptrs;
  for (const Literal& a : args) ptrs.push_back(&a);
  EvalResult r;
  r.value = ev.run(m.entry(), ptrs);
  r.uses_placeholders = ev.uses_placeholders;
  r.placeholder_ops = ev.placeholder_ops;
  return r;
}

}  // namespace hlsgym::ir
