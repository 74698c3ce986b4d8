// YAML design -> ir::Module (format: shared/DESIGN.md, "A design in YAML").
#include "frontend/yaml_design.h"

#include "ir/printer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "frontend/hlo_parser.h"
#include "frontend/hlo_syntax.h"
#include "ir/error.h"
#include "ir/shape_inference.h"
#include "ir/fixed_format.h"
#include "ir/frontend_attributes.h"
#include "ir/input_range.h"
#include "ir/spelling.h"
#include "ir/verifier.h"

namespace hlsgym::frontend {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

// HLO attributes a design may give verbatim although hlsgym does not interpret them.
constexpr std::string_view kOpaqueKeys[] = {"metadata", "sharding", "frontend_attributes",
                                            "backend_config", "replica_groups", "channel_id",
                                            "use_global_device_ids", "operand_precision",
                                            "custom_call_has_side_effect", "api_version"};
constexpr std::string_view kBuiltins[] = {"add", "multiply", "maximum", "minimum", "and", "or"};

class Loader {
 public:
  Loader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Design load() {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text_));
    } catch (const YAML::Exception& e) {
      throw Error("invalid YAML: " + e.msg, {file_, e.mark.line + 1, e.mark.column + 1});
    }
    bound_alias_expansion(root);
    if (!root.IsMap()) fail(root, "a design must be a YAML map with keys design, inputs, ops, outputs");
    for (auto kv : root) {
      static constexpr std::string_view kKeys[] = {"design", "description", "inputs", "ops", "outputs",
                                                   "target", "passes", "computations", "precision"};
      const std::string k = kv.first.as<std::string>();
      if (std::find(std::begin(kKeys), std::end(kKeys), k) == std::end(kKeys))
        fail(kv.first, "unknown key '" + k + "' (expected design, description, inputs, ops, outputs, "
                       "computations, target, passes, precision)");
    }
    Design d;
    d.path = file_;
    d.name = required(root, "design").as<std::string>();
    if (root["description"]) d.description = scalar(root["description"], "description");
    if (root["target"]) d.target = root["target"].IsScalar() ? root["target"].as<std::string>() : "inline";
    read_passes(root["passes"], d);
    if (root["precision"]) d.precision = precision_of(root["precision"], "the design");
    m_.set_name(d.name);
    m_.set_source_file(file_);
    if (const YAML::Node comps = root["computations"]) {
      if (!comps.IsMap()) fail(comps, "computations must map names to {inputs, ops, outputs}");
      for (auto kv : comps) {
        const std::string name = kv.first.as<std::string>();
        if (user_comps_.count(name) || is_builtin(name))
          fail(kv.first, "computation '" + name + "' is defined twice (or shadows a built-in)");
        if (reserved_computation_name(name))
          fail(kv.first, "computation name '" + name + "' is reserved: the loader names the entry 'main' and "
                         "the built-in combiners <op>_<type> (e.g. add_s32); choose another");
        user_comps_[name] = read_body(kv.second, name);
      }
    }
    const CompId entry = read_body(root, "main");
    m_.set_entry(entry);
    d.module = std::move(m_);
    ir::verify(d.module);
    return d;
  }

  // yaml-cpp shares aliased nodes, but every reader of the tree expands them: nine
  // levels of ten aliases are 10^9 nodes from a few hundred bytes (an alias bomb). Without
  // aliases a document has fewer nodes than bytes, so walking it with aliases expanded
  // and a budget of its size plus 2^16 refuses a bomb after bounded work and lets every
  // alias-free design, and modest alias use, through.
  void bound_alias_expansion(const YAML::Node& root) const {
    int64_t budget = static_cast<int64_t>(text_.size()) + (int64_t{1} << 16);
    std::vector<YAML::Node> stack{root};
    while (!stack.empty()) {
      YAML::Node n = stack.back();
      stack.pop_back();
      if (--budget < 0)
        fail(n, "the YAML aliases expand to more nodes than the document could hold without them "
                "(an alias bomb?); write the values out");
      if (n.IsSequence()) {
        for (const auto& e : n) stack.push_back(e);
      } else if (n.IsMap()) {
        for (const auto& kv : n) stack.push_back(kv.first), stack.push_back(kv.second);
      }
    }
  }

 private:
  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    const YAML::Mark mk = n.Mark();
    throw Error(msg, {file_, mk.line >= 0 ? mk.line + 1 : 0, mk.column >= 0 ? mk.column + 1 : 0});
  }
  YAML::Node required(const YAML::Node& map, const char* key) const {
    YAML::Node n = map[key];
    if (!n) fail(map, std::string("missing key '") + key + "'");
    return n;
  }
  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a single value");
    return n.as<std::string>();
  }
  // Two names that print alike in one computation would not read back as two values.
  void claim_printed_name(CompId c, const std::string& name, const YAML::Node& at) {
    auto [it, fresh] = printed_[c].emplace(ir::hlo_name(name), name);
    if (!fresh)
      fail(at, "'" + name + "' is written '" + it->first + "' in HLO text, as '" + it->second +
                   "' is; rename one of them");
  }
  std::unordered_map<CompId, std::unordered_map<std::string, std::string>> printed_;

  // The names the loader gives the entry and the built-in combiners (builtin()).
  static bool reserved_computation_name(const std::string& n) {
    if (n == "main") return true;
    for (std::string_view b : kBuiltins) {
      if (n.size() <= b.size() + 1 || n.compare(0, b.size(), b) != 0 || n[b.size()] != '_') continue;
      if (ir::element_type_from_name(n.substr(b.size() + 1))) return true;
    }
    return false;
  }
  static bool is_builtin(std::string_view n) {
    return std::find(std::begin(kBuiltins), std::end(kBuiltins), n) != std::end(kBuiltins);
  }

  void read_passes(const YAML::Node& n, Design& d) const {
    if (!n) return;
    if (n.IsScalar()) d.passes.push_back(n.as<std::string>());
    else if (n.IsSequence())
      for (const auto& p : n) d.passes.push_back(scalar(p, "a pass name"));
    else fail(n, "passes must be 'default' or a list of pass names");
  }

  // `range: [lo, hi]`: two numbers the input's element type holds, lo <= hi.
  void read_range(const YAML::Node& r, InstrId p, const std::string& input) {
    if (!r.IsSequence() || r.size() != 2) fail(r, "input '" + input + "': range must be [lo, hi]");
    double bounds[2];
    for (int k = 0; k < 2; ++k) {
      const std::string text = scalar(r[k], "a range bound");
      char* end = nullptr;
      bounds[k] = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size())
        fail(r[k], "input '" + input + "': range bound '" + text + "' is not a number");
    }
    const ir::Shape& s = m_.shape(p);
    const std::string problem = s.is_array() ? ir::input_range_problem(s.element_type(), bounds[0], bounds[1])
                                             : "a range needs an array or scalar input, not a tuple";
    if (!problem.empty()) fail(r, "input '" + input + "': " + problem);
    ir::set_input_range(m_, p, {bounds[0], bounds[1]});
  }

  ir::Shape shape_of(const YAML::Node& n) const {
    std::string text = scalar(n, "a type");
    // DESIGN.md writes scalars as a bare element type ("s32"); HLO text needs "s32[]".
    if (text.find_first_of("[(") == std::string::npos && ir::element_type_from_name(text)) text += "[]";
    try {
      return parse_shape(text, file_);
    } catch (const Error& e) {
      fail(n, "bad type '" + text + "': " + e.message());
    }
  }

  // A computation from {inputs, ops, outputs}; the names are local to it.
  CompId read_body(const YAML::Node& body, const std::string& name) {
    if (!body.IsMap()) fail(body, "computation '" + name + "' must be a map with inputs, ops, outputs");
    const CompId c = m_.add_computation(name);
    std::unordered_map<std::string, InstrId> names;
    if (const YAML::Node inputs = body["inputs"]) {
      if (!inputs.IsMap()) fail(inputs, "inputs must map names to types, e.g. x: s16[8]");
      int64_t k = 0;
      for (auto kv : inputs) {
        const std::string n = kv.first.as<std::string>();
        if (names.count(n)) fail(kv.first, "input '" + n + "' is defined twice");
        claim_printed_name(c, n, kv.first);
        const bool detailed = kv.second.IsMap();  // {type: T, range: [lo, hi], precision: ap_fixed<...>}
        if (detailed)
          for (auto field : kv.second)
            if (const std::string f = field.first.as<std::string>(); f != "type" && f != "range" && f != "precision")
              fail(field.first, "input '" + n + "': unknown key '" + f + "' (expected type, range, precision)");
        InstrId p = m_.add_parameter(c, k++, shape_of(detailed ? required(kv.second, "type") : kv.second), n);
        m_.mutable_payload(p).line = kv.first.Mark().line + 1;
        m_.mutable_payload(p).column = kv.first.Mark().column + 1;
        if (detailed && kv.second["range"]) read_range(kv.second["range"], p, n);
        if (detailed && kv.second["precision"])
          ir::set_frontend_attribute(m_.mutable_payload(p).attrs, "precision",
                                     precision_of(kv.second["precision"], "input '" + n + "'"));
        names[n] = p;
      }
    }
    const YAML::Node ops = required(body, "ops");
    if (!ops.IsSequence() || ops.size() == 0) fail(ops, "ops must be a non-empty list of operations");
    for (const auto& op : ops) read_op(op, c, names);
    read_outputs(required(body, "outputs"), c, names);
    return c;
  }

  void read_outputs(const YAML::Node& outs, CompId c, const std::unordered_map<std::string, InstrId>& names) {
    std::vector<InstrId> ids;
    auto lookup = [&](const YAML::Node& n) {
      const std::string s = scalar(n, "an output name");
      auto it = names.find(s);
      if (it == names.end()) fail(n, "output '" + s + "' is not an input or op");
      ids.push_back(it->second);
    };
    if (outs.IsScalar()) lookup(outs);
    else if (outs.IsSequence() && outs.size() > 0)
      for (const auto& o : outs) lookup(o);
    else fail(outs, "outputs must be a name or a non-empty list of names");
    if (ids.size() == 1) return m_.set_root(c, ids[0]);
    std::vector<ir::Shape> shapes;
    for (InstrId i : ids) shapes.push_back(m_.shape(i));
    InstrId t = m_.add_instruction(c, Opcode::kTuple, ir::Shape::tuple(std::move(shapes)), ids);
    m_.mutable_payload(t).line = outs.Mark().line + 1;
    m_.mutable_payload(t).column = outs.Mark().column + 1;
    m_.set_root(c, t);
  }

  void read_op(const YAML::Node& n, CompId c, std::unordered_map<std::string, InstrId>& names);
  void read_directives(const YAML::Node& d, const std::string& op_name, Opcode op, ir::Attributes& attrs);
  std::string precision_of(const YAML::Node& n, const std::string& whose);
  void read_attributes(const YAML::Node& n, Opcode op, ir::Attributes& attrs, std::vector<CompId>& called,
                       CompId c, const std::vector<InstrId>& args);
  CompId resolve_to_apply(const YAML::Node& n, const std::vector<InstrId>& args, Opcode op);
  CompId user_computation(const YAML::Node& n, const std::string& what);
  CompId builtin(const std::string& name, ir::ElementType t);
  ir::Literal literal_of(const YAML::Node& value, const ir::Shape& shape) const;

  std::string_view text_;
  std::string file_;
  ir::Module m_;
  std::unordered_map<std::string, CompId> user_comps_;
  std::unordered_map<std::string, CompId> builtins_;
};

std::string edit_suggestion(std::string_view name) {
  static const auto names = [] {
    std::vector<std::string_view> v;
    for (int i = 0; i < ir::kOpcodeCount; ++i) v.push_back(ir::name(static_cast<Opcode>(i)));
    return v;
  }();
  return did_you_mean(name, names);
}

// A YAML value as HLO attribute text: lists become {a,b}, nested lists nest.
std::string hlo_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.as<std::string>();
  std::string s = "{";
  bool first = true;
  for (const auto& e : n) {
    if (!first) s += ",";
    first = false;
    s += hlo_text(e);
  }
  return s + "}";
}

void Loader::read_op(const YAML::Node& n, CompId c, std::unordered_map<std::string, InstrId>& names) {
  if (!n.IsMap()) fail(n, "each op must be a map like {name: y, op: add, args: [a, b]}");
  const std::string name = scalar(required(n, "name"), "name");
  const std::string op_name = scalar(required(n, "op"), "op");
  auto op = ir::opcode_from_name(op_name);
  if (!op) fail(n["op"], "op '" + name + "': unknown opcode '" + op_name + "'" + edit_suggestion(op_name));
  if (op == Opcode::kParameter) fail(n["op"], "op '" + name + "': declare parameters under inputs:");
  if (names.count(name)) fail(n["name"], "op '" + name + "' is defined twice");
  claim_printed_name(c, name, n["name"]);
  std::vector<InstrId> args;
  if (const YAML::Node a = n["args"]) {
    if (!a.IsSequence()) fail(a, "op '" + name + "': args must be a list of names");
    for (const auto& arg : a) {
      const std::string s = scalar(arg, "an argument name");
      auto it = names.find(s);
      if (it == names.end())
        fail(arg, "op '" + name + "': argument '" + s + "' is not an input or an earlier op");
      args.push_back(it->second);
    }
  }
  const int arity = ir::info(*op).arity;
  if (arity >= 0 && static_cast<int>(args.size()) != arity)
    fail(n, "op '" + name + "' (" + op_name + ") takes " + std::to_string(arity) + " args, has " +
                std::to_string(args.size()));
  ir::Attributes attrs;
  std::vector<CompId> called;
  read_attributes(n, *op, attrs, called, c, args);
  // As in HLO text: a reduce, sort or reverse without dimensions would silently be an identity.
  if ((*op == Opcode::kReduce || *op == Opcode::kSort || *op == Opcode::kReverse) && !n["dimensions"])
    fail(n, "op '" + name + "': " + op_name + " needs dimensions: [...]");
  if (*op == Opcode::kWhile && (called.size() != 2 || called[0] == ir::kNoId || called[1] == ir::kNoId))
    fail(n, "op '" + name + "': a while needs condition: and body: (computations under computations:)");
  if (*op == Opcode::kConditional && called.empty())
    fail(n, "op '" + name + "': a conditional needs branches: [computation, ...]");
  ir::Shape shape;
  if (n["type"]) {
    shape = shape_of(n["type"]);
  } else if (*op == Opcode::kConstant && n["value"] && n["value"].IsScalar()) {
    fail(n, "op '" + name + "': a constant needs a type");
  } else {
    try {
      shape = ir::infer_shape(m_, *op, args, attrs, called);
    } catch (const Error& e) {
      fail(n, "op '" + name + "': " + e.message());
    }
  }
  InstrId id;
  if (*op == Opcode::kConstant) {
    if (!n["value"]) fail(n, "op '" + name + "': a constant needs a value");
    id = m_.add_constant(c, literal_of(n["value"], shape), name);
  } else {
    if (n["value"]) fail(n["value"], "op '" + name + "': only constants take a value");
    id = m_.add_instruction(c, *op, shape, args, std::move(attrs), name);
    m_.mutable_payload(id).called = called;
  }
  m_.mutable_payload(id).line = n.Mark().line + 1;
  m_.mutable_payload(id).column = n.Mark().column + 1;
  names[name] = id;
}

void Loader::read_attributes(const YAML::Node& n, Opcode op, ir::Attributes& attrs,
                             std::vector<CompId>& called, CompId c, const std::vector<InstrId>& args) {
  (void)c;
  std::optional<YAML::Node> directives;  // read last: frontend_attributes may come after it
  for (auto kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (key == "name" || key == "op" || key == "args" || key == "type" || key == "value") continue;
    if (key == "directives") {
      directives = kv.second;
      continue;
    }
    if (key == "precision") {  // the op's own fixed-point format (rtl/fixed_point.h)
      ir::set_frontend_attribute(attrs, "precision", precision_of(kv.second, "op '" + n["name"].as<std::string>() + "'"));
      continue;
    }
    if (key == "to_apply") {
      called.push_back(resolve_to_apply(kv.second, args, op));
      continue;
    }
    if (key == "condition" || key == "body") {  // while: called = {condition, body}
      if (op != Opcode::kWhile) fail(kv.first, "'" + key + "' applies to while only");
      if (called.size() < 2) called.resize(2, ir::kNoId);
      called[key == "condition" ? 0 : 1] = user_computation(kv.second, key);
      continue;
    }
    if (key == "branches") {  // conditional: the branch computations, in order
      if (op != Opcode::kConditional) fail(kv.first, "'branches' applies to conditional only");
      if (!kv.second.IsSequence() || kv.second.size() == 0)
        fail(kv.second, "branches must list computation names, e.g. [then, else]");
      for (const auto& b : kv.second) called.push_back(user_computation(b, "branch"));
      // A pred selector takes [true branch, false branch], as HLO's true_computation=/false_computation=.
      if (!args.empty() && m_.shape(args[0]).is_array() && m_.shape(args[0]).element_type() == ir::ElementType::kPred) {
        if (called.size() != 2) fail(kv.second, "a conditional on a pred needs exactly two branches [true, false]");
        attrs.pred_branches = true;
      }
      continue;
    }
    const std::string text = hlo_text(kv.second);
    TextCursor cur(text, file_);
    bool known = false;
    try {
      known = read_attribute(cur, op, key, attrs);
      cur.skip_space();
      if (known && !cur.at_end()) cur.fail("unexpected text after the value");
    } catch (const Error& e) {
      fail(kv.second, "op '" + n["name"].as<std::string>() + "': bad value for " + key + ": " + e.message());
    }
    if (known) continue;
    if (std::find(std::begin(kOpaqueKeys), std::end(kOpaqueKeys), key) != std::end(kOpaqueKeys)) {
      attrs.opaque.push_back({key, text});
      continue;
    }
    fail(kv.first, "op '" + n["name"].as<std::string>() + "': unknown attribute '" + key + "' for " +
                       std::string(ir::name(op)));
  }
  if (directives) read_directives(*directives, n["name"].as<std::string>(), op, attrs);
}

// `directives: {unroll: N}`, the HLS directives a user sets per op. Every tensor op is
// already a loop pipelined at II 1, and unrolling it by N gives it N lanes with its arrays
// partitioned cyclically into N banks: the `lanes` frontend attribute hwmodel reads.
// A while loop takes `pipeline: off` (its iterations one after another), `on` (the
// default: pipelined where legal and faster) or an II to aim for: the `pipeline`
// frontend attribute (hwmodel/loop_pipelining.h).
void Loader::read_directives(const YAML::Node& d, const std::string& op_name, Opcode op, ir::Attributes& attrs) {
  if (!d.IsMap()) fail(d, "op '" + op_name + "': directives must be a map, e.g. {unroll: 4}");
  for (auto kv : d) {
    const std::string key = scalar(kv.first, "directive");
    if (key == "pipeline" && op == Opcode::kWhile) {
      const std::string text = scalar(kv.second, "pipeline");
      int64_t ii = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ii);
      const bool number = ec == std::errc() && end == text.data() + text.size();
      if (text != "off" && text != "on" && (!number || ii < 1 || ii > (int64_t{1} << 30)))
        fail(kv.second, "op '" + op_name + "': pipeline must be off, on or a target II from 1 to 2^30");
      ir::set_frontend_attribute(attrs, "pipeline", text == "on" ? "" : text);
      continue;
    }
    if (key != "unroll")
      fail(kv.first, "op '" + op_name + "': unknown directive '" + key + "' (expected unroll; every tensor op is "
                     "already pipelined at II 1, and unroll N also partitions its arrays into N banks; pipeline "
                     "applies to while loops)");
    const std::string text = scalar(kv.second, "unroll");
    int64_t factor = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), factor);
    if (ec != std::errc() || end != text.data() + text.size() || factor < 1 || factor > ir::kMaxLanes)
      fail(kv.second, "op '" + op_name + "': unroll must be an integer from 1 to " + std::to_string(ir::kMaxLanes));
    if (ir::frontend_attribute(attrs, "lanes"))
      fail(kv.first, "op '" + op_name + "': both unroll and frontend_attributes lanes set the lanes; keep one");
    ir::set_frontend_attribute(attrs, "lanes", text);
  }
}

// `precision: "ap_fixed<W,I,Q,O>"` (or "W,I"), checked here so a typo names its line.
std::string Loader::precision_of(const YAML::Node& n, const std::string& whose) {
  const std::string text = scalar(n, "precision");
  try {
    return ir::to_string(ir::parse_fixed_format(text));
  } catch (const Error& e) {
    fail(n, whose + ": " + e.message());
  }
}

CompId Loader::user_computation(const YAML::Node& n, const std::string& what) {
  const std::string s = scalar(n, what);
  auto it = user_comps_.find(s);
  if (it == user_comps_.end()) fail(n, what + " '" + s + "' is not defined under computations: (define it before its use)");
  return it->second;
}

CompId Loader::resolve_to_apply(const YAML::Node& n, const std::vector<InstrId>& args, Opcode op) {
  const std::string s = scalar(n, "to_apply");
  if (auto it = user_comps_.find(s); it != user_comps_.end()) return it->second;
  if (!is_builtin(s))
    fail(n, "to_apply '" + s + "' is neither a built-in (add, multiply, maximum, minimum, and, or) "
            "nor defined under computations:");
  if (args.empty()) fail(n, "to_apply needs the op to have arguments");
  // The scalar type of the combiner: that of the init value (reduce) or the operands.
  InstrId typed = (op == Opcode::kReduce || op == Opcode::kReduceWindow) && args.size() >= 2
                      ? args[args.size() / 2] : args.back();
  return builtin(s, m_.shape(typed).element_type());
}

CompId Loader::builtin(const std::string& name, ir::ElementType t) {
  const std::string key = name + "_" + std::string(ir::element_type_name(t));
  if (auto it = builtins_.find(key); it != builtins_.end()) return it->second;
  const CompId c = m_.add_computation(key);
  const ir::Shape s = ir::Shape::scalar(t);
  InstrId x = m_.add_parameter(c, 0, s, "x");
  InstrId y = m_.add_parameter(c, 1, s, "y");
  auto op = *ir::opcode_from_name(name);
  m_.set_root(c, m_.add_instruction(c, op, s, std::vector<InstrId>{x, y}, {}, "r"));
  builtins_[key] = c;
  return c;
}

ir::Literal Loader::literal_of(const YAML::Node& value, const ir::Shape& shape) const {
  if (!shape.is_array()) fail(value, "a constant needs an array type");
  if (shape.element_count() > kMaxConstantElements) fail(value, "constant " + shape.to_string(false) + " is too large");
  try {
    if (value.IsScalar() && shape.rank() > 0) {  // a splat
      ir::Literal one = parse_literal(value.as<std::string>(), ir::Shape::scalar(shape.element_type()), file_);
      ir::Literal all(shape);
      const auto src = one.bytes();
      auto dst = all.bytes();
      for (size_t k = 0; k + src.size() <= dst.size(); k += src.size())
        std::copy(src.begin(), src.end(), dst.begin() + static_cast<std::ptrdiff_t>(k));
      return all;
    }
    return parse_literal(hlo_text(value), shape, file_);
  } catch (const Error& e) {
    fail(value, "bad value for type " + shape.to_string(false) + ": " + e.message());
  }
}

}  // namespace

Design load_yaml_design(std::string_view text, const std::string& filename) {
  try {
    return Loader(text, filename).load();
  } catch (const YAML::Exception& e) {  // e.g. a list where a name was expected
    throw Error("invalid design: " + e.msg, {filename, e.mark.line + 1, e.mark.column + 1});
  }
}

}  // namespace hlsgym::frontend
