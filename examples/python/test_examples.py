"""The PyTorch example trains (a short run) and beats random search at an equal number of
environment steps; its learning curve plots to PNG. Run by ctest as python_examples
(examples/CMakeLists.txt)."""
import pathlib
import sys

import numpy as np

import hlsgym

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import plot_curve  # noqa: E402
import ppo_cycles  # noqa: E402

STEPS = 16384


def test_ppo_beats_random_search_at_equal_steps_and_plots(tmp_path):
    agent, curve, used, found = ppo_cycles.train(steps=STEPS, seed=1, num_envs=8)
    assert used == STEPS and len(curve) > 5
    assert curve[-1][1] > curve[0][1], f"no learning: {curve[0]} -> {curve[-1]}"
    designs = hlsgym.make(graphs=ppo_cycles.DESIGNS, **ppo_cycles.ENV_KW).graph_ids
    assert sorted(found) == sorted(designs)
    # What training reports found is a real state: it replays to the cycles reported.
    env = hlsgym.make(graphs=ppo_cycles.DESIGNS, **ppo_cycles.ENV_KW)
    for g, (initial, best, state) in found.items():
        assert state is not None, f"training never visited {g}"
        env.replay(state)
        assert (env.graph, env.initial_cost, env.cost) == (g, initial, best), state

    # Best found within STEPS env.step calls: PPO's own training episodes against random
    # search on the same designs with the same number of steps, for several random-search
    # seeds (a strict win against each, not against their mean).
    ppo = ppo_cycles.geomean_ratio(found)
    for seed in range(1, 6):
        rnd, rnd_steps, _ = ppo_cycles.random_search_cycles(used, seed=seed)
        assert rnd_steps == used and sorted(rnd) == sorted(designs)
        assert ppo < ppo_cycles.geomean_ratio(rnd), (seed, ppo, ppo_cycles.geomean_ratio(rnd))

    # The greedy policy, one episode per design, against random search with those steps
    # (mean of 10 seeds: one lucky order gets most of the gain, so single seeds are
    # bimodal) and against random search with the whole training budget.
    greedy, greedy_steps = ppo_cycles.greedy_cycles(agent)
    assert greedy_steps <= 30 * len(designs)
    short = [ppo_cycles.geomean_ratio(ppo_cycles.random_search_cycles(greedy_steps, seed=s)[0]) for s in range(1, 11)]
    assert ppo_cycles.geomean_ratio(greedy) < np.mean(short), (ppo_cycles.geomean_ratio(greedy), short)
    full = ppo_cycles.geomean_ratio(ppo_cycles.random_search_cycles(used, seed=1)[0])
    assert ppo_cycles.geomean_ratio(greedy) < full, (ppo_cycles.geomean_ratio(greedy), full)

    csv = tmp_path / "curve.csv"
    random_best = ppo_cycles.random_search_cycles(used, seed=1, checkpoints=[s for s, *_ in curve])[2]
    ppo_cycles.write_curve(csv, curve, random_best)
    png = tmp_path / "curve.png"
    assert plot_curve.plot(csv, png) == len(curve)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_random_search_spends_exactly_its_budget():
    found, steps, at = ppo_cycles.random_search_cycles(50, seed=3, checkpoints=[16, 50])
    assert steps == 50 and len(at) == 2 and at[1] <= at[0] <= 1.0
    assert sorted(found) == sorted(hlsgym.make(graphs=ppo_cycles.DESIGNS, **ppo_cycles.ENV_KW).graph_ids)
    assert ppo_cycles.random_search_cycles(50, seed=3)[0] == found  # seeded


def test_geomean_ratio():
    assert np.isclose(ppo_cycles.geomean_ratio({"a": (100, 50), "b": (10, 10)}), np.sqrt(0.5))
