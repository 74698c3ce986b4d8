"""The Gymnasium code path, on a machine without Gymnasium (Debian 12 does not package
it): a minimal stand-in module with Gymnasium's names (Env with abstract reset/step,
spaces, register/make) must make PassOrderEnv a gymnasium.Env, registered under its id,
with Gymnasium's space classes, and reset/step still the C++ ones."""
import os
import subprocess
import sys
import textwrap

STUB = textwrap.dedent('''
    import numpy as np
    registry = {}

    class Env:
        metadata = {}
        render_mode = None
        spec = None
        def reset(self, *, seed=None, options=None):
            raise NotImplementedError
        def step(self, action):
            raise NotImplementedError

    def register(id, entry_point, **kw):
        registry[id] = entry_point

    def make(id, **kw):
        module, name = registry[id].split(":")
        import importlib
        return getattr(importlib.import_module(module), name)(**kw)
''')
SPACES = textwrap.dedent('''
    import numpy as np
    class Space:
        def __init__(self, shape=None, dtype=None, seed=None):
            self._shape, self.dtype = shape, dtype
        @property
        def shape(self):
            return self._shape
        def __contains__(self, x):
            return self.contains(x)
    class Discrete(Space):
        def __init__(self, n, seed=None, start=0):
            self.n, self.start = n, start
            super().__init__((), np.int64)
        def contains(self, x):
            return 0 <= int(x) < self.n
    class Box(Space):
        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            self.low, self.high = np.asarray(low, dtype), np.asarray(high, dtype)
            super().__init__(self.low.shape if shape is None else shape, np.dtype(dtype))
        def contains(self, x):
            return x.shape == self.shape and bool(np.all(x >= self.low))
    class MultiDiscrete(Space):
        def __init__(self, nvec, seed=None):
            self.nvec = np.asarray(nvec)
            super().__init__(self.nvec.shape, np.int64)
''')

PROBE = textwrap.dedent('''
    import gymnasium, hlsgym
    from gymnasium.spaces import Box, Discrete
    assert hlsgym.spaces.HAVE_GYMNASIUM
    assert gymnasium.registry["hlsgym/PassOrder-v0"] == "hlsgym.envs:PassOrderEnv", gymnasium.registry
    env = gymnasium.make("hlsgym/PassOrder-v0", graphs=DESIGNS, max_steps=5)
    assert isinstance(env, gymnasium.Env) and isinstance(env, hlsgym.PassOrderEnv)
    assert isinstance(env.action_space, Discrete) and isinstance(env.observation_space, Box)
    obs, info = env.reset(seed=0)
    obs, r, term, trunc, info = env.step(1)
    assert obs in env.observation_space and info["pass"] == hlsgym.action_names()[1]
    assert isinstance(env.fork(), gymnasium.Env)
    print("ok")
''')


def test_with_a_gymnasium_module(tmp_path, designs):
    pkg = tmp_path / "gymnasium"
    (pkg / "spaces").mkdir(parents=True)
    (pkg / "__init__.py").write_text(STUB)
    (pkg / "spaces" / "__init__.py").write_text(SPACES)
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = subprocess.run([sys.executable, "-c", f"DESIGNS = {str(designs)!r}\n" + PROBE], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
