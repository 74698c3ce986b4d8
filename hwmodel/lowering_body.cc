// Scalar bodies (to_apply of reduce/sort/scatter/map, fused elementwise computations)
// as one pipeline: every compute op gets its own unit, chained, so the body's depth is
// its critical path and one application costs the sum of its ops' energies.
#include <algorithm>

#include "hwmodel/chaining.h"
#include "hwmodel/float_unit_key.h"
#include "hwmodel/lowering_internal.h"

namespace hlsgym::hwmodel::lowering_detail {
using ir::InstrId;
using ir::Opcode;

namespace {

}  // namespace

void WorkModel::post_order(ir::CompId c, std::vector<InstrId>& out) {
  out.clear();
  if (++epoch_ == 0) std::fill(seen_.begin(), seen_.end(), 0), epoch_ = 1;
  const ir::Computation& comp = m_.computation(c);
  auto visit = [&](InstrId start) {
    if (seen_[start] == epoch_) return;
    seen_[start] = epoch_;
    stack_.emplace_back(start, 0);
    while (!stack_.empty()) {
      auto& [id, k] = stack_.back();
      const auto ops = m_.operands(id);
      if (k < ops.size()) {
        const InstrId next = ops[k++];
        if (seen_[next] != epoch_) {
          seen_[next] = epoch_;
          stack_.emplace_back(next, 0);
        }
        continue;
      }
      out.push_back(id);
      stack_.pop_back();
    }
  };
  for (InstrId p : comp.params)
    if (p != ir::kNoId && m_.is_live(p)) visit(p);
  if (comp.root != ir::kNoId) visit(comp.root);
  for (InstrId i : comp.order)
    if (m_.is_live(i)) visit(i);
}

const BodyInfo& WorkModel::body(ir::CompId c) {
  if (!bodies_[c]) bodies_[c] = analyze(c);
  return *bodies_[c];
}

BodyInfo WorkModel::analyze(ir::CompId c) {
  BodyInfo b;
  const ir::Computation& comp = m_.computation(c);
  if (comp.root == ir::kNoId) {
    b.pipelineable = false;
    return b;
  }
  // Post order visits operands first, so every entry read was written for this body.
  if (depth_.size() < m_.instruction_slots()) depth_.resize(m_.instruction_slots(), 0);
  auto depth_of = [&](InstrId i) { return depth_[i]; };
  int best_latency = -1;
  post_order(c, body_order_);
  for (InstrId i : body_order_) {
    int d = 0;
    for (InstrId o : m_.operands(i)) d = std::max(d, depth_of(o));
    const Opcode op = m_.opcode(i);
    // truncation or extension (chaining.h); a reduce-precision that keeps every value
    const bool wiring = t_.is_fpga() && (wiring_convert(m_, i) || identity_reduce_precision(m_, i));
    if (!fused_index_op(op) && !wiring) {
      const ir::ElementType type = deciding_type(m_, i);
      const auto unit = ir::info(op).elementwise ? elementwise_unit(op, type) : std::nullopt;
      if (!unit) {
        b.pipelineable = false;
        return b;
      }
      const FloatUnitCost* f = float_cost(i);  // the IEEE-754 unit rtl instantiates
      const int lat = f ? f->latency : unit_depth(t_, *unit);
      b.float_unit = f;
      d += lat;
      ++b.ops;
      b.energy_pj += op_energy_pj(t_, *unit, type);
      Area a = f ? float_lane_area(*f, datapath_bits(m_.shape(i).element_type()))
                 : integer_lane_area(i, *unit, type);
      if (*unit == UnitClass::kIntMul && op == Opcode::kMultiply && t_.is_fpga())
        a.dsp = multiply_dsp_slices(i, true);
      b.lane_area += a;
      b.cpu_cycles_per_vector += t_.unit(*unit).cycles_per_vector;
      if (lat > best_latency) best_latency = lat, b.unit = *unit, b.type = type;
    }
    depth_[i] = d;
  }
  b.depth = depth_of(comp.root);
  if (b.ops != 1) b.float_unit = nullptr;
  if (b.ops == 0) {
    const ir::Shape& s = m_.shape(comp.root);
    b.type = s.is_array() ? s.element_type() : ir::ElementType::kU8;
  }
  return b;
}

}  // namespace hlsgym::hwmodel::lowering_detail
