"""VectorEnv equals N single environments step for step (autoreset included), whatever
the thread count."""
import numpy as np
import pytest


def singles_trace(hlsgym, designs, n, seed, actions, **kw):
    envs = [hlsgym.make(graphs=designs, **kw) for _ in range(n)]
    obs = np.stack([e.reset(seed=seed + i)[0] for i, e in enumerate(envs)])
    trace = [(obs, [(e.cost, e.graph) for e in envs])]
    done = [False] * n
    for batch in actions:
        rows = []
        for i, e in enumerate(envs):
            if done[i]:  # next-step autoreset: reset, ignore the action, reward 0
                o, info = e.reset()
                rows.append((o, 0.0, False, False, info["action_mask"], (e.cost, e.graph)))
                done[i] = False
            else:
                o, r, term, trunc, info = e.step(int(batch[i]))
                rows.append((o, r, term, trunc, info["action_mask"], (e.cost, e.graph)))
                done[i] = term or trunc
        trace.append(rows)
    return trace


def vector_trace(hlsgym, designs, n, seed, actions, threads, **kw):
    v = hlsgym.VectorEnv(n, graphs=designs, threads=threads, **kw)
    obs, info = v.reset(seed=seed)

    def where(info, i):  # info["cost"] and info["graph_index"] as the single env's cost and graph
        return float(info["cost"][i]), v.graph_ids[info["graph_index"][i]]

    trace = [(obs, [where(info, i) for i in range(n)])]
    for batch in actions:
        o, r, term, trunc, info = v.step(batch)
        assert o.shape == (n, v.single_observation_space.shape[0]) and r.dtype == np.float64
        assert info["cost"].dtype == np.float64 and info["graph_index"].dtype == np.int32
        trace.append([(o[i], r[i], bool(term[i]), bool(trunc[i]), info["action_mask"][i], where(info, i))
                      for i in range(n)])
    return trace


def same(a, b):
    assert np.array_equal(a[0][0], b[0][0]) and a[0][1] == b[0][1]
    for step, (ra, rb) in enumerate(zip(a[1:], b[1:])):
        for i, (x, y) in enumerate(zip(ra, rb)):
            assert np.array_equal(x[0], y[0]), f"step {step} env {i}: observations differ"
            assert x[1] == y[1] and x[2:4] == y[2:4], f"step {step} env {i}: {x[1:4]} vs {y[1:4]}"
            assert np.array_equal(x[4], y[4]), f"step {step} env {i}: action masks differ"
            assert x[5] == y[5], f"step {step} env {i}: (cost, graph) {x[5]} vs {y[5]}"


@pytest.mark.parametrize("kw", [{"max_steps": 7}, {"max_steps": 5, "reward": "cycles", "target": "fpga",
                                                   "observation": "opcount+cost"}])
def test_vector_env_equals_single_envs(hlsgym, designs, kw):
    n, seed = 5, 11
    rng = np.random.default_rng(0)
    actions = rng.integers(0, len(hlsgym.action_names()), size=(40, n))
    expected = singles_trace(hlsgym, designs, n, seed, actions, **kw)
    for threads in (1, 2):
        same(vector_trace(hlsgym, designs, n, seed, actions, threads, **kw), expected)


def test_bad_action_batches_raise_value_error(hlsgym, designs):
    v = hlsgym.VectorEnv(3, graphs=designs)
    v.reset(seed=0)
    for bad in ([0, 1], [0, 1, 99], [[0, 1, 2]], [-1, 0, 0]):
        with pytest.raises(ValueError):
            v.step(np.array(bad))
    assert v.step([0, 1, 2])[0].shape[0] == 3
