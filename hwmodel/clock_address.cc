#include "hwmodel/clock_address.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hlsgym::hwmodel {
namespace {
using ir::Opcode;

struct Term {
  int64_t stride = 0, extent = 1;  // the counter runs over 0 .. extent - 1
};

std::vector<int64_t> row_strides(const ir::Shape& s) {
  std::vector<int64_t> r(static_cast<size_t>(s.rank()), 1);
  for (int64_t d = s.rank() - 2; d >= 0; --d) r[d] = r[d + 1] * s.dim(d + 1);
  return r;
}

// One counter per dimension of `s` (reduce's input, dot's operands, a kernel).
std::vector<Term> per_dimension(const ir::Shape& s) {
  std::vector<Term> t;
  const std::vector<int64_t> r = row_strides(s);
  for (int64_t d = 0; d < s.rank(); ++d) t.push_back({r[d], s.dim(d)});
  return t;
}

bool power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int adders(std::vector<Term> terms, bool offset) {
  std::erase_if(terms, [](const Term& t) { return t.extent <= 1 || t.stride == 0; });
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.stride < b.stride; });
  int n = offset ? 1 : 0;
  int64_t reach = 0;  // the largest value of the terms so far
  for (const Term& t : terms) {
    if (!power_of_two(t.stride) || t.stride <= reach) ++n;
    reach += t.stride * (t.extent - 1);
  }
  return n;
}

}  // namespace

std::optional<int> address_adders(const ir::Module& m, ir::InstrId reader, ir::InstrId operand) {
  const ir::Instruction& in = m.instr(reader);
  const auto ops = m.operands(reader);
  const auto at = std::find(ops.begin(), ops.end(), operand);
  if (at == ops.end()) return std::nullopt;
  const size_t k = static_cast<size_t>(at - ops.begin());
  const ir::Shape& s = m.instr(operand).payload->shape;
  if (!s.is_array()) return std::nullopt;
  const ir::Attributes& a = in.payload->attrs;
  switch (in.opcode) {
    case Opcode::kReduce:
      if (k >= ops.size() / 2) return std::nullopt;  // an init value
      return adders(per_dimension(s), false);
    case Opcode::kDot: return adders(per_dimension(s), false);
    case Opcode::kReduceWindow: {
      if (k != 0 || !a.window || !in.payload->shape.is_array() || a.window->size() != static_cast<size_t>(s.rank()))
        return std::nullopt;
      const ir::Shape& out = in.payload->shape;
      const std::vector<int64_t> r = row_strides(s);
      std::vector<Term> t;
      bool offset = false;
      for (int64_t d = 0; d < s.rank(); ++d) {
        const ir::WindowDim& w = (*a.window)[d];
        if (w.base_dilation != 1) return std::nullopt;
        t.push_back({r[d] * w.stride, out.dim(d)});
        t.push_back({r[d] * w.window_dilation, w.size});
        offset |= w.pad_low != 0;
      }
      return adders(t, offset);
    }
    case Opcode::kConvolution: {
      if (!a.conv_dims || !a.window || a.feature_group_count != 1 || a.batch_group_count != 1) return std::nullopt;
      if (k == 1) return adders(per_dimension(s), false);  // the kernel: a counter per dimension
      const ir::ConvDims& cd = *a.conv_dims;
      const ir::Shape& out = in.payload->shape;
      const std::vector<int64_t> r = row_strides(s);
      std::vector<Term> t{{r[cd.input_batch], s.dim(cd.input_batch)}, {r[cd.input_feature], s.dim(cd.input_feature)}};
      bool offset = false;
      for (size_t i = 0; i < cd.input_spatial.size(); ++i) {
        const ir::WindowDim& w = (*a.window)[i];
        if (w.base_dilation != 1) return std::nullopt;
        const int64_t d = cd.input_spatial[i];
        t.push_back({r[d] * w.stride, out.dim(cd.output_spatial[i])});
        t.push_back({r[d] * w.window_dilation, w.size});
        offset |= w.pad_low != 0;
      }
      return adders(t, offset);
    }
    case Opcode::kGather: {
      if (!a.gather_dims) return std::nullopt;
      // the start indices: read at the item's batch counters (their last dimension, when
      // it is the index vector, is the start's component)
      if (k == 1) return adders(per_dimension(s), false);
      if (k != 0) return std::nullopt;
      // the operand: each started dimension adds the clamped start (a run-time value of
      // the dimension's range of starts) to its offset counter, both at its stride
      const ir::GatherDims& gd = *a.gather_dims;
      if (gd.slice_sizes.size() != static_cast<size_t>(s.rank())) return std::nullopt;
      const std::vector<int64_t> r = row_strides(s);
      std::vector<Term> t;
      for (int64_t d = 0; d < s.rank(); ++d) {
        if (std::find(gd.start_index_map.begin(), gd.start_index_map.end(), d) != gd.start_index_map.end())
          t.push_back({r[d], s.dim(d) - gd.slice_sizes[d] + 1});
        t.push_back({r[d], gd.slice_sizes[d]});
      }
      return adders(t, false);
    }
    default: return std::nullopt;
  }
}

}  // namespace hlsgym::hwmodel
