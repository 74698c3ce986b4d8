// The HLS pipeline directive of while loops as a pair of passes the environment can
// apply: counted while loops are pipelined where legal and faster (hwmodel/
// loop_pipelining.h), which costs area (a buffer per value, no shared tracks, the state
// written in place). The passes set or clear the loops' `pipeline` frontend attribute
// (YAML: directives: {pipeline: off}), so what the module computes is unchanged.
//
//   loop-pipeline-off  every while loop of the module runs its iterations one after
//                      another (pipeline="off")
//   loop-pipeline-on   every while loop may be pipelined again (the attribute removed,
//                      so an undo restores the instruction exactly)
// Both report no change when no loop's attribute changes.
#include "ir/frontend_attributes.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {

bool set_pipeline(ir::Module& m, const std::string& value) {
  bool changed = false;
  for (ir::CompId c : m.computation_post_order())
    for (ir::InstrId i : m.instructions(c)) {
      if (m.opcode(i) != ir::Opcode::kWhile) continue;
      ir::Attributes& a = m.mutable_payload(i).attrs;
      if (ir::frontend_attribute(a, "pipeline").value_or("") == value) continue;
      ir::set_frontend_attribute(a, "pipeline", value);
      changed = true;
    }
  return changed;
}

class LoopPipelineOff final : public Pass {
 public:
  std::string_view name() const override { return "loop-pipeline-off"; }
  std::string_view description() const override {
    return "HLS directive: every while loop runs its iterations one after another (no loop pipelining: less area, "
           "more cycles); hardware only, the module computes the same";
  }
  bool run(ir::Module& m) override { return set_pipeline(m, "off"); }
};

class LoopPipelineOn final : public Pass {
 public:
  std::string_view name() const override { return "loop-pipeline-on"; }
  std::string_view description() const override {
    return "HLS directive: every while loop may be pipelined again where legal and faster (undoes loop-pipeline-off)";
  }
  bool run(ir::Module& m) override { return set_pipeline(m, ""); }
};

}  // namespace

PassPtr make_loop_pipeline_off() { return std::make_unique<LoopPipelineOff>(); }
PassPtr make_loop_pipeline_on() { return std::make_unique<LoopPipelineOn>(); }

}  // namespace hlsgym::passes
