#include "hwmodel/random_graph.h"

#include <algorithm>

#include "hwmodel/unit_model.h"

namespace hlsgym::hwmodel {
namespace {

struct Rng {  // splitmix64
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t n) { return n <= 1 ? 0 : static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }
};

}  // namespace

TaskGraph random_task_graph(const Target& t, const RandomGraphOptions& o) {
  Rng rng{o.seed * 0x2545f4914f6cdd1dull + 3};
  TaskGraph g;
  g.tasks.reserve(o.tasks);
  g.deps.reserve(o.tasks * 2);
  uint32_t deps[3];
  for (size_t i = 0; i < o.tasks; ++i) {
    Task k;
    k.elem_bits = 32;
    k.input = i < 3;
    size_t nd = 0;
    if (i >= 3) {
      const int64_t want = 1 + rng.below(3);
      for (int64_t j = 0; j < want; ++j) {
        const auto d = static_cast<uint32_t>(i - 1 - static_cast<size_t>(rng.below(std::min<int64_t>(o.window, i))));
        if (std::find(deps, deps + nd, d) == deps + nd) deps[nd++] = d;
      }
    }
    if (!k.input && rng.below(100) >= o.free_percent) {
      const auto c = static_cast<UnitClass>(rng.below(std::clamp(o.classes, 1, kUnitClassCount)));
      const int64_t items = 1 + rng.below(o.max_items);
      k.unit = static_cast<uint8_t>(c);
      k.width = 32;
      k.ports = 2;
      k.busy = t.is_fpga() ? items : t.overhead_cycles + items;
      k.latency = t.is_fpga() ? unit_depth(t, c) + items - 1 : k.busy;
      k.element_ops = items;
      k.area = lane_area(t, c, ir::ElementType::kS32);
      k.bytes_out = k.footprint = 4 * (1 + rng.below(256));
    } else if (k.input) {
      k.footprint = 4 * (1 + rng.below(64));
    } else {
      k.alias = true;
    }
    g.add(k, {deps, nd});
  }
  if (!g.tasks.empty()) g.tasks.back().output = true;
  return g;
}

ModuloProblem random_loop_body(const RandomLoopBodyOptions& o) {
  Rng rng{o.seed * 0x2545f4914f6cdd1dull + 11};
  ModuloProblem p;
  for (int r = 0; r < o.resources; ++r)
    p.add_resource("r" + std::to_string(r), static_cast<int>(1 + rng.below(o.max_limit)));
  for (uint32_t op = 0; op < o.ops; ++op) {
    const int64_t latency = rng.below(o.max_latency + 1);
    if (o.resources == 0 || rng.below(100) < o.unlimited_percent) {
      p.add_op("op" + std::to_string(op), latency);
    } else {
      const auto r = static_cast<uint16_t>(rng.below(o.resources));
      const int64_t busy = std::min(1 + rng.below(o.max_busy), std::max<int64_t>(latency, 1));
      p.add_op("op" + std::to_string(op), latency, r, busy);
    }
    for (int64_t k = 0, preds = op == 0 ? 0 : 1 + rng.below(2); k < preds; ++k) {
      const uint32_t from = op - 1 - static_cast<uint32_t>(rng.below(std::min<int64_t>(o.window, op)));
      p.add_dep_with_delay(from, op, rng.below(100) < o.chained_percent ? 0 : p.latency[from]);
    }
  }
  for (int k = 0; k < o.loop_carried && o.ops > 0; ++k) {
    const auto from = static_cast<uint32_t>(rng.below(static_cast<int64_t>(o.ops)));
    const uint32_t to = from - static_cast<uint32_t>(rng.below(std::min<int64_t>(2 * o.window, from + 1)));
    p.add_dep(from, to, 1 + rng.below(o.max_distance));
  }
  return p;
}

}  // namespace hlsgym::hwmodel
