"""The PyTorch example trains (a short run) and beats random search; its learning curve
plots to PNG. Run by ctest as python_examples (examples/CMakeLists.txt)."""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import plot_curve  # noqa: E402
import ppo_cycles  # noqa: E402


def test_ppo_beats_random_search_and_plots(tmp_path):
    agent, curve, used = ppo_cycles.train(steps=16384, seed=1, num_envs=8)
    assert used == 16384 and len(curve) > 5
    assert curve[-1][1] > curve[0][1], f"no learning: {curve[0]} -> {curve[-1]}"
    ppo = ppo_cycles.greedy_cycles(agent)
    # Random search with the steps the policy takes on a design (one 30-pass episode),
    # over 10 seeds: the policy must find fewer cycles on the geomean than random search
    # does on average (one lucky order that runs `fusion` gets most of the gain, so single
    # seeds are bimodal).
    rnd = [ppo_cycles.geomean_ratio(ppo_cycles.random_search_cycles(30 * len(ppo), seed=s)) for s in range(1, 11)]
    assert ppo_cycles.geomean_ratio(ppo) < np.mean(rnd), (ppo_cycles.geomean_ratio(ppo), rnd)
    # Random search given the whole training budget is a far stronger baseline (it
    # searches each design directly); the policy must stay within 2 % of it.
    full = ppo_cycles.geomean_ratio(ppo_cycles.random_search_cycles(used, seed=1))
    assert ppo_cycles.geomean_ratio(ppo) <= 1.02 * full, (ppo_cycles.geomean_ratio(ppo), full)

    csv = tmp_path / "curve.csv"
    csv.write_text("steps,mean_return\n" + "".join(f"{s},{r}\n" for s, r in curve))
    png = tmp_path / "curve.png"
    assert plot_curve.plot(csv, png) == len(curve)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_geomean_ratio():
    assert np.isclose(ppo_cycles.geomean_ratio({"a": (100, 50), "b": (10, 10)}), np.sqrt(0.5))
