// hwmodel::while_trip_count: the counted-loop matcher against the interpreter (the count
// it proves is the count ir::evaluate runs), on hand-written forms, on random counted
// loops, and through every pass and random orders (a loop proven countable stays
// countable, with the same count, or half of it after loop-unroll-by-2).
#include <gtest/gtest.h>

#include <fmt/core.h>

#include <map>
#include <optional>
#include <random>
#include <string>

#include "frontend/hlo_parser.h"
#include "hwmodel/lowering.h"
#include "ir/evaluate.h"
#include "passes/control_flow_util.h"
#include "passes/default_order.h"
#include "passes/registry.h"
#include "tests/hwmodel/hwmodel_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using hwmodel::while_trip_count;

std::vector<ir::InstrId> while_loops(const ir::Module& m) {
  std::vector<ir::InstrId> out;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.computation(c).order)
      if (m.is_live(i) && m.opcode(i) == ir::Opcode::kWhile) out.push_back(i);
  return out;
}

std::optional<int64_t> only_loop_trips(const ir::Module& m) {
  const auto loops = while_loops(m);
  EXPECT_EQ(loops.size(), 1u);
  return loops.empty() ? std::nullopt : while_trip_count(m, loops[0]);
}

// A loop whose state is (counter, trips run, data); the entry returns the trips the
// interpreter ran. `cond` and `step` are HLO lines over `i` (the counter, type T).
struct LoopSpec {
  std::string type = "s32";
  std::string start = "0";
  std::string cond_lines;  // defines ROOT of the condition from i (gte index 0)
  std::string body_lines;  // defines `next` from i
  std::string init_start_lines;  // extra entry lines defining `s` (the start), optional
};

std::string loop_text(const LoopSpec& s) {
  const std::string st = fmt::format("({}[], s32[], f32[4])", s.type);
  const std::string init = s.init_start_lines.empty() ? fmt::format("  s = {}[] constant({})\n", s.type, s.start)
                                                      : s.init_start_lines;
  return fmt::format(R"(HloModule counted
cond {{
  p = {0} parameter(0)
  i = {1}[] get-tuple-element(p), index=0
{2}}}
body {{
  p = {0} parameter(0)
  i = {1}[] get-tuple-element(p), index=0
{3}  t = s32[] get-tuple-element(p), index=1
  one = s32[] constant(1)
  t1 = s32[] add(t, one)
  v = f32[4] get-tuple-element(p), index=2
  v2 = f32[4] multiply(v, v)
  ROOT r = {0} tuple(next, t1, v2)
}}
ENTRY main {{
  x = f32[4] parameter(0)
{4}  z = s32[] constant(0)
  init = {0} tuple(s, z, x)
  w = {0} while(init), condition=cond, body=body
  ROOT trips = s32[] get-tuple-element(w), index=1
}}
)",
                     st, s.type, s.cond_lines, s.body_lines, init);
}

int64_t interpreted_trips(const ir::Module& m) {
  const auto args = ir::random_inputs(m, 1);
  ir::EvalOptions o;
  o.max_while_iterations = 100000;
  return ir::evaluate(m, args, o).value.get_int(0);
}

// The matcher proves `expect` trips, and the interpreter runs exactly that many.
void expect_trips(const LoopSpec& s, int64_t expect) {
  const std::string text = loop_text(s);
  const ir::Module m = frontend::parse_hlo(text, "loop.hlo");
  EXPECT_EQ(only_loop_trips(m), expect) << text;
  EXPECT_EQ(interpreted_trips(m), expect) << text;
}

TEST(TripCount, FormsThePassesProduce) {
  // i + 1 + 1 (loop-unroll-by-2 after algsimp), i < 10 from 0: 5 trips.
  expect_trips({"s32", "0", "  n = s32[] constant(10)\n  ROOT c = pred[] compare(i, n), direction=LT\n",
                "  a = s32[] constant(1)\n  i1 = s32[] add(i, a)\n  next = s32[] add(i1, a)\n", ""},
               5);
  // a step of 3, limit on the left, GT: 10 > i from 0 -> 0, 3, 6, 9: 4 trips.
  expect_trips({"s32", "0", "  n = s32[] constant(10)\n  ROOT c = pred[] compare(n, i), direction=GT\n",
                "  k = s32[] constant(3)\n  next = s32[] add(k, i)\n", ""},
               4);
  // counting down with subtract, GE: i from 9 while i >= 0, i -= 2: 9 7 5 3 1: 5 trips.
  expect_trips({"s32", "9", "  n = s32[] constant(0)\n  ROOT c = pred[] compare(i, n), direction=GE\n",
                "  k = s32[] constant(2)\n  next = s32[] subtract(i, k)\n", ""},
               5);
  // LE with an offset on the counter: i + 2 <= 7 from 1: 1..5: 5 trips.
  expect_trips({"s32", "1",
                "  o = s32[] constant(2)\n  x = s32[] add(i, o)\n  n = s32[] constant(7)\n"
                "  ROOT c = pred[] compare(x, n), direction=LE\n",
                "  k = s32[] constant(1)\n  next = s32[] add(i, k)\n", ""},
               5);
  // NE reached exactly: i != 12 from 0 step 4: 3 trips.
  expect_trips({"s32", "0", "  n = s32[] constant(12)\n  ROOT c = pred[] compare(i, n), direction=NE\n",
                "  k = s32[] constant(4)\n  next = s32[] add(i, k)\n", ""},
               3);
  // constants through copy, convert and a rank-0 broadcast; the counter converted.
  expect_trips({"s32", "0",
                "  n64 = s64[] constant(6)\n  n = s32[] convert(n64)\n  nb = s32[] broadcast(n), dimensions={}\n"
                "  i64 = s64[] convert(i)\n  nc = s64[] convert(nb)\n  ROOT c = pred[] compare(i64, nc), direction=LT\n",
                "  k0 = s32[] constant(1)\n  k = s32[] copy(k0)\n  next = s32[] add(i, k)\n", ""},
               6);
  // the doubled body before tuple-simplifier: gte of the first half's tuple.
  expect_trips({"s32", "0", "  n = s32[] constant(8)\n  ROOT c = pred[] compare(i, n), direction=LT\n",
                "  k = s32[] constant(1)\n  i1 = s32[] add(i, k)\n  first = (s32[], s32[]) tuple(i1, k)\n"
                "  i2 = s32[] get-tuple-element(first), index=0\n  next = s32[] add(i2, k)\n", ""},
               4);
  // the start through a convert in the caller, unsigned counter.
  expect_trips({"u8", "", "  n = u8[] constant(200)\n  ROOT c = pred[] compare(i, n), direction=LT\n",
                "  k = u8[] constant(50)\n  next = u8[] add(i, k)\n", "  s32s = s32[] constant(20)\n  s = u8[] convert(s32s)\n"},
               4);  // 20 70 120 170
}

TEST(TripCount, UnprovenLoopsAreNotCounted) {
  // an s8 counter that wraps: 0, 60, 120, then 180 wraps to -76 and i < 127 holds forever.
  const ir::Module wraps = frontend::parse_hlo(
      loop_text({"s8", "0", "  n = s8[] constant(127)\n  ROOT c = pred[] compare(i, n), direction=LT\n",
                 "  k = s8[] constant(60)\n  next = s8[] add(i, k)\n", ""}),
      "loop.hlo");
  EXPECT_EQ(only_loop_trips(wraps), std::nullopt);
  // NE stepping over the limit (0, 4, 8, ... never 10) is not a count.
  const ir::Module skips = frontend::parse_hlo(
      loop_text({"s32", "0", "  n = s32[] constant(10)\n  ROOT c = pred[] compare(i, n), direction=NE\n",
                 "  k = s32[] constant(4)\n  next = s32[] add(i, k)\n", ""}),
      "loop.hlo");
  EXPECT_EQ(only_loop_trips(skips), std::nullopt);
  // the limit is the trip counter, which the body changes: not a constant.
  const ir::Module moving = frontend::parse_hlo(
      loop_text({"s32", "0",
                 "  n = s32[] get-tuple-element(p), index=1\n"
                 "  ROOT c = pred[] compare(i, n), direction=LT\n",
                 "  k = s32[] constant(1)\n  next = s32[] add(i, k)\n", ""}),
      "loop.hlo");
  EXPECT_EQ(only_loop_trips(moving), std::nullopt);
}

// Random counted loops: random type, start, limit, step, direction, side, offset and
// spelling of the step. A reference simulation (with the type's wrap-around) decides
// whether the loop ends soon and whether any value wraps; then the matcher must prove
// exactly the interpreter's count when nothing wraps, and never claim a count that is
// not the interpreter's.
struct RandomLoop {
  std::string text;
  std::optional<int64_t> reference;  // trips, when the loop ends within the cap
  bool wraps = false;                // some value on the way wrapped around its type
};

int64_t wrap(int64_t v, const std::string& type, bool& wrapped) {
  const int bits = type == "s8" || type == "u8" ? 8 : type == "s16" ? 16 : 32;
  const bool is_unsigned = type[0] == 'u';
  const int64_t mod = int64_t{1} << bits;
  int64_t r = ((v % mod) + mod) % mod;
  if (!is_unsigned && r >= mod / 2) r -= mod;
  wrapped |= r != v;
  return r;
}

RandomLoop random_loop(std::mt19937_64& rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const char* types[] = {"s32", "s8", "u8", "s16"};
  const std::string type = types[pick(0, 3)];
  const bool is_unsigned = type[0] == 'u';
  const int64_t lo = is_unsigned ? 0 : -20, hi = type == "s8" || type == "u8" ? 120 : 40;
  const int64_t start = pick(lo, std::min<int64_t>(hi, 40)), limit = pick(lo, hi);
  int64_t step = pick(-4, 4);
  if (step == 0) step = 1;
  const int64_t offset = pick(0, 2) == 0 ? pick(-3, 3) : 0;
  const char* dirs[] = {"LT", "LE", "GT", "GE", "NE", "EQ"};
  const std::string dir = dirs[pick(0, 5)];
  const bool counter_left = pick(0, 1) == 0;
  const int step_form = static_cast<int>(pick(0, 2));

  LoopSpec s;
  s.type = type;
  s.start = std::to_string(start);
  std::string x = "i";
  if (offset != 0) {
    s.cond_lines += fmt::format("  o = {}[] constant({})\n  x = {}[] add(i, o)\n", type, offset, type);
    x = "x";
    if (is_unsigned && offset < 0) {  // unsigned: subtract instead of a negative constant
      s.cond_lines = fmt::format("  o = {}[] constant({})\n  x = {}[] subtract(i, o)\n", type, -offset, type);
    }
  }
  s.cond_lines += fmt::format("  n = {}[] constant({})\n", type, limit);
  static const std::map<std::string, std::string> mirror = {{"LT", "GT"}, {"LE", "GE"}, {"GT", "LT"},
                                                            {"GE", "LE"}, {"NE", "NE"}, {"EQ", "EQ"}};
  s.cond_lines += counter_left ? fmt::format("  ROOT c = pred[] compare({}, n), direction={}\n", x, dir)
                               : fmt::format("  ROOT c = pred[] compare(n, {}), direction={}\n", x, mirror.at(dir));
  const bool negative = step < 0;
  const int64_t mag = negative ? -step : step;
  if (step_form == 0 || (is_unsigned && negative)) {
    s.body_lines = fmt::format("  k = {}[] constant({})\n  next = {}[] {}(i, k)\n", type, mag, type,
                               negative ? "subtract" : "add");
  } else if (step_form == 1) {
    s.body_lines = fmt::format("  k = {}[] constant({})\n  next = {}[] add(k, i)\n", type, step, type);
  } else {  // i + a + b, the unrolled spelling
    const int64_t a = step / 2, b = step - step / 2;
    s.body_lines = fmt::format("  ka = {0}[] constant({1})\n  kb = {0}[] constant({2})\n  ia = {0}[] add(i, ka)\n"
                               "  next = {0}[] add(ia, kb)\n", type, a, b);
  }
  RandomLoop r;
  r.text = loop_text(s);
  // Reference: run the loop with the type's arithmetic.
  bool wrapped = false;
  int64_t i = start;
  for (int64_t trips = 0; trips <= 2000; ++trips) {
    const int64_t xv = offset == 0 ? i : wrap(i + offset, type, wrapped);
    const int64_t a = counter_left ? xv : limit, b = counter_left ? limit : xv;
    const std::string d = counter_left ? dir : mirror.at(dir);
    const bool go = d == "LT" ? a < b : d == "LE" ? a <= b : d == "GT" ? a > b : d == "GE" ? a >= b
                  : d == "NE" ? a != b : a == b;
    if (!go) {
      r.reference = trips;
      break;
    }
    if (step_form == 2 && !(is_unsigned && negative)) {
      i = wrap(wrap(i + step / 2, type, wrapped) + (step - step / 2), type, wrapped);
    } else {
      i = wrap(i + step, type, wrapped);
    }
  }
  r.wraps = wrapped;
  return r;
}

TEST(TripCount, RandomCountedLoopsMatchTheInterpreter) {
  std::mt19937_64 rng(14);
  int proven = 0, unproven_endless = 0, unproven_wrapping = 0;
  for (int n = 0; n < 600; ++n) {
    const RandomLoop l = random_loop(rng);
    const ir::Module m = frontend::parse_hlo(l.text, "random_loop.hlo");
    const std::optional<int64_t> matched = only_loop_trips(m);
    if (matched) {
      ASSERT_TRUE(l.reference.has_value()) << "counted a loop that does not end:\n" << l.text;
      ASSERT_EQ(*matched, interpreted_trips(m)) << l.text;
      ++proven;
    } else if (l.reference) {
      ASSERT_TRUE(l.wraps) << "a loop that ends without wrapping was not proven (" << *l.reference << " trips):\n"
                           << l.text;
      ++unproven_wrapping;
    } else {
      ++unproven_endless;
    }
    if (l.reference && !l.wraps) {
      ASSERT_EQ(*l.reference, interpreted_trips(m)) << "reference simulation\n" << l.text;
    }
  }
  EXPECT_GT(proven, 300);
  RecordProperty("proven", proven);
  RecordProperty("unproven_wrapping", unproven_wrapping);
  RecordProperty("unproven_endless", unproven_endless);
}

// Every loop's count, by while instruction name, when all loops are proven.
std::map<std::string, std::optional<int64_t>> loop_counts(const ir::Module& m) {
  std::map<std::string, std::optional<int64_t>> out;
  for (ir::InstrId w : while_loops(m)) out[std::string(m.name(w))] = while_trip_count(m, w);
  return out;
}

// A pass never turns a proven loop into an unproven one, and keeps its count (halves
// it for loop-unroll-by-2, which doubles the body); the count stays the one the passes'
// own evaluator of the loop (passes::control_flow::static_trip_count) finds.
void check_pass_keeps_counts(const ir::Module& before, const std::string& where) {
  const auto counts = loop_counts(before);
  for (const auto& info : passes::Registry::global().all()) {
    ir::Module after = before;
    passes::PassPtr pass = info.make();
    if (!pass->run(after)) continue;
    const auto now = loop_counts(after);
    for (const auto& [name, trips] : counts) {
      if (!trips) continue;
      const auto it = now.find(name);
      if (it == now.end()) continue;  // unrolled or removed
      ASSERT_TRUE(it->second.has_value()) << info.name << " lost the count of " << name << " in " << where;
      if (info.name == "loop-unroll-by-2" && *it->second != *trips)
        EXPECT_EQ(2 * *it->second, *trips) << info.name << " " << name << " in " << where;
      else
        EXPECT_EQ(*it->second, *trips) << info.name << " " << name << " in " << where;
    }
    for (ir::InstrId w : while_loops(after))
      if (auto t = while_trip_count(after, w)) {
        const auto oracle = passes::control_flow::static_trip_count(after, w, 100000);
        if (oracle) {
          EXPECT_EQ(*t, *oracle) << info.name << " " << after.name(w) << " in " << where;
        }
      }
  }
}

TEST(TripCount, PassesKeepProvenCounts) {
  std::mt19937_64 rng(21);
  int loops = 0;
  for (int n = 0; n < 150; ++n) {
    const RandomLoop l = random_loop(rng);
    const ir::Module m = frontend::parse_hlo(l.text, "random_loop.hlo");
    if (!only_loop_trips(m)) continue;
    ++loops;
    check_pass_keeps_counts(m, l.text);
    // and after random orders of passes, each prefix checked again
    const auto& all = passes::Registry::global().all();
    ir::Module cur = m;
    for (int k = 0; k < 8; ++k) {
      const auto& info = all[rng() % all.size()];
      info.make()->run(cur);
      for (ir::InstrId w : while_loops(cur))
        if (auto t = while_trip_count(cur, w)) {
          const auto oracle = passes::control_flow::static_trip_count(cur, w, 100000);
          if (oracle) {
            EXPECT_EQ(*t, *oracle) << info.name << " after " << k << " passes:\n" << l.text;
          }
        }
    }
  }
  EXPECT_GT(loops, 50);
}

}  // namespace
}  // namespace hlsgym::testing
