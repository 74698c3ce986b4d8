"""PassOrderEnv against Gymnasium's env-checker rules and the issue's bad-input rules."""
import numpy as np
import pytest


@pytest.fixture
def env(hlsgym, designs):
    return hlsgym.make("hlsgym/PassOrder-v0", graphs=designs, max_steps=12)


def test_check_env_vector_and_graph_observations(hlsgym, designs):
    for kwargs in ({}, {"observation": "opcount+features+cost+history"}, {"observation": "opcount+graph-wl"},
                   {"observation": "graph"}, {"reward": "cycles", "target": "fpga", "observation": "cost"}):
        assert hlsgym.check_env(hlsgym.make(graphs=designs, max_steps=10, **kwargs)), kwargs


def test_graph_wl_is_appended_to_the_opcode_counts(hlsgym, designs):
    sizes = {o: hlsgym.make(graphs=designs, observation=o).observation_space.shape[0]
             for o in ("opcount", "graph-wl", "opcount+graph-wl")}
    assert sizes["graph-wl"] > 0 and sizes["opcount+graph-wl"] == sizes["opcount"] + sizes["graph-wl"]


def test_spaces_and_types(hlsgym, env):
    assert env.action_space.n == len(hlsgym.action_names()) == len(hlsgym.passes())
    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
    assert info["graph"] in env.graph_ids
    obs, reward, terminated, truncated, info = env.step(0)
    assert (type(reward), type(terminated), type(truncated)) == (float, bool, bool)
    assert set(info) >= {"pass", "changed", "refused", "failed", "action_mask", "instructions", "cost"}
    assert info["pass"] == hlsgym.action_names()[0]


def test_an_episode_truncates_at_max_steps(env):
    env.reset(seed=1)
    ends = [env.step(i % env.action_space.n)[3] for i in range(12)]
    assert ends == [False] * 11 + [True]


def test_seed_gives_the_same_episode_and_different_seeds_differ(env):
    def run(seed):
        obs, info = env.reset(seed=seed)
        out = [info["graph"]]
        for a in [5, 1, 2, 9, 30, 4]:
            o, r, *_ = env.step(a)
            out.append((o.tobytes(), r))
        return out
    assert run(7) == run(7)
    assert len({run(s)[0] for s in range(12)}) > 1, "12 seeds all picked one graph"


def test_reset_options_pick_a_graph_and_unknown_graph_names_the_choices(hlsgym, env):
    _, info = env.reset(seed=0, options={"graph": "fir8"})
    assert info["graph"] == "fir8" == env.graph
    with pytest.raises(hlsgym.Error, match="unknown graph 'nope'.*fir8"):
        env.reset(options={"graph": "nope"})


def test_action_mask_marks_passes_that_changed_nothing(hlsgym, env):
    env.reset(seed=0, options={"graph": "fir8"})
    names = hlsgym.action_names()
    changed_any = False
    for a in range(env.action_space.n):
        _, _, _, trunc, info = env.step(a)
        if info["changed"]:
            changed_any = True
            assert info["action_mask"].all(), "a change of state must unmask every pass"
        else:
            assert info["action_mask"][a] == 0, f"{names[a]} changed nothing but is not masked"
        if trunc:
            env.reset(options={"graph": "fir8"})
    assert changed_any


def test_state_replays_exactly(env):
    env.reset(seed=2, options={"graph": "softmax"})
    for a in [3, 1, 0, 7, 2, 5]:
        env.step(a)
    state, obs = env.state, env.graph_observation()
    assert state.startswith("softmax|")
    env.reset(seed=9)
    env.replay(state)
    assert env.state == state
    for k, v in env.graph_observation().items():
        assert np.array_equal(v, obs[k]), k


def test_validate_passes_after_an_order(env):
    env.reset(seed=0, options={"graph": "fir8"})
    for a in range(env.action_space.n)[:10]:
        env.step(a)
    result = env.validate()
    assert result["status"] == "passed" and result["compared"] > 0, result


def test_bad_actions_raise_value_error(env):
    env.reset(seed=0)
    for bad in (env.action_space.n, -1, 1.5, "cse", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.step(np.int64(1))[4]["pass"] == env.action_names[1]  # NumPy integers are actions


def test_step_never_throws_for_a_bad_state(hlsgym, designs, env):
    fresh = hlsgym.make(graphs=designs / "fir8.yaml")
    obs, r, term, trunc, info = fresh.step(0)  # before any reset
    assert info["failed"] and "reset" in info["error"] and trunc and r == 0.0
    env.reset(seed=0)
    for _ in range(12):
        env.step(0)
    obs, r, term, trunc, info = env.step(0)  # after the episode ended
    assert info["failed"] and "ended" in info["error"] and trunc
    assert env.reset(seed=0)[0] in env.observation_space  # and the env is usable again


def test_bad_names_raise_naming_the_choices(hlsgym, designs):
    cases = [({"env_id": "hlsgym/Nope-v0"}, "hlsgym/PassOrder-v0"),
             ({"reward": "speed"}, "cycles"),
             ({"observation": "pixels"}, "graph"),
             ({"observation": "opcount+pixels"}, "opcount"),
             ({"reward": "cycles", "target": "asic"}, "fpga"),
             ({"reward": "cycles"}, "needs a hardware target")]
    for kwargs, choice in cases:
        env_id = kwargs.pop("env_id", "hlsgym/PassOrder-v0")
        with pytest.raises(hlsgym.Error) as e:
            hlsgym.make(env_id, graphs=designs, **kwargs)
        assert choice in str(e.value), (kwargs, str(e.value))
    assert issubclass(hlsgym.Error, ValueError)


def test_render_and_close(env):
    env.reset(seed=0, options={"graph": "fir8"})
    env.step(1)
    text = env.render()
    assert "design fir8" in text and "instructions" in text
    env.close()


def test_hardware_reward_counts_cycles(hlsgym, designs):
    env = hlsgym.make(graphs=designs / "fir8.yaml", reward="cycles", target="fpga", max_steps=30)
    _, info = env.reset(seed=0)
    report = hlsgym.report(designs / "fir8.yaml", target="fpga")
    assert info["cost"] == report["cycles"] == env.initial_cost
    total = 0.0
    for a in range(30):
        total += env.step(a)[1]
    assert total == pytest.approx(env.initial_cost - env.cost)


def test_exact_action_mask_is_the_passes_that_would_change_nothing(hlsgym, designs):
    exact = hlsgym.make(graphs=designs, max_steps=30, action_mask="exact")
    _, info = exact.reset(seed=0, options={"graph": "softmax"})
    for step in range(6):
        mask = info["action_mask"]
        assert 0 < mask.sum() < exact.action_space.n, "some passes apply, some do not"
        for a in range(exact.action_space.n):  # every pass, on a fork: changed == unmasked
            assert exact.fork().step(a)[4]["changed"] == bool(mask[a]), (step, exact.action_names[a])
        _, _, _, _, info = exact.step(int(np.flatnonzero(mask)[0]))
        assert info["changed"]
    with pytest.raises(hlsgym.Error, match="tried.*exact"):
        hlsgym.make(graphs=designs, action_mask="all")
