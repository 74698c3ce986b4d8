"""An environment checker with the rules of Gymnasium's ``check_env`` (gymnasium.utils.
env_checker), for machines without Gymnasium: spaces of the right kinds, reset and step
return the documented types, every observation lies in the observation space, the same
seed gives the same episode, and a fork is independent of its origin. Raises
AssertionError naming the first rule broken.
"""
import numpy as np

from . import spaces


def _same_obs(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def check_env(env, steps=40, seed=123):
    assert hasattr(env, "action_space") and hasattr(env, "observation_space"), "env has no spaces"
    assert isinstance(env.action_space, spaces.Discrete), f"action space is {type(env.action_space)}"
    assert isinstance(env.observation_space, (spaces.Box, spaces.Graph)), "observation space is neither Box nor Graph"

    obs, info = env.reset(seed=seed)
    assert isinstance(info, dict), "reset must return (obs, info) with info a dict"
    assert obs in env.observation_space, "reset's observation is outside the observation space"
    if isinstance(env.observation_space, spaces.Box):
        assert obs.dtype == env.observation_space.dtype, f"observation dtype {obs.dtype} != space's"

    rng = np.random.default_rng(seed)
    actions = [int(rng.integers(env.action_space.n)) for _ in range(steps)]

    def episode(e, seed_):
        o, _ = e.reset(seed=seed_)
        trace = [o]
        for a in actions:
            o, r, term, trunc, inf = e.step(a)
            assert isinstance(r, float), f"reward is {type(r)}, not float"
            assert isinstance(term, bool) and isinstance(trunc, bool), "terminated/truncated must be bool"
            assert isinstance(inf, dict), "step's info must be a dict"
            assert o in e.observation_space, f"step's observation (after action {a}) is outside the space"
            mask = inf.get("action_mask")
            assert mask is not None and mask.shape == (e.action_space.n,), "info['action_mask'] missing or misshapen"
            trace.append((o, r, term, trunc))
            if term or trunc:
                o, _ = e.reset()
                trace.append(o)
        return trace

    def same(t1, t2):
        if len(t1) != len(t2):
            return False
        for x, y in zip(t1, t2):
            if isinstance(x, tuple):
                if not (_same_obs(x[0], y[0]) and x[1:] == y[1:]):
                    return False
            elif not _same_obs(x, y):
                return False
        return True

    assert same(episode(env, seed), episode(env, seed)), "the same seed gave two different episodes"

    # Fork independence: stepping a fork leaves its origin as it was (and the other way
    # round), and a fork continues exactly as its origin would.
    env.reset(seed=seed)
    for a in actions[:5]:
        env.step(a)
    state, obs_before = env.state, env.graph_observation()
    fork = env.fork()
    assert fork.state == state, "a fork must start in its origin's state"
    for a in actions[5:20]:
        if fork.step(a)[3]:
            break
    assert env.state == state and _same_obs(env.graph_observation(), obs_before), "stepping a fork changed its origin"
    fork_state = fork.state
    twin = env.fork()
    for a in actions[5:10]:
        ra, rb = env.step(a), twin.step(a)
        assert _same_obs(ra[0], rb[0]) and ra[1:4] == rb[1:4], "a fork does not continue as its origin"
    assert fork.state == fork_state, "stepping an origin changed its fork"
    return True
