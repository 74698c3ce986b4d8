// Operator chaining decided once for the estimate and the RTL: which values are never
// stored because their readers compute them inline.
#pragma once
#include <cstdint>
#include <optional>

#include "ir/module.h"

namespace hlsgym::hwmodel {

// An integer convert (neither side pred) is wiring on an FPGA: truncation or sign/zero
// extension. It gets no task, no buffer and no pass over memory when every reader takes
// it inline:
// - an op whose element the RTL computes from its operands' elements at the same index
//   mapping (elementwise ops, broadcast, transpose, slice, reverse, copy): the convert
//   becomes a node of the reader's expression;
// - a dot or convolution, for a widening convert whose operand is stored: the multiplier
//   reads the narrow operand and extends it, so an s16 x s16 -> s32 product is one DSP48.
// Anything else that reads it (a reduce, pad, concatenate, alias, tuple, the root, a
// call, a loop) needs its buffer, and then it stays a task. The hardware model applies
// this on FPGA targets; make_plan (microarch.h) reads it from the task graph (an alias task).
bool chained_convert(const ir::Module& m, ir::InstrId i);

// A broadcast whose operand has fewer elements than its result is index wiring when every
// reader is an elementwise op of its computation that the RTL computes from operand
// elements (its ExprBuilder expression; not the root, a reduce, dot, loop, tuple, ...):
// each reader reads the operand through the broadcast's index map (a scalar: word 0), so
// no buffer holds the copies and no copy lane fills one. saxpy's `broadcast(a)` of a
// run-time scalar was a 16-word register file with its own copy lane and read tree,
// every word holding `a`. Like a chained convert it is an alias task (make_plan reads it
// so); a broadcast of a one-value constant stays a literal (splat_source).
bool chained_broadcast(const ir::Module& m, ir::InstrId i);

// An integer convert, neither side pred: truncation or sign/zero extension, i.e. wiring.
bool wiring_convert(const ir::Module& m, ir::InstrId i);

// What a multiplier (an elementwise multiply or a MAC) sees of its operand `v`, for
// unit_model.h's mac_operand_bits: the narrow source of a widening wiring convert that is
// computed inline (chained, or inside a fused body: `in_fused_body`), else v's own type.
// rtl builds the same: a multiply of two such converts is a signed narrow product.
ir::ElementType multiplier_operand_type(const ir::Module& m, ir::InstrId v, bool in_fused_body);

// Ops whose every output element is one of their operand's (broadcast, reshape, copy,
// transpose, slice, reverse): a one-value constant through them is still that value.
bool value_mapping(ir::Opcode op);

// Ops a fused loop turns into index arithmetic or wiring: no unit, no cycle, no delay.
bool fused_index_op(ir::Opcode op);

// The constant whose elements are all equal that `v` is, directly or through
// value_mapping ops (the RTL prints it as a literal, so synthesis folds it into its
// readers; on FPGA targets lowering makes such a mapping a literal too).
std::optional<ir::InstrId> splat_source(const ir::Module& m, ir::InstrId v);
// Its raw bits.
std::optional<uint64_t> splat_constant(const ir::Module& m, ir::InstrId v);
// Whether one of `i`'s operands is such a constant: a literal in i's Verilog expression.
bool has_literal_operand(const ir::Module& m, ir::InstrId i);

// The element type a reader of `v` reads from memory: the chained convert's source type
// when `v` is one, else v's own.
ir::ElementType stored_type(const ir::Module& m, ir::InstrId v);

}  // namespace hlsgym::hwmodel
