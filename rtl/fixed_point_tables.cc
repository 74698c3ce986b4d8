#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "rtl/fixed_point_internal.h"

namespace hlsgym::rtl::fixed {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using ir::Shape;

InstrId Builder::lookup(InstrId index, const std::vector<int64_t>& table, int bits) {
  const ElementType t = ir::fixed_container(bits);
  ir::Literal l(Shape(t, {static_cast<int64_t>(table.size())}));
  for (size_t k = 0; k < table.size(); ++k) l.set_int(static_cast<int64_t>(k), table[k]);
  const InstrId rom = m_.add_constant(c_, std::move(l));
  std::vector<int64_t> dims = m_.shape(index).dims();
  const int64_t rank = static_cast<int64_t>(dims.size());
  dims.push_back(1);
  const InstrId idx = m_.add_instruction(c_, Opcode::kReshape, Shape(ElementType::kS32, dims),
                                         std::span<const InstrId>(&index, 1));
  dims.pop_back();
  ir::Attributes a;
  a.gather_dims = ir::GatherDims{};
  a.gather_dims->collapsed_slice_dims = {0};
  a.gather_dims->start_index_map = {0};
  a.gather_dims->index_vector_dim = rank;
  a.gather_dims->slice_sizes = {1};
  const InstrId ops[] = {rom, idx};
  return m_.add_instruction(c_, Opcode::kGather, Shape(t, dims), ops, std::move(a));
}

InstrId Builder::function_table(Fx x, const ir::FixedFormat& in, const ir::FixedFormat& out,
                                const std::function<long double(long double)>& f) {
  const int index_bits = std::min(in.width, kTableBits);
  const int low_bits = in.width - index_bits;  // interpolated
  const int64_t n = int64_t{1} << index_bits;
  // table entries in `out` with guard bits, as wide as the interpolation lets them be
  const int guard = low_bits == 0 ? 0 : std::min(kGuardBits, 60 - out.width - low_bits);
  if (guard < 0) refuse_("needs a table wider than 64 bits for " + ir::to_string(in) + " -> " + ir::to_string(out));
  // entries hold f beyond out's range too (16 more integer bits, as far as 64-bit lines
  // allow), so a segment that leaves the range interpolates the true line, and out's own
  // overflow mode acts on the result
  const int entry_width = std::min(60 - low_bits, out.width + guard + 16);
  ir::FixedFormat entry{entry_width, entry_width - out.fraction_bits() - guard, ir::FixedRounding::kRound,
                        ir::FixedOverflow::kSaturate};
  if (low_bits == 0) entry = out;  // every input has its entry: f rounded by out's own modes
  std::vector<int64_t> value(static_cast<size_t>(n)), step(static_cast<size_t>(n));
  const auto f_at = [&](int64_t segment) {  // f at the start of a segment (segment n: the end)
    const long double xs = std::ldexp(static_cast<long double>((segment - n / 2) * (int64_t{1} << low_bits)), -in.fraction_bits());
    return ir::quantize_real(f(xs), entry);
  };
  int step_bits = 1, value_bits = 1;
  for (int64_t k = 0; k < n; ++k) {
    value[static_cast<size_t>(k)] = f_at(k);
    while (value_bits < 63 && std::llabs(value[static_cast<size_t>(k)]) >= (int64_t{1} << (value_bits - 1))) ++value_bits;
    if (low_bits == 0) continue;
    step[static_cast<size_t>(k)] = f_at(k + 1) - value[static_cast<size_t>(k)];
    while (step_bits < 63 && std::llabs(step[static_cast<size_t>(k)]) >= (int64_t{1} << (step_bits - 1))) ++step_bits;
  }
  // the segment: x's top bits, offset so the most negative x reads entry 0
  const InstrId top = add_const(shift_right(cast(x.id, ir::fixed_container(in.width + 1)), low_bits), n / 2);
  const InstrId index = cast(top, ElementType::kS32);
  const InstrId v = lookup(index, value, low_bits == 0 ? entry.width : value_bits + 1);
  if (low_bits == 0) return cast(v, ir::fixed_container(out.width));
  // value << low + step * (x's low bits): f at x to within the line's error
  const int bits = std::max(value_bits + 1 + low_bits, step_bits + low_bits + 1) + 1;
  const ElementType t = ir::fixed_container(bits);
  const InstrId low = cast(and_const(cast(x.id, ir::fixed_container(in.width + 1)), (int64_t{1} << low_bits) - 1), t);
  const InstrId line = binary(Opcode::kAdd, shift_left(cast(v, t), low_bits),
                              binary(Opcode::kMultiply, cast(lookup(index, step, step_bits), t), low));
  return rescale(Fx{line, bits, entry.fraction_bits() + low_bits, false}, out);
}

}  // namespace hlsgym::rtl::fixed
