#include "ir/module_hash.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

namespace hlsgym::ir {
namespace {

struct Hasher {
  uint64_t h = 0x243f6a8885a308d3ull;
  void add(uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  void add(std::string_view s) {
    add(s.size());
    for (char c : s) add(static_cast<uint8_t>(c));
  }
  void add(const std::vector<int64_t>& v) {
    add(v.size());
    for (int64_t x : v) add(static_cast<uint64_t>(x));
  }
  void add(const Shape& s) {
    add(static_cast<uint64_t>(s.element_type()));
    if (s.is_tuple()) {
      add(s.tuple_elements().size());
      for (const auto& e : s.tuple_elements()) add(e);
      return;
    }
    add(s.dims());
  }
};

// Every attribute except metadata-like opaque ones (they do not change meaning).
// frontend_attributes count: their `lanes` hint changes the hardware a state costs, and
// the environment's metrics cache is keyed by this hash.
void add_attributes(Hasher& k, const Attributes& a) {
  k.add(a.dimensions);
  for (int64_t v : {a.parameter_number, a.tuple_index, a.iota_dimension, a.feature_index, a.feature_group_count,
                    a.batch_group_count, a.exponent_bits, a.mantissa_bits, a.k})
    k.add(static_cast<uint64_t>(v));
  uint32_t eps_bits;
  static_assert(sizeof eps_bits == sizeof a.epsilon);
  std::memcpy(&eps_bits, &a.epsilon, sizeof eps_bits);
  k.add(eps_bits);
  k.add(a.largest ? 1 + *a.largest : 0);
  k.add(a.is_stable ? 1 + *a.is_stable : 0);
  k.add(a.direction ? 1 + static_cast<uint64_t>(*a.direction) : 0);
  k.add(a.comparison_type);
  for (const auto& s : a.slice) k.add({s.start, s.limit, s.stride});
  for (const auto& p : a.padding) k.add({p.low, p.high, p.interior});
  k.add(a.dynamic_slice_sizes);
  if (a.window)
    for (const auto& w : *a.window)
      k.add({w.size, w.stride, w.pad_low, w.pad_high, w.base_dilation, w.window_dilation, w.reversal});
  if (a.conv_dims) {
    const auto& d = *a.conv_dims;
    k.add({d.input_batch, d.input_feature, d.kernel_input_feature, d.kernel_output_feature, d.output_batch,
           d.output_feature});
    k.add(d.input_spatial), k.add(d.kernel_spatial), k.add(d.output_spatial);
  }
  if (a.dot_dims) {
    const auto& d = *a.dot_dims;
    k.add(d.lhs_batch), k.add(d.rhs_batch), k.add(d.lhs_contracting), k.add(d.rhs_contracting);
  }
  if (a.gather_dims) {
    const auto& d = *a.gather_dims;
    k.add(d.offset_dims), k.add(d.collapsed_slice_dims), k.add(d.start_index_map), k.add(d.operand_batching_dims);
    k.add(d.start_indices_batching_dims), k.add(d.slice_sizes);
    k.add({d.index_vector_dim, d.indices_are_sorted});
  }
  if (a.scatter_dims) {
    const auto& d = *a.scatter_dims;
    k.add(d.update_window_dims), k.add(d.inserted_window_dims), k.add(d.scatter_dims_to_operand_dims);
    k.add(d.input_batching_dims), k.add(d.scatter_indices_batching_dims);
    k.add({d.index_vector_dim, d.indices_are_sorted, d.unique_indices});
  }
  for (std::string_view s : {std::string_view(a.custom_call_target), std::string_view(a.fusion_kind),
                             std::string_view(a.rng_distribution), std::string_view(a.rng_algorithm),
                             std::string_view(a.fft_type)})
    k.add(s);
  k.add(a.fft_length);
  k.add(a.pred_branches);
  for (const auto& o : a.opaque)
    if (o.key != "metadata" && o.key != "sharding") k.add(o.key), k.add(o.value);
}

void add_literal(Hasher& k, const Literal& l) {
  if (l.elided()) return k.add(0xe11dedull);
  if (l.is_tuple()) {
    for (const auto& e : l.tuple_elements()) add_literal(k, e);
    return;
  }
  const auto bytes = l.bytes();
  k.add(bytes.size());
  // Eight bytes at a time; the tail byte by byte.
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    k.add(w);
  }
  for (; i < bytes.size(); ++i) k.add(static_cast<uint8_t>(bytes[i]));
}

// Shape, attributes and (for a constant) literal of an instruction, cached in its payload
// (ir/module.h, PayloadHash). The low two bits of the cached value record whether the
// literal was counted, since that depends on the instruction's opcode, not the payload.
uint64_t payload_hash(const InstrPayload& p, Opcode op) {
  const bool constant = op == Opcode::kConstant;
  const uint64_t cached = p.content_hash.get();
  const uint64_t tag = constant ? 2 : 1;  // the low bits say which form is cached
  if (cached != 0 && (cached & 3) == tag) return cached;
  Hasher k;
  k.add(p.shape);
  add_attributes(k, p.attrs);
  if (constant && p.literal) add_literal(k, *p.literal);
  const uint64_t h = (k.h & ~uint64_t{3}) | tag;
  p.content_hash.set(h);
  return h;
}

// Hash of one computation, its callees hashed first (memoized in comp_hash; 0 = not yet).
uint64_t computation_hash(const Module& m, CompId c, std::vector<uint64_t>& comp_hash, std::vector<uint32_t>& local) {
  if (comp_hash[c]) return comp_hash[c];
  const std::vector<InstrId> order = m.post_order(c);
  for (InstrId i : order)
    for (CompId callee : m.called(i)) computation_hash(m, callee, comp_hash, local);
  Hasher k;
  uint32_t n = 0;
  for (InstrId i : order) {
    local[i] = n++;
    k.add(static_cast<uint64_t>(m.opcode(i)));
    k.add(payload_hash(m.payload(i), m.opcode(i)));
    const auto ops = m.operands(i);
    k.add(ops.size());
    for (InstrId o : ops) k.add(local[o]);
    for (CompId callee : m.called(i)) k.add(comp_hash[callee]);
  }
  const Computation& comp = m.computation(c);
  k.add(comp.root == kNoId ? ~0ull : local[comp.root]);
  return comp_hash[c] = k.h | 1;  // never 0
}

}  // namespace

uint64_t structural_hash(const Module& m) {
  if (m.entry() == kNoId) return 0;
  std::vector<uint64_t> comp_hash(m.computation_slots(), 0);
  std::vector<uint32_t> local(m.instruction_slots(), 0);
  Hasher k;
  k.add(computation_hash(m, m.entry(), comp_hash, local));
  // Every computation object counts, reachable or not: a computation nobody calls any
  // more still holds instructions until a DCE removes it, and one computation shared by
  // two call sites is a different state from two copies (flatten-call-graph). So the
  // state also hashes the sorted multiset of all computation hashes.
  std::vector<uint64_t> all;
  for (CompId c = 0; c < m.computation_slots(); ++c)
    if (!m.computation(c).dead) all.push_back(computation_hash(m, c, comp_hash, local));
  std::sort(all.begin(), all.end());
  for (uint64_t h : all) k.add(h);
  return k.h;
}

}  // namespace hlsgym::ir
