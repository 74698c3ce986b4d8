#!/usr/bin/env python3
"""The Python module's speed bars (numbers for the closing note, never a test):

  - Python step overhead: the same random actions stepped from a Python loop
    (env.step, unpacking its 5-tuple, resetting when an episode ends) and by a C++ loop
    over the same GymEnv (env._run_in_cpp); the difference per step (aim: <= 3 us);
  - VectorEnv steps/s on the design suite, 64 environments, 1 and 2 threads (aim: >= 300k
    with 2);
  - the graph observation of the largest real HLO file from Python, NumPy arrays
    included (aim: <= 2 ms for 10k instructions).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--steps N]

Each figure is the best of several repetitions (the machine is shared).
"""
import argparse
import os
import pathlib
import time

import numpy as np

import hlsgym

SOURCE = pathlib.Path(__file__).resolve().parents[1]


def best(fn, reps):
    return min(fn() for _ in range(reps))


def step_overhead(steps, reps):
    env = hlsgym.make(graphs=SOURCE / "designs", max_steps=30)
    actions = np.random.default_rng(0).integers(0, env.action_space.n, steps).tolist()

    def python_loop():
        env.reset(seed=0)
        step, reset = env.step, env.reset
        t0 = time.perf_counter()
        for a in actions:
            obs, reward, terminated, truncated, info = step(a)
            if terminated or truncated:
                reset()
        return time.perf_counter() - t0

    def cpp_loop():
        env.reset(seed=0)
        return env._run_in_cpp(actions)

    cpp_loop()  # warm the state cache: both loops then meet only known states
    t_cpp, t_py = best(cpp_loop, reps), best(python_loop, reps)
    return t_cpp / steps * 1e6, t_py / steps * 1e6


def vector_rate(threads, batches, reps, num_envs=64):
    v = hlsgym.VectorEnv(num_envs, graphs=SOURCE / "designs", max_steps=30, threads=threads)
    n = len(hlsgym.action_names())
    actions = np.random.default_rng(1).integers(0, n, (batches, num_envs))

    def run():
        v.reset(seed=0)
        t0 = time.perf_counter()
        for a in actions:
            v.step(a)
        return time.perf_counter() - t0

    run()
    return batches * num_envs / best(run, reps)


def graph_observation_time(reps):
    data = pathlib.Path(os.environ.get("HLSGYM_HLO_DATA_DIR", SOURCE.parent / "shared" / "data" / "hlo"))
    path = max((data / "train").glob("*.hlo"), key=lambda p: p.stat().st_size)
    design = hlsgym.load(path)

    def run():
        t0 = time.perf_counter()
        hlsgym.graph_observation(design)
        return time.perf_counter() - t0

    return path.name, design.instructions, best(run, reps)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    cpp_us, py_us = step_overhead(args.steps, args.reps)
    print(f"single env step, design suite: C++ loop {cpp_us:.2f} us, Python loop {py_us:.2f} us, "
          f"Python overhead {py_us - cpp_us:.2f} us per step (aim <= 3)")
    for threads in (1, 2):
        rate = vector_rate(threads, max(args.steps // 64, 100), args.reps)
        print(f"VectorEnv, 64 envs, {threads} thread(s): {rate / 1e3:.0f}k steps/s (aim >= 300k with 2)")
    name, n, t = graph_observation_time(20)
    print(f"graph observation of {name} ({n} instructions): {t * 1e3:.2f} ms, "
          f"{t * 1e3 * 1e4 / n:.2f} ms per 10k instructions (aim <= 2)")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
