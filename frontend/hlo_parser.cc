// HLO module text -> ir::Module. One pass over the text; operand and computation names
// are resolved at the end of each computation / of the module, so forward references
// (ROOT before its operands, callees after callers) work.
#include "frontend/hlo_parser.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/hlo_async.h"
#include "frontend/hlo_syntax.h"
#include "ir/error.h"
#include "ir/shape_inference.h"
#include "ir/spelling.h"

namespace hlsgym::frontend {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

struct PendingCall {  // a called-computation name to resolve when all are read
  InstrId instr;
  size_t slot;
  std::string_view name;
  size_t offset;
};

// An operand as written: a name to resolve at the end of the computation (forward
// references are allowed), or an instruction written inline, already created.
struct PendingOperand {
  std::string_view name;
  size_t offset;
  InstrId nested = ir::kNoId;
};

struct PendingInstr {
  InstrId id;
  std::vector<PendingOperand> operands;
};

bool is_called_key(std::string_view k) {
  return k == "to_apply" || k == "condition" || k == "body" || k == "calls" ||
         k == "branch_computations" || k == "true_computation" || k == "false_computation" ||
         k == "called_computations" || k == "select" || k == "scatter";
}

// FNV-1a of the constant's name as written, never 0 (0 means "use the current name").
uint64_t elided_seed(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
  return h ? h : 1;
}

// Keys that name the computations of one opcode only (to_apply and calls are shared).
bool called_key_fits(std::string_view key, Opcode op) {
  if (key == "condition" || key == "body") return op == Opcode::kWhile;
  if (key == "select" || key == "scatter") return op == Opcode::kSelectAndScatter;
  if (key == "branch_computations" || key == "true_computation" || key == "false_computation")
    return op == Opcode::kConditional;
  return true;
}

// Slot of a called computation in InstrPayload::called, by key (see ir/module.h).
size_t called_slot(std::string_view key) {
  if (key == "body" || key == "false_computation" || key == "scatter") return 1;
  return 0;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : c_(text, file), m_() {
    m_.set_source_file(file);
  }

  ir::Module parse() {
    c_.skip_space();
    if (c_.at_end()) c_.fail("empty input: expected 'HloModule <name>'");
    if (!consume_keyword("HloModule")) c_.fail("expected 'HloModule <name>' at the start of the module");
    std::string_view name = c_.name();
    if (name.empty()) c_.fail("expected the module name after HloModule");
    m_.set_name(std::string(name));
    read_header_attributes();
    read_preamble();
    while (true) {
      c_.skip_space();
      if (c_.at_end()) break;
      read_computation();
    }
    if (m_.computation_slots() == 0) c_.fail("the module has no computations");
    if (m_.entry() == ir::kNoId) m_.set_entry(static_cast<CompId>(m_.computation_slots() - 1));
    resolve_calls();
    name_anonymous_instructions();
    lower_async_chains(m_, sugared_starts_);
    infer_omitted_shapes();
    return std::move(m_);
  }

 private:
  // `word` as a whole word (ENTRY, not the start of a computation named ENTRYx).
  bool consume_keyword(std::string_view word) {
    c_.skip_space();
    const std::string_view rest = c_.rest();
    if (rest.substr(0, word.size()) != word || (rest.size() > word.size() && is_name_char(rest[word.size()])))
      return false;
    c_.set_pos(c_.pos() + word.size());
    return true;
  }

  void read_header_attributes() {
    while (c_.skip_space_in_line(), c_.peek() == ',') {
      c_.set_pos(c_.pos() + 1);
      std::string_view key = c_.name();
      if (key.empty()) c_.fail("expected a module attribute name after ','");
      c_.expect('=', "after the module attribute name");
      m_.header_attributes().push_back({std::string(key), std::string(c_.raw_value())});
    }
  }

  // FileNames / FunctionNames / FileLocations / StackFrames tables, kept verbatim.
  void read_preamble() {
    static constexpr std::string_view kTables[] = {"FileNames", "FunctionNames", "FileLocations",
                                                   "StackFrames"};
    c_.skip_space();
    const size_t start = c_.pos();
    size_t end = start;
    while (true) {
      c_.skip_space();
      std::string_view rest = c_.rest();
      bool table = false;
      for (auto t : kTables)  // a whole word: a computation may be named FileNamesX
        table |= rest.substr(0, t.size()) == t && (rest.size() == t.size() || !is_name_char(rest[t.size()]));
      if (!table && !(rest.size() && rest[0] >= '0' && rest[0] <= '9')) break;
      size_t nl = rest.find('\n');
      c_.set_pos(nl == std::string_view::npos ? c_.text().size() : c_.pos() + nl);
      end = c_.pos();
    }
    if (end > start) m_.preamble() = std::string(c_.text().substr(start, end - start));
    c_.set_pos(end > start ? end : start);
  }

  void read_computation() {
    const size_t start = c_.pos();
    const bool is_entry = consume_keyword("ENTRY");
    std::string_view name = c_.name();
    if (name.empty()) c_.fail_at(start, "expected a computation ('name {' or 'ENTRY name {')");
    if (m_.find_computation(name) != ir::kNoId)
      c_.fail_at(start, "computation '" + std::string(name) + "' is defined twice");
    const CompId comp = m_.add_computation(std::string(name));
    m_.computation(comp).line = c_.line_of(start);
    if (is_entry) {
      if (m_.entry() != ir::kNoId) c_.fail_at(start, "a second ENTRY computation");
      m_.set_entry(comp);
    }
    c_.skip_space();
    if (c_.peek() == '(') {
      c_.balanced();  // parameter list: the parameter instructions carry the same facts
      if (!c_.consume("->")) c_.fail("expected '->' and the result shape after the parameter list");
      read_shape(c_);
    }
    c_.expect('{', "to open the body of computation '" + std::string(name) + "'");
    names_.clear();
    pending_.clear();
    InstrId root = ir::kNoId, last = ir::kNoId;
    while (!c_.consume('}')) {
      if (c_.at_end()) c_.fail_at(start, "computation '" + std::string(name) + "' is not closed with '}'");
      bool is_root = false;
      InstrId id = read_instruction(comp, is_root);
      last = id;
      if (is_root) {
        if (root != ir::kNoId) c_.fail("computation has two ROOT instructions");
        root = id;
      }
    }
    if (last == ir::kNoId) c_.fail_at(start, "computation '" + std::string(name) + "' is empty");
    resolve_operands(comp);
    m_.set_root(comp, root != ir::kNoId ? root : last);
    while (c_.skip_space_in_line(), c_.peek() == ',') {  // e.g. execution_thread="host"
      c_.set_pos(c_.pos() + 1);
      std::string_view key = c_.name();
      c_.expect('=', "after a computation attribute name");
      m_.computation(comp).trailer.push_back({std::string(key), std::string(c_.raw_value())});
    }
  }

  InstrId read_instruction(CompId comp, bool& is_root) {
    c_.skip_space();
    const size_t start = c_.pos();
    if (c_.rest().substr(0, 5) == "ROOT " || c_.rest().substr(0, 5) == "ROOT\t") {
      is_root = true;
      c_.set_pos(c_.pos() + 5);
    }
    std::string_view name = c_.name();
    if (name.empty()) {
      if (!c_.at_end() && (static_cast<unsigned char>(c_.peek()) < 32 || static_cast<unsigned char>(c_.peek()) > 126))
        c_.fail("unexpected binary data; is this an HLO text file?");
      c_.fail("expected an instruction 'name = shape opcode(operands)' or '}'");
    }
    c_.expect('=', "after the instruction name '" + std::string(name) + "'");
    if (names_.count(name)) c_.fail_at(start, "instruction '" + std::string(name) + "' is defined twice in this computation");
    const InstrId id = read_instruction_body(comp, name, start, /*nested=*/false);
    names_.emplace(name, id);
    return id;
  }

  // `shape? opcode(operands), attributes` after the '=' of a named instruction, or an
  // operand written inline (`convert(f32[10,10] reshape(p))`), which XLA's parser reads
  // the same way without attributes: a ',' there separates the outer operands. An inline
  // instruction gets an `<opcode>.anon` name once the whole module is read (see
  // name_anonymous_instructions).
  InstrId read_instruction_body(CompId comp, std::string_view name, size_t start, bool nested) {
    c_.skip_space();
    ir::Shape shape;
    bool has_shape = at_shape(c_);
    if (!has_shape) {  // `xyz[...]` that is not a shape: a misspelt element type
      const size_t at = c_.pos();
      std::string_view word = c_.name();
      if (!word.empty() && c_.peek() == '[') c_.fail_at(at, "unknown element type '" + std::string(word) + "'");
      c_.set_pos(at);
    }
    if (has_shape) shape = read_shape(c_);
    const size_t op_at = (c_.skip_space(), c_.pos());
    bool sugared_start = false;
    const std::optional<Opcode> op = read_opcode(has_shape, sugared_start);
    if (nested) name = ir::name(*op);
    // XLA's parser infers an omitted shape from the operands where shape inference can.
    if (!has_shape && !ir::can_infer_shape(*op))
      c_.fail_at(op_at, (nested ? "an inline " + std::string(name) : "instruction '" + std::string(name) + "'") +
                            " has no shape (and a " + std::string(ir::name(*op)) + "'s cannot be inferred)");

    ir::Attributes attrs;
    PendingInstr pending;
    std::shared_ptr<const ir::Literal> literal;
    c_.expect('(', "after the opcode");
    if (*op == Opcode::kConstant) {
      ir::Literal value = read_literal(c_, shape);
      if (value.elided()) value.set_elided_seed(elided_seed(name));
      literal = std::make_shared<const ir::Literal>(std::move(value));
      c_.expect(')', "to close the constant");
    } else if (*op == Opcode::kParameter) {
      int64_t n;
      if (!c_.integer(n) || n < 0) c_.fail("expected the parameter number");
      // Parameters 0..n-1 each need a line of text, so a larger n cannot be valid; checking
      // here keeps a typo like parameter(99999999999) from allocating a huge table.
      if (n >= static_cast<int64_t>(c_.text().size())) c_.fail("parameter number " + std::to_string(n) + " is too large");
      attrs.parameter_number = n;
      c_.expect(')', "after the parameter number");
    } else {
      read_operands(comp, pending);
    }
    InstrId id = m_.add_instruction(comp, *op, std::move(shape), {}, {}, std::string(name));
    if (!has_shape) shapeless_.push_back({id, op_at});
    if (nested) anonymous_.push_back(id);
    if (sugared_start) sugared_starts_.insert(id);
    auto& payload = m_.mutable_payload(id);
    payload.line = c_.line_of(start);
    payload.column = c_.column_of(start);
    payload.literal = std::move(literal);
    if (!nested) read_attributes(*op, attrs, id);
    // XLA's parser requires these: without dimensions= a reduce, sort or reverse would be
    // read as an identity, silently another computation than the one meant.
    if ((*op == Opcode::kReduce || *op == Opcode::kSort || *op == Opcode::kReverse) && (nested || !saw_dimensions_))
      c_.fail_at(op_at, std::string(ir::name(*op)) + " needs dimensions={...}" +
                            (nested ? " (an inline instruction has no attributes; give it a name)" : ""));
    payload.attrs = std::move(attrs);
    if (*op == Opcode::kParameter) {
      auto& params = m_.computation(comp).params;
      const auto n = static_cast<size_t>(payload.attrs.parameter_number);
      if (params.size() <= n) params.resize(n + 1, ir::kNoId);
      if (params[n] != ir::kNoId) c_.fail_at(start, "parameter number " + std::to_string(n) + " is used twice");
      params[n] = id;
    }
    pending.id = id;
    if (!pending.operands.empty()) pending_.push_back(std::move(pending));
    return id;
  }

  // An opcode, or XLA's sugared async form `<op>-start/-update/-done` (frontend/hlo_async.h):
  // a start is read as the wrapped op, so that its attributes are that op's.
  std::optional<Opcode> read_opcode(bool has_shape, bool& sugared_start) {
    const size_t op_at = c_.pos();
    std::string_view op_name = c_.name();
    auto op = ir::opcode_from_name(op_name);
    const auto sugar = op ? std::nullopt : async_sugar(op_name);
    if (sugar) op = sugar->role == AsyncRole::kStart    ? sugar->wrapped
                    : sugar->role == AsyncRole::kUpdate ? Opcode::kAsyncUpdate
                                                        : Opcode::kAsyncDone;
    if (!op) c_.fail_at(op_at, op_name.empty() ? "expected an opcode" : "unknown opcode '" + std::string(op_name) + "'");
    sugared_start = sugar && sugar->role == AsyncRole::kStart;
    // The start's shape is the async state's, which inference from the operands would not give.
    if (sugared_start && !has_shape)
      c_.fail_at(op_at, std::string(op_name) + " needs its async state's shape, e.g. ((operands), result, s32[])");
    return op;
  }

  void read_operands(CompId comp, PendingInstr& p) {
    if (c_.consume(')')) return;
    do {
      const size_t operand_at = (c_.skip_space(), c_.pos());
      if (at_shape(c_)) read_shape(c_);  // older printers write operand shapes
      const size_t at = (c_.skip_space(), c_.pos());
      std::string_view n = c_.name();
      if (n.empty()) c_.fail("expected an operand name");
      c_.skip_space();
      if (c_.peek() == '(') {  // `opcode(` : an instruction written inline
        c_.set_pos(operand_at);
        p.operands.push_back({{}, operand_at, read_instruction_body(comp, {}, operand_at, /*nested=*/true)});
        continue;
      }
      p.operands.push_back({n, at});
    } while (c_.consume(','));
    c_.expect(')', "to close the operand list");
  }

  void read_attributes(Opcode op, ir::Attributes& attrs, InstrId id) {
    saw_dimensions_ = false;
    while (c_.skip_space(), c_.peek() == ',') {
      c_.set_pos(c_.pos() + 1);
      const size_t at = (c_.skip_space(), c_.pos());
      std::string_view key = c_.name();
      if (key.empty()) c_.fail("expected an attribute name after ','");
      c_.expect('=', "after attribute '" + std::string(key) + "'");
      c_.skip_space();
      if (is_called_key(key) && !(op == Opcode::kCustomCall && key != "called_computations" && key != "to_apply")) {
        if (!called_key_fits(key, op))
          c_.fail_at(at, "attribute '" + std::string(key) + "' does not apply to " + std::string(ir::name(op)));
        read_called(key, id, at);
        if (key == "true_computation" || key == "false_computation") attrs.pred_branches = true;
        continue;
      }
      saw_dimensions_ |= key == "dimensions";
      if (read_attribute(c_, op, key, attrs)) continue;
      if (!is_kept_attribute(key))
        c_.fail_at(at, "unknown attribute '" + std::string(key) + "' for " + std::string(ir::name(op)) +
                           did_you_mean(key, known_attribute_names()));
      attrs.opaque.push_back({std::string(key), std::string(c_.raw_value())});
    }
    // As XLA's parser: a convolution's window may be left out (no spatial dimensions).
    if (op == Opcode::kConvolution && !attrs.window) attrs.window = ir::Window{};
  }

  void read_called(std::string_view key, InstrId id, size_t at) {
    std::vector<std::string_view> names;
    if (c_.consume('{')) {
      if (!c_.consume('}')) {
        do names.push_back(c_.name());
        while (c_.consume(','));
        c_.expect('}', "to close the list of computations");
      }
    } else {
      names.push_back(c_.name());
    }
    auto& called = m_.mutable_payload(id).called;
    size_t slot = names.size() == 1 ? called_slot(key) : 0;
    for (std::string_view n : names) {
      if (n.empty()) c_.fail_at(at, "expected a computation name for '" + std::string(key) + "'");
      if (called.size() <= slot) called.resize(slot + 1, ir::kNoId);
      calls_.push_back({id, slot++, n, at});
    }
  }

  void resolve_operands(CompId comp) {
    std::vector<InstrId> ids;
    for (const auto& p : pending_) {
      ids.clear();
      for (const PendingOperand& o : p.operands) {
        if (o.nested != ir::kNoId) {
          ids.push_back(o.nested);
          continue;
        }
        auto it = names_.find(o.name);
        if (it == names_.end()) c_.fail_at(o.offset, "undefined operand '" + std::string(o.name) + "'");
        ids.push_back(it->second);
      }
      m_.set_operands(p.id, ids);
    }
    (void)comp;
  }

  void resolve_calls() {
    std::unordered_map<std::string_view, CompId> by_name;
    for (CompId k = 0; k < m_.computation_slots(); ++k) by_name.emplace(m_.computation(k).name, k);
    for (const auto& call : calls_) {
      auto it = by_name.find(call.name);
      if (it == by_name.end()) c_.fail_at(call.offset, "undefined computation '" + std::string(call.name) + "'");
      m_.mutable_payload(call.instr).called[call.slot] = it->second;
    }
  }

  // XLA's names for inline instructions: `<opcode>.anon`, then `.anon.1`, ... avoiding
  // every name in the module. Done once all names are read, since a later line may use
  // the name a generated one would otherwise take.
  void name_anonymous_instructions() {
    if (anonymous_.empty()) return;
    std::unordered_set<std::string> taken;
    for (CompId k : m_.live_computations())
      for (InstrId i : m_.instructions(k)) taken.insert(m_.name(i));
    for (InstrId id : anonymous_) {
      const std::string base = std::string(ir::name(m_.opcode(id))) + ".anon";
      std::string candidate = base;
      for (int n = 1; taken.count(candidate); ++n) candidate = base + "." + std::to_string(n);
      taken.insert(candidate);
      m_.note_name(candidate);
      m_.mutable_payload(id).name = std::move(candidate);
    }
  }

  // In definition order, once operands and called computations are known.
  void infer_omitted_shapes() {
    for (const auto& [id, at] : shapeless_) {
      for (InstrId o : m_.operands(id))
        if (m_.shape(o).element_type() == ir::ElementType::kInvalid)
          c_.fail_at(at, "the shape of '" + m_.name(id) + "' cannot be inferred: its operand '" + m_.name(o) +
                             "' has no shape yet");
      try {
        m_.mutable_payload(id).shape = ir::infer_shape(m_, m_.opcode(id), m_.operands(id), m_.attrs(id), m_.called(id));
      } catch (const Error& e) {
        c_.fail_at(at, "the omitted shape of '" + m_.name(id) + "' cannot be inferred: " + e.message());
      }
    }
  }

  TextCursor c_;
  std::vector<std::pair<InstrId, size_t>> shapeless_;  // instructions written without a shape
  std::vector<InstrId> anonymous_;                      // instructions written inline as operands
  std::unordered_set<InstrId> sugared_starts_;          // `negate-start(...)`: see frontend/hlo_async.h
  bool saw_dimensions_ = false;  // in the attributes of the instruction being read
  ir::Module m_;
  std::unordered_map<std::string_view, InstrId> names_;  // current computation
  std::vector<PendingInstr> pending_;
  std::vector<PendingCall> calls_;
};
}  // namespace

ir::Module parse_hlo(std::string_view text, const std::string& filename) {
  return Parser(text, filename).parse();
}

ir::Shape parse_shape(std::string_view text, const std::string& filename) {
  TextCursor c(text, filename);
  ir::Shape s = read_shape(c);
  c.skip_space();
  if (!c.at_end()) c.fail("unexpected text after the shape");
  return s;
}

ir::Literal parse_literal(std::string_view text, const ir::Shape& shape, const std::string& filename) {
  TextCursor c(text, filename);
  ir::Literal l = read_literal(c, shape);
  c.skip_space();
  if (!c.at_end()) c.fail("unexpected text after the literal");
  return l;
}

}  // namespace hlsgym::frontend
