// bitcast_dtypes_expander (XLA BitcastDtypesExpander): a bitcast-convert between element
// types of different widths becomes same-width bitcasts, shifts, masks and converts.
//  - wide -> narrow (f32[N] -> u8[N,4]): broadcast to [N,4], bitcast to u32, shift right by
//    8 * iota over the new dimension, mask, convert to u8, bitcast to the result type.
//  - narrow -> wide (u8[N,4] -> f32[N]): bitcast to u8, convert to u32, shift left by
//    8 * iota over the last dimension, reduce it with or, bitcast to the result type.
// These are XLA's instructions, expanded in place where XLA wraps them in a called
// computation (xla.bitcast_convert_...) and reshapes the wide operand to itself first.
// Part k of a wide element is its k-th least significant part, which is the byte order of
// the interpreter's little-endian buffers. Only byte-sized integer and float types.
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

ElementType unsigned_of_width(int w) {
  switch (w) {
    case 8: return ElementType::kU8;
    case 16: return ElementType::kU16;
    case 32: return ElementType::kU32;
    default: return ElementType::kU64;
  }
}

bool byte_sized(ElementType t) {
  const int w = ir::bit_width(t);
  return (ir::is_integral(t) || ir::is_floating(t)) && (w == 8 || w == 16 || w == 32 || w == 64) &&
         ir::byte_width(t) * 8 == w;
}

bool matches(const ir::Module& m, InstrId i) {
  const ir::Shape &in = m.shape(m.operand(i, 0)), &out = m.shape(i);
  if (!in.is_array() || !out.is_array() || !in.is_static() || !out.is_static()) return false;
  if (!byte_sized(in.element_type()) || !byte_sized(out.element_type())) return false;
  const int wi = ir::bit_width(in.element_type()), wo = ir::bit_width(out.element_type());
  if (wi == wo) return false;
  std::vector<int64_t> wide = wi > wo ? in.dims() : out.dims(), narrow = wi > wo ? out.dims() : in.dims();
  const int64_t factor = wi > wo ? wi / wo : wo / wi;
  if (narrow.empty() || narrow.back() != factor) return false;
  narrow.pop_back();
  return narrow == wide;
}

InstrId split_wide(expand::Builder& b, InstrId x, ElementType out_type) {
  const ir::Shape& in = b.module().shape(x);
  const int wi = ir::bit_width(in.element_type()), wo = ir::bit_width(out_type);
  const ElementType logical = unsigned_of_width(wi);
  std::vector<int64_t> dims = in.dims();
  dims.push_back(wi / wo);
  const InstrId spread = b.bitcast_convert(b.broadcast(x, dims, expand::all_dims_except(in.rank(), -1)), logical);
  const InstrId iota = b.iota(logical, dims, in.rank());
  const InstrId shift = b.binary(Opcode::kMultiply, b.splat_int(logical, wo, dims), iota);
  const InstrId shifted = b.binary(Opcode::kShiftRightLogical, spread, shift);
  const uint64_t mask = wo >= 64 ? ~uint64_t{0} : (uint64_t{1} << wo) - 1;
  const InstrId masked = b.binary(Opcode::kAnd, shifted, b.splat_int(logical, static_cast<int64_t>(mask), dims));
  return b.bitcast_convert(b.convert(masked, unsigned_of_width(wo)), out_type);
}

InstrId join_narrow(expand::Builder& b, InstrId x, ElementType out_type) {
  ir::Module& m = b.module();
  const ir::Shape& in = m.shape(x);
  const int wi = ir::bit_width(in.element_type()), wo = ir::bit_width(out_type);
  const ElementType logical_out = unsigned_of_width(wo);
  const std::vector<int64_t> dims = in.dims();
  const InstrId parts = b.convert(b.bitcast_convert(x, unsigned_of_width(wi)), logical_out);
  const InstrId shift = b.binary(Opcode::kMultiply, b.splat_int(logical_out, wi, dims),
                                 b.iota(logical_out, dims, in.rank() - 1));
  const InstrId shifted = b.binary(Opcode::kShiftLeft, parts, shift);
  const ir::CompId bit_or = expand::binary_computation(m, Opcode::kOr, logical_out, "or");
  const InstrId joined = b.reduce(shifted, b.scalar_int(logical_out, 0), {in.rank() - 1}, bit_or);
  return b.bitcast_convert(joined, out_type);
}

class BitcastDtypesExpander final : public Pass {
 public:
  std::string_view name() const override { return "bitcast_dtypes_expander"; }
  std::string_view description() const override {
    return "expands bitcast-convert between element types of different widths into shifts and masks";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kBitcastConvert})) {
      if (!matches(m, i)) continue;
      expand::Builder b(m, m.computation_of(i));
      const InstrId x = m.operand(i, 0);
      const ElementType t = m.shape(i).element_type();
      const bool wide_in = ir::bit_width(m.shape(x).element_type()) > ir::bit_width(t);
      expand::replace_with(m, i, wide_in ? split_wide(b, x, t) : join_narrow(b, x, t));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_bitcast_dtypes_expander() { return std::make_unique<BitcastDtypesExpander>(); }

}  // namespace hlsgym::passes
