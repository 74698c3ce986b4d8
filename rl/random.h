// The random streams of rl/: reproducible across standard libraries (no std::*_distribution
// whose algorithm differs between them where a seed must give the same result everywhere),
// and independent sub-streams per (seed, index...) for workers, graphs, episodes, restarts.
#pragma once
#include <cstdint>
#include <random>

namespace hlsgym::rl {

// Uniform in [0, 1) from the engine's top 53 bits.
inline double unit_interval(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// The engine for sub-stream (ids...) of `seed`: seeded by seed_seq{seed low, seed high, ids...}.
template <typename... Ids>
std::mt19937_64 substream(uint64_t seed, Ids... ids) {
  std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(ids)...};
  return std::mt19937_64(seq);
}

}  // namespace hlsgym::rl
