// The lowering walk: instructions in post order -> tasks (lowering.h), with timing
// (timing.h) and memory traffic filled in per target.
#include "hwmodel/lowering.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <functional>
#include <optional>

#include "hwmodel/chaining.h"
#include "hwmodel/lowering_internal.h"
#include "hwmodel/timing.h"
#include "hwmodel/control_flow.h"
#include "ir/error.h"

namespace hlsgym::hwmodel {
using ir::InstrId;
using ir::Opcode;
using namespace lowering_detail;

namespace {

constexpr int64_t kCycleCap = int64_t{1} << 50;  // saturate absurd loop products

int64_t saturating_mul(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0) return 0;
  return a > kCycleCap / b ? kCycleCap : a * b;
}

class Lowerer {
 public:
  Lowerer(const ir::Module& m, ir::CompId c, const Target& t, const LoweringOptions& o, const SubCoster& sub,
          LoweringCache::Impl& cache)
      : m_(m), t_(t), o_(o), sub_(sub), work_(cache.work), value_task_(cache.value_task), value_bits_(cache.value_bits) {
    const size_t expect = m.computation(c).order.size();  // calls inlined add more
    g_.tasks.reserve(expect);
    g_.dep_offset.reserve(expect + 1);
  }

  TaskGraph run(ir::CompId c) {
    lower_computation(c, true);
    const InstrId root = m_.computation(c).root;
    if (root != ir::kNoId && value_task_[root] != kNoTask) g_.tasks[value_task_[root]].output = true;
    return std::move(g_);
  }

 private:
  static constexpr uint32_t kNoTask = UINT32_MAX;

  void lower_computation(ir::CompId c, bool top) {
    std::vector<InstrId> order;  // a local: inlining a call recurses
    work_.post_order(c, order);
    for (InstrId i : order) {
      if (!top && m_.opcode(i) == Opcode::kParameter) continue;  // bound by the caller
      lower_instruction(i);
    }
  }

  void lower_instruction(InstrId i) {
    Work w = work_.classify(i);
    switch (w.form) {
      case Form::kCall: return inline_call(i);
      case Form::kWhile: return lower_while(i);
      case Form::kConditional: return lower_conditional(i);
      case Form::kUnknown:
        if (!o_.lenient) no_cost_model(i);
        ++g_.uncosted[static_cast<size_t>(m_.opcode(i))];
        w = work_.move(i, std::max<int64_t>(1, m_.shape(i).element_count()));
        break;
      default:
        break;
    }
    Task k = base_task(i, w);
    if (w.form != Form::kFree) set_timing(w, k, fill_memory(i, k));
    emit(i, k);
  }

  void set_timing(const Work& w, Task& k, int64_t dram_bytes) {
    if (t_.is_fpga()) time_fpga(w, k, dram_bytes);
    else time_cpu(w, k);
  }

  [[noreturn]] void no_cost_model(InstrId i) const {
    const std::string op(ir::name(m_.opcode(i)));
    std::string what = op;
    if (m_.opcode(i) == Opcode::kCustomCall) what += " '" + m_.attrs(i).custom_call_target + "'";
    throw Error(fmt::format("op {} ({}) has no cost model; --lenient costs such ops as memory moves", what, m_.name(i)),
                {m_.source_file(), m_.payload(i).line});
  }

  Task base_task(InstrId i, const Work& w) const {
    Task k;
    k.instr = i;
    k.alias = w.alias;
    k.input = w.input;
    const ir::Shape& out = m_.shape(i);
    if (w.input) {
      // rtl prints a one-value constant (or a broadcast, slice, ... of one) as a literal: no
      // memory holds it (chaining.h)
      k.literal = t_.is_fpga() && splat_source(m_, i).has_value();
      k.footprint = out.byte_size();
      if (t_.is_fpga() && o_.caller_holds_parameters && m_.opcode(i) == Opcode::kParameter) k.footprint = 0;
      k.dram = t_.is_fpga() && k.footprint > t_.memory.front().capacity_bytes;
      // rtl prints a constant array as a ROM (initialized, read-only): small ones become
      // logic with a read register per reader, not a register file
      k.rom = t_.is_fpga() && m_.opcode(i) == Opcode::kConstant && !k.literal &&
              t_.in_registers(out.byte_size());
    }
    k.elem_bits = out.is_array() ? ir::byte_width(out.element_type()) * 8 : 8;
    k.scalar = out.is_array() && out.rank() == 0;
    k.value_bits = out.is_array() ? datapath_bits(out.element_type()) : 8;
    if (const int narrow = value_bits_.stored(i); narrow > 0 && !w.input) {  // value_bits.h
      k.stored_bits = static_cast<uint8_t>(narrow);
      k.stored_sign = value_bits_.sign(i);
      k.value_bits = narrow;
    }
    k.operand_bits = static_cast<uint8_t>(value_bits_.demanded(i));
    if (w.form == Form::kFree) return k;
    k.unit = static_cast<uint8_t>(w.unit);
    k.ports = static_cast<uint8_t>(w.ports);
    k.width = static_cast<uint16_t>(datapath_bits(w.type));
    return k;
  }

  // FPGA: the addresses each lane of `i` reads operand `a`'s buffer at per item, as rtl
  // builds it (a read port each): a gather's start indices one per indexed dimension the
  // slice does not span; a dynamic slice's starts are wires (0); a dynamic-update-slice
  // whose update covers its operand never reads the operand; a fused body or map reads a
  // parameter it does not use 0 times.
  int operand_reads(InstrId i, size_t a) const {
    switch (m_.opcode(i)) {
      case Opcode::kGather: {
        if (a != 1 || !m_.attrs(i).gather_dims) return 1;
        const ir::GatherDims& g = *m_.attrs(i).gather_dims;
        const ir::Shape& in = m_.shape(m_.operand(i, 0));
        int n = 0;
        for (int64_t d : g.start_index_map) n += in.dim(d) > g.slice_sizes[static_cast<size_t>(d)];
        return n;
      }
      case Opcode::kDynamicSlice: return a == 0 ? 1 : 0;
      case Opcode::kDynamicUpdateSlice:
        if (a >= 2) return 0;
        return a == 0 && m_.shape(m_.operand(i, 0)).dims() == m_.shape(m_.operand(i, 1)).dims() ? 0 : 1;
      case Opcode::kFusion: case Opcode::kMap: {
        if (m_.called(i).empty()) return 1;
        const ir::Computation& body = m_.computation(m_.called(i)[0]);
        if (a >= body.params.size() || body.params[a] == ir::kNoId) return 1;
        return fused_param_reads(body.params[a], body.root);
      }
      default: return 1;
    }
  }

  // A fused body reads its parameter once per distinct address (rtl: one leaf per
  // buffer and index expression): through each chain of data-movement ops that ends at
  // an op computing on it (two slices of x are two reads of x per item), and once for
  // direct readers; a scalar's every read is word 0.
  int fused_param_reads(InstrId p, InstrId root) const {
    if (m_.shape(p).rank() == 0) return !m_.users(p).empty() || root == p ? 1 : 0;
    int reads = 0;
    bool direct = root == p;
    for (InstrId u : m_.users(p)) {
      if (value_mapping(m_.opcode(u)) && m_.shape(u).rank() > 0) reads += std::max(1, fused_param_reads(u, root));
      else direct = true;
    }
    return reads + (direct ? 1 : 0);
  }

  // Whether `i` reads an operand named twice at two addresses (one leaf per operand
  // position) rather than once (an elementwise op reads x + x at one address).
  static bool reads_per_position(Opcode op) {
    return op == Opcode::kConcatenate || op == Opcode::kDot || op == Opcode::kConvolution ||
           op == Opcode::kGather || op == Opcode::kDynamicUpdateSlice;
  }

  // The task whose buffer task `t`'s value lives in (through aliases of one operand).
  uint32_t storage_of(uint32_t t) const {
    while (t != kNoTask && g_.tasks[t].alias && g_.deps_of(t).size() == 1) t = g_.deps_of(t).front();
    return t;
  }

  int lanes_for(InstrId i) const {
    if (auto l = lanes_attribute(m_, i)) return *l;
    return std::max(1, o_.lanes);
  }

  // Bytes read and written, where they live, and what the accesses cost. Returns the
  // bytes that go to or from DRAM.
  int64_t fill_memory(InstrId i, Task& k) {
    k.bytes_out = m_.shape(i).byte_size();
    k.footprint = k.bytes_out;
    int64_t onchip = 0, dram = 0;
    const int64_t on_chip_cap = t_.memory.front().capacity_bytes;
    k.dram = t_.is_fpga() && k.footprint > on_chip_cap;
    (k.dram ? dram : onchip) += k.bytes_out;
    for (InstrId o : m_.operands(i)) {
      const int64_t b = stored_bytes(o);
      k.bytes_in += b;
      const uint32_t producer = value_task_[o];
      const bool in_dram = t_.is_fpga() && (b > on_chip_cap || (producer != kNoTask && g_.tasks[producer].dram));
      (in_dram ? dram : onchip) += b;
    }
    if (t_.is_fpga()) {
      k.onchip_pj = onchip / 8.0 * t_.memory.front().pj_per_64bit * t_.hard_block_energy_factor;
      k.dram_pj = dram / 8.0 * t_.dram().pj_per_64bit;
      return dram;
    }
    const MemoryLevel& level = cpu_level(k.bytes_in + k.bytes_out);
    const double pj = (k.bytes_in + k.bytes_out) / 8.0 * level.pj_per_64bit;
    (&level == &t_.dram() ? k.dram_pj : k.onchip_pj) = pj;
    return &level == &t_.dram() ? k.bytes_in + k.bytes_out : 0;
  }

  // The bytes a reader of `v` reads: a chained convert's source (chaining.h).
  int64_t stored_bytes(InstrId v) const {
    const uint32_t task = value_task_[v];
    const bool chained = task != kNoTask && g_.tasks[task].alias && m_.opcode(v) == Opcode::kConvert;
    return m_.shape(chained ? m_.operand(v, 0) : v).byte_size();
  }

  const MemoryLevel& cpu_level(int64_t working_set) const {
    for (const MemoryLevel& l : t_.memory)
      if (working_set <= l.capacity_bytes) return l;
    return t_.dram();
  }

  static int64_t items_of(const Work& w) {
    switch (w.form) {
      case Form::kAccumulate: return saturating_mul(w.n, std::max<int64_t>(w.k, 1));
      case Form::kSort: return sort_network_ops(w.k, w.n);
      default: return w.n;
    }
  }

  void time_fpga(const Work& w, Task& k, int64_t dram_bytes) {
    const int lanes = lanes_for(k.instr);
    Timing tm;
    switch (w.form) {
      // Operands come from synchronous memories: kMemoryReadLatency stages before the unit.
      case Form::kAccumulate: tm = accumulate_timing(w.n, w.k, lanes, w.mul_depth + kMemoryReadLatency, w.depth); break;
      case Form::kSort: tm = sort_timing(w.k, w.n, lanes, w.depth); break;
      case Form::kScatter: tm = stream_timing(w.n, lanes, w.depth); break;
      default: tm = stream_timing(w.n, lanes, w.depth + kMemoryReadLatency, w.lead); break;
    }
    if (dram_bytes > 0) {
      const MemoryLevel& d = t_.dram();
      const auto stream = static_cast<int64_t>(std::ceil(static_cast<double>(dram_bytes) / d.bytes_per_cycle));
      if (d.latency + stream > tm.latency) tm.latency = tm.busy = d.latency + stream;
    }
    finish(w, k, tm);
    if (w.form == Form::kAccumulate && ir::is_floating(w.type)) k.area.ff += float_accumulator_ff(w, tm);
  }

  // A float reduction, dot or convolution keeps its partial sums in accumulator registers
  // (timing.h: per lane g = min(p, A) for its p outputs and adder depth A; a split
  // reduction one partial per lane). The float rows' FF count a result register, which the
  // `_chain` units rtl instantiates do not have (unit_model.h float_lane_area): the
  // accumulator is that result's register, priced here (Yosys on softmax keeps 160 FF of
  // accumulators, 4 x 32 on its fadd lane and 32 on its fmax lane).
  int64_t float_accumulator_ff(const Work& w, const Timing& tm) const {
    const int64_t lanes = std::max<int64_t>(1, tm.lanes_used);
    const int64_t slots = lanes <= w.n ? std::min<int64_t>(ceil_div(w.n, lanes), std::max<int64_t>(1, w.depth)) : 1;
    return lanes * slots * datapath_bits(w.type);
  }

  void time_cpu(const Work& w, Task& k) {
    const int64_t items = items_of(w);
    const int64_t v = std::max(1, t_.simd_bits / std::max<int>(k.width, 1));
    const double compute = static_cast<double>(ceil_div(items, v)) * w.cpu_cycles_per_vector;
    const double memory = static_cast<double>(k.bytes_in + k.bytes_out) / cpu_level(k.bytes_in + k.bytes_out).bytes_per_cycle;
    Timing tm;
    if (items > 0) tm.latency = tm.busy = t_.overhead_cycles + static_cast<int64_t>(std::ceil(std::max(compute, memory)));
    finish(w, k, tm);
  }

  void finish(const Work& w, Task& k, const Timing& tm) {
    const int64_t items = items_of(w);
    k.latency = tm.latency;
    k.busy = tm.busy;
    k.lanes = static_cast<int32_t>(t_.is_fpga() ? tm.lanes_used : 1);
    k.element_ops = saturating_mul(items, w.ops_per_item);
    k.compute_pj = static_cast<double>(items) * w.energy_per_item;
    k.area = {w.lane_area.dsp * k.lanes, w.lane_area.lut * k.lanes, w.lane_area.ff * k.lanes, 0};
    k.float_unit = w.float_unit;
    // (a mem task moves its operand: no logic to add, its select is the operand multiplexer)
    k.own_logic = t_.is_fpga() && w.form == Form::kStream && w.unit != UnitClass::kMem && w.float_unit < 0 &&
                  ir::is_integral(w.type);
    if (k.own_logic) k.lone_product = lone_product_key(k.instr);
    if (k.busy <= 0) k.unit = kNoUnit;  // nothing to do: holds no unit
  }

  // Task::lone_product of integer op i: its result and operand types when it is one
  // multiply of two operands read as stored (no literal, no chained convert), as rtl's
  // lone_multiply sees it; 0 otherwise.
  uint32_t lone_product_key(InstrId i) const {
    if (m_.opcode(i) != Opcode::kMultiply || m_.operands(i).size() != 2 || has_literal_operand(m_, i)) return 0;
    uint32_t key = static_cast<uint32_t>(m_.shape(i).element_type()) + 1;
    for (InstrId o : m_.operands(i)) {
      if (chained_convert(m_, o)) return 0;
      key = key * 256 + static_cast<uint32_t>(m_.shape(o).element_type());
    }
    return key;
  }

  // The value `o` names: an element of a tuple instruction through get-tuple-element
  // (its readers read that element's buffer, not the whole tuple's).
  InstrId source(InstrId o) const {
    while (m_.opcode(o) == Opcode::kGetTupleElement) {
      const InstrId t = m_.operand(o, 0);
      const int64_t k = m_.attrs(o).tuple_index;
      if (m_.opcode(t) != Opcode::kTuple || k < 0 || static_cast<size_t>(k) >= m_.operands(t).size()) break;
      o = m_.operand(t, static_cast<size_t>(k));
    }
    return o;
  }

  uint32_t emit(InstrId i, Task k) {
    deps_.clear();
    const auto ops = m_.operands(i);
    for (InstrId o : ops) {
      const uint32_t d = value_task_[source(o)];
      if (d != kNoTask && std::find(deps_.begin(), deps_.end(), d) == deps_.end()) deps_.push_back(d);
    }
    set_dep_reads(i, k, ops);
    if (branch_reads_) {  // a conditional: its branches' reads of its operand leaves, no others
      std::fill(reads_.begin(), reads_.end(), 0);
      for (const auto& [d, r] : *branch_reads_) {
        const auto q = static_cast<size_t>(std::find(deps_.begin(), deps_.end(), d) - deps_.begin());
        if (q == deps_.size()) deps_.push_back(d), reads_.push_back(0);
        reads_[q] = static_cast<uint8_t>(std::min(255, r));
      }
    }
    if (k.alias && !deps_.empty()) k.dram = g_.tasks[deps_.front()].dram;
    const uint32_t id = g_.add(k, deps_, reads_);
    value_task_[i] = id;
    return id;
  }

  // TaskGraph::dep_reads of `i`'s dependences: the reads of the operands stored in one
  // buffer (through aliases) go to the first dependence naming that buffer, summed when
  // each operand position is its own leaf, else one address; the others read 0. Only an
  // FPGA task on a unit reads through ports (binding.cc): the rest keep 1.
  void set_dep_reads(InstrId i, const Task& k, std::span<const InstrId> ops) {
    reads_.assign(deps_.size(), 1);
    if (!t_.is_fpga() || k.alias || k.unit == kNoUnit) return;
    const bool sum = reads_per_position(m_.opcode(i));
    dep_storage_.resize(deps_.size());
    for (size_t q = 0; q < deps_.size(); ++q) dep_storage_[q] = storage_of(deps_[q]);
    std::fill(reads_.begin(), reads_.end(), 0);
    // an elementwise reader reads one storage once per distinct address: two chained
    // broadcasts of x along different dimensions are two reads of x
    const bool by_address = ir::info(m_.opcode(i)).elementwise;
    dep_addresses_.assign(deps_.size(), {});
    for (size_t a = 0; a < ops.size(); ++a) {
      const uint32_t d = value_task_[source(ops[a])];
      if (d == kNoTask) continue;
      const uint32_t st = storage_of(d);
      const size_t q = static_cast<size_t>(std::find(dep_storage_.begin(), dep_storage_.end(), st) - dep_storage_.begin());
      int r = operand_reads(i, a);
      if (by_address) {
        auto& seen = dep_addresses_[q];
        const Address at = read_address(i, ops[a]);
        if (std::find(seen.begin(), seen.end(), at) == seen.end()) seen.push_back(at);
        r = std::max<int>(r, static_cast<int>(seen.size()));
      }
      reads_[q] = static_cast<uint8_t>(std::min(255, sum ? reads_[q] + r : std::max<int>(reads_[q], r)));
    }
  }

  // The word of its storage an elementwise reader `i` reads for operand `o` at output
  // index (c_0, ..., c_n): sum_k a_k c_k, as the (k, a_k) with a_k != 0 and counter k of
  // more than one trip (a counter of one trip is the constant 0), the linear form rtl's
  // address takes (index_expr.h), through chained converts and broadcasts (chaining.h).
  using Address = std::vector<std::pair<int64_t, int64_t>>;
  Address read_address(InstrId i, InstrId o) const {
    const ir::Shape& out = m_.shape(i);
    // per dimension of o: the output counter indexing it (a scalar operand has none)
    std::vector<int64_t> idx;
    if (m_.shape(o).rank() == out.rank())
      for (int64_t k = 0; k < out.rank(); ++k) idx.push_back(k);
    for (;;) {
      if (chained_broadcast(m_, o)) {
        const std::vector<int64_t>& dims = m_.attrs(o).dimensions;
        std::vector<int64_t> src(dims.size());
        for (size_t k = 0; k < dims.size(); ++k) src[k] = idx.at(static_cast<size_t>(dims[k]));
        idx = std::move(src);
      } else if (!chained_convert(m_, o)) {
        break;
      }
      o = m_.operand(o, 0);
    }
    std::map<int64_t, int64_t> terms;
    const std::vector<int64_t>& dims = m_.shape(o).dims();
    int64_t stride = 1;
    for (size_t d = dims.size(); d-- > 0;) {
      if (d < idx.size() && out.dim(idx[d]) > 1) terms[idx[d]] += stride;
      stride *= dims[d];
    }
    return {terms.begin(), terms.end()};
  }

  void inline_call(InstrId i) {
    const auto& called = m_.called(i);
    if (called.size() != 1) {
      if (!o_.lenient) no_cost_model(i);
      return lower_unknown_move(i);
    }
    const ir::Computation& callee = m_.computation(called[0]);
    const auto ops = m_.operands(i);
    for (size_t k = 0; k < callee.params.size() && k < ops.size(); ++k)
      if (callee.params[k] != ir::kNoId) value_task_[callee.params[k]] = value_task_[ops[k]];
    lower_computation(called[0], false);
    value_task_[i] = callee.root != ir::kNoId ? value_task_[callee.root] : kNoTask;
    if (value_task_[i] == kNoTask) emit(i, base_task(i, Work{}));
  }

  void lower_unknown_move(InstrId i) {
    ++g_.uncosted[static_cast<size_t>(m_.opcode(i))];
    const Work w = work_.move(i, std::max<int64_t>(1, m_.shape(i).element_count()));
    Task k = base_task(i, w);
    set_timing(w, k, fill_memory(i, k));
    emit(i, k);
  }

  void absorb(const SubCost& s, int64_t times, Task& k) {
    k.element_ops += saturating_mul(s.element_ops, times);
    k.compute_pj += s.compute_pj * static_cast<double>(times);
    k.onchip_pj += s.onchip_pj * static_cast<double>(times);
    k.dram_pj += s.dram_pj * static_cast<double>(times);
    k.scratch = std::max(k.scratch, s.peak_bytes);
    for (size_t op = 0; op < g_.uncosted.size(); ++op) g_.uncosted[op] += s.uncosted[op];
    g_.unknown_trip_counts += s.unknown_trip_counts;
  }

  // A loop or conditional owns its datapath on an FPGA; on a CPU it holds the core.
  void finish_macro(Task& k) const {
    if (t_.is_cpu() && k.latency > 0) {
      k.unit = static_cast<uint8_t>(UnitClass::kMem);
      k.busy = k.latency;
    }
  }

  void lower_while(InstrId i);
  void lower_conditional(InstrId i);
  std::vector<std::pair<uint32_t, int>> branch_operand_reads(InstrId i) const;

  const ir::Module& m_;
  const Target& t_;
  const LoweringOptions& o_;
  const SubCoster& sub_;
  WorkModel& work_;
  std::vector<uint32_t>& value_task_;  // shared with nested lowerings (disjoint entries)
  const ValueBits& value_bits_;
  std::vector<uint32_t> deps_;
  std::vector<uint8_t> reads_;  // aligned with deps_ (set_dep_reads)
  std::optional<std::vector<std::pair<uint32_t, int>>> branch_reads_;  // the conditional being emitted (branch_operand_reads)
  std::vector<uint32_t> dep_storage_;  // set_dep_reads' scratch: each dependence's storage task
  std::vector<std::vector<Address>> dep_addresses_;  // set_dep_reads' scratch: addresses read per dependence
  TaskGraph g_;
};

// FPGA: the loop of control_flow.h, whose state memories hold its result (the task itself
// allocates nothing). CPU: (trip) x (condition + body) + condition. The body and
// condition run on their own datapaths (their area is added once).
void Lowerer::lower_while(InstrId i) {
  const auto& called = m_.called(i);
  std::optional<int64_t> trips = while_trip_count(m_, i);
  if (!trips) {
    if (!o_.lenient)
      throw Error(fmt::format("while {}: trip count not statically known (needs a known_trip_count backend_config "
                              "or a counted loop i = S; while (i + c CMP N) i += k, with constants S, c, N, k); --lenient costs one trip",
                              m_.name(i)),
                  {m_.source_file(), m_.payload(i).line});
    trips = 1;
    ++g_.unknown_trip_counts;
  }
  const SubCost& cond = sub_(called[0]);
  const SubCost& body = sub_(called[1]);
  const bool pipelined = body.pipeline_ii > 0;  // the condition is not built: a trip counter
  Task k = base_task(i, Work{});
  fill_memory(i, k);
  if (t_.is_fpga()) {
    const WhileLoop loop = while_loop(m_, i, t_, *trips, cond.cycles, body.cycles, body.pipeline_ii);
    k.latency = std::min(kCycleCap, loop.latency());
    k.footprint = 0;
    k.copies_in = true;
    g_.own_datapaths += state_area(t_, loop);
    k.onchip_pj += state_copy_pj(t_, loop);
  } else {
    k.latency = std::min(kCycleCap, saturating_mul(*trips, cond.cycles + body.cycles) + cond.cycles);
  }
  absorb(body, *trips, k);
  if (!pipelined) absorb(cond, *trips + 1, k);
  g_.own_datapaths += body.area;
  if (!pipelined) g_.own_datapaths += cond.area;
  finish_macro(k);
  emit(i, k);
}

// The longest branch decides the latency (a static FSM waits for it) and the energy
// (worst case); every branch has its own datapath. FPGA: the conditional of
// control_flow.h (decide, branch, copy-out into result memories of its own).
void Lowerer::lower_conditional(InstrId i) {
  Task k = base_task(i, Work{});
  fill_memory(i, k);
  SubCost worst;
  std::vector<int64_t> branch_cycles;
  for (ir::CompId c : m_.called(i)) {
    const SubCost& b = sub_(c);
    branch_cycles.push_back(b.cycles);
    worst.cycles = std::max(worst.cycles, b.cycles);
    worst.element_ops = std::max(worst.element_ops, b.element_ops);
    worst.compute_pj = std::max(worst.compute_pj, b.compute_pj);
    worst.onchip_pj = std::max(worst.onchip_pj, b.onchip_pj);
    worst.dram_pj = std::max(worst.dram_pj, b.dram_pj);
    worst.peak_bytes = std::max(worst.peak_bytes, b.peak_bytes);
    for (size_t op = 0; op < worst.uncosted.size(); ++op) worst.uncosted[op] += b.uncosted[op];
    worst.unknown_trip_counts += b.unknown_trip_counts;
    g_.own_datapaths += b.area;
  }
  k.latency = worst.cycles;
  if (t_.is_fpga()) {
    const Conditional x = conditional(m_, i, t_, std::move(branch_cycles));
    k.latency = x.latency();
    k.footprint = 0;
    g_.own_datapaths += result_area(t_, x);
    k.onchip_pj += result_copy_pj(t_, x);
    k.copies_in = true;  // its branches read the operands' memories (branch_reads_)
    branch_reads_ = branch_operand_reads(i);
  }
  absorb(worst, 1, k);
  finish_macro(k);
  emit(i, k);
  branch_reads_.reset();
}

// Per task storing one leaf of a conditional's branch operands: the read ports the
// branches take on it (control_flow.h branch_operand_readers, summed over branches that
// receive the same leaf). A leaf that is not one task's buffer (a loop's or conditional's
// result leaf) is not listed.
std::vector<std::pair<uint32_t, int>> Lowerer::branch_operand_reads(InstrId i) const {
  std::vector<std::pair<uint32_t, int>> out;
  for (size_t b = 0; b + 1 < m_.operands(i).size(); ++b) {
    const InstrId op = m_.operand(i, b + 1);
    std::vector<std::vector<int64_t>> paths;
    std::vector<int64_t> path;
    const std::function<void(const ir::Shape&)> leaves = [&](const ir::Shape& sh) {
      if (!sh.is_tuple()) return paths.push_back(path);
      for (size_t e = 0; e < sh.tuple_elements().size(); ++e) {
        path.push_back(static_cast<int64_t>(e));
        leaves(sh.tuple_element(static_cast<int64_t>(e)));
        path.pop_back();
      }
    };
    leaves(m_.shape(op));
    for (const std::vector<int64_t>& leaf : paths) {
      const int r = branch_operand_readers(m_, i, b, leaf);
      const auto [value, rest] = leaf_source(m_, op, leaf);
      if (r == 0 || !rest.empty() || value_task_[value] == kNoTask) continue;
      const uint32_t d = storage_of(value_task_[value]);
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == d; });
      if (it == out.end()) out.emplace_back(d, r);
      else it->second += r;
    }
  }
  return out;
}

}  // namespace

LoweringCache::LoweringCache(const ir::Module& m, const Target& t) : impl_(std::make_unique<Impl>(m, t)) {}
LoweringCache::~LoweringCache() = default;

TaskGraph lower(const ir::Module& m, ir::CompId c, const Target& t, const LoweringOptions& o, const SubCoster& sub,
                LoweringCache* cache) {
  if (cache) return Lowerer(m, c, t, o, sub, cache->impl()).run(c);
  LoweringCache fresh(m, t);
  return Lowerer(m, c, t, o, sub, fresh.impl()).run(c);
}

}  // namespace hlsgym::hwmodel
