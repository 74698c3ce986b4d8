"""The Gymnasium-shaped environments: ``make("hlsgym/PassOrder-v0", ...)`` and ``VectorEnv``.

The episode logic is C++ (rl::GymEnv, stepped by ``_core.Env``); ``PassOrderEnv`` only adds
Gymnasium's attributes. ``step`` and ``reset`` are the C++ methods themselves (no Python
frame in between): a Python wrapper method would cost more than the 3 us the whole
binding may add to a step.
"""
import copy

import numpy as np

from . import _core
from . import spaces

ENV_ID = "hlsgym/PassOrder-v0"
_ENV_IDS = (ENV_ID,)

if spaces.HAVE_GYMNASIUM:  # pragma: no cover - depends on the machine
    import gymnasium as _gym
    _EnvBase = _gym.Env
else:
    class _EnvBase:
        """Gymnasium's Env attributes for machines without Gymnasium."""
        metadata = {}
        render_mode = None
        spec = None

        @property
        def unwrapped(self):
            return self

        def __enter__(self):
            return self

        def __exit__(self, *args):
            self.close()
            return False


def _observation_space(core):
    if core.graph_observation_mode:
        return spaces.Graph(len(_core.graph_node_feature_names()), len(_core.opcode_names()))
    low = core.observation_low
    return spaces.Box(low=low, high=np.full(low.shape, np.inf, dtype=np.float32), dtype=np.float32)


def _check_observation_name(observation):
    names = _core.observation_names()
    parts = observation.split("+")
    if "graph" in parts and observation != "graph":
        raise _core.Error(f"observation 'graph' cannot be joined with others (got '{observation}')")
    for p in parts:
        if p not in names:
            raise _core.Error(f"unknown observation space '{p}' (known: {', '.join(names)}; join the vector "
                              "spaces with '+')")


class PassOrderEnv(_core.Env, _EnvBase):
    """Pass ordering as a Gymnasium environment.

    An action is the index of a pass (``hlsgym.action_names()``); an episode runs up to
    ``max_steps`` passes on a graph picked from ``graphs`` by the env's seeded generator
    (``reset(options={"graph": id})`` picks one). Rewards are the decrease of the reward
    space's cost. ``info["action_mask"]`` is 0 for passes known to change nothing in the
    current state: with ``action_mask="tried"`` (default, free) those run in this state
    that changed nothing; with ``"exact"`` every pass is also tried on a copy of each new
    state (one run of every pass per state change). A step never raises for a bad state: ``info["failed"]`` and
    ``info["error"]`` say what went wrong and the episode is truncated.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, graphs=None, reward="opcount", target=None, observation="opcount", max_steps=30,
                 normalize=False, shaping=False, gamma=0.99, hw_weights=None, render_mode=None, action_mask="tried"):
        _check_observation_name(observation)
        if render_mode not in (None, "ansi"):
            raise _core.Error(f"render_mode '{render_mode}' is not supported (choices: None, 'ansi')")
        _core.Env.__init__(self, graphs, observation=observation, reward=reward, target=target,
                           max_steps=max_steps, normalize=normalize, shaping=shaping, gamma=gamma,
                           hw_weights=hw_weights, action_mask=action_mask)
        self.render_mode = render_mode
        self.reward_name = reward
        self.observation_name = observation
        self.max_steps = max_steps
        self.action_space = spaces.Discrete(len(_core.action_names()))
        self.observation_space = _observation_space(self)
        self.reward_range = (-np.inf, np.inf)
        self.spec = None

    # reset and step are _core.Env's (see the module comment).
    reset = _core.Env.reset
    step = _core.Env.step

    def render(self):
        """The state as text (render_mode "ansi")."""
        return self.render_text()

    def close(self):
        pass

    def fork(self):
        """An independent copy in the same state; stepping one never changes the other."""
        twin = PassOrderEnv.__new__(PassOrderEnv)
        _core.Env.__init__(twin, self)
        twin.__dict__.update(self.__dict__)
        # Spaces carry a random generator: a fork samples on its own.
        twin.action_space = copy.deepcopy(self.action_space)
        twin.observation_space = copy.deepcopy(self.observation_space)
        return twin

    @property
    def action_names(self):
        return _core.action_names()

    def __repr__(self):
        return f"<PassOrderEnv {ENV_ID} reward={self.reward_name} observation={self.observation_name}>"


class VectorEnv:
    """``num_envs`` PassOrderEnvs stepped together in C++ threads (GIL released).

    ``reset(seed=s)`` seeds environment i with s + i; ``step(actions)`` takes an integer
    array of shape (num_envs,) and returns batched arrays (obs float32[N, D], rewards
    float64[N], terminated and truncated bool[N], info with ``action_mask`` int8[N, A],
    ``changed``, ``refused``, ``failed`` bool[N], ``cost`` float64[N] (each environment's
    cost after the step, as ``PassOrderEnv.cost``), ``graph_index`` int32[N] (its graph, an
    index into ``graph_ids``) and, when some failed, ``error`` {index: message}; ``reset``'s
    info has ``action_mask``, ``cost`` and ``graph_index``). Autoreset as Gymnasium 1.x's default: the step after an episode
    ended resets that environment, ignores its action and returns reward 0.
    """

    metadata = {"autoreset_mode": "NextStep"}

    def __init__(self, num_envs, graphs=None, reward="opcount", target=None, observation="opcount", max_steps=30,
                 normalize=False, shaping=False, gamma=0.99, hw_weights=None, threads=2, action_mask="tried"):
        _check_observation_name(observation)
        if observation == "graph":
            raise _core.Error("VectorEnv batches vector observations; use PassOrderEnv for 'graph'")
        self._core = _core.VectorEnv(num_envs, graphs, observation=observation, reward=reward, target=target,
                                     max_steps=max_steps, normalize=normalize, shaping=shaping, gamma=gamma,
                                     hw_weights=hw_weights, threads=threads, action_mask=action_mask)
        self.num_envs = num_envs
        n_actions = len(_core.action_names())
        low = self._core.observation_low
        self.single_action_space = spaces.Discrete(n_actions)
        self.single_observation_space = spaces.Box(low=low, high=np.full(low.shape, np.inf, np.float32))
        self.action_space = spaces.Box(0, n_actions - 1, shape=(num_envs,), dtype=np.int64) \
            if not spaces.HAVE_GYMNASIUM else _gym.spaces.MultiDiscrete([n_actions] * num_envs)
        self.observation_space = spaces.Box(low=np.broadcast_to(low, (num_envs, low.size)),
                                            high=np.full((num_envs, low.size), np.inf, np.float32))

    def reset(self, seed=None, options=None):
        if options:
            raise _core.Error("VectorEnv.reset takes no options")
        return self._core.reset(seed=seed)

    def step(self, actions):
        return self._core.step(actions)

    @property
    def graph_ids(self):
        """The graphs' ids; ``info["graph_index"]`` indexes this list."""
        return self._core.graph_ids

    def state(self, i):
        """Environment i's state text (replayable with PassOrderEnv.replay)."""
        return self._core.state(i)

    def close(self):
        pass


def make(env_id=ENV_ID, **kwargs):
    """``hlsgym.make("hlsgym/PassOrder-v0", graphs=..., reward=..., target=..., observation=..., max_steps=...)``."""
    if env_id not in _ENV_IDS:
        raise _core.Error(f"unknown environment id '{env_id}' (known: {', '.join(_ENV_IDS)})")
    return PassOrderEnv(**kwargs)


if spaces.HAVE_GYMNASIUM:  # pragma: no cover - depends on the machine
    try:
        _gym.register(id=ENV_ID, entry_point="hlsgym.envs:PassOrderEnv")
    except Exception:  # already registered (module reloaded)
        pass
