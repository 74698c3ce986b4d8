"""Observation and action spaces.

When Gymnasium is importable these are Gymnasium's own ``Discrete`` and ``Box`` (so
Stable-Baselines3 and friends type-check them); otherwise small stand-ins with the same
attributes and methods (``n``, ``start``, ``shape``, ``dtype``, ``low``, ``high``,
``sample``, ``contains``, ``seed``). Debian 12 does not package Gymnasium, hence the
fallback. ``Graph`` describes the graph observation (CSR arrays), which neither
Gymnasium's ``Box`` nor its ``Graph`` space (COO edges, one feature array) fits.
"""
import numpy as np

try:  # pragma: no cover - depends on the machine
    import gymnasium as _gym
    from gymnasium.spaces import Box, Discrete, Space
    HAVE_GYMNASIUM = True
except ImportError:
    _gym = None
    HAVE_GYMNASIUM = False

    class Space:
        """Gymnasium's Space protocol, reduced to what hlsgym's spaces use."""

        def __init__(self, shape=None, dtype=None, seed=None):
            self._shape = None if shape is None else tuple(shape)
            self.dtype = None if dtype is None else np.dtype(dtype)
            self._np_random = None
            if seed is not None:
                self.seed(seed)

        @property
        def shape(self):
            return self._shape

        @property
        def np_random(self):
            if self._np_random is None:
                self.seed()
            return self._np_random

        def seed(self, seed=None):
            self._np_random = np.random.default_rng(seed)
            return [seed]

        def __contains__(self, x):
            return self.contains(x)

    class Discrete(Space):
        """{start, ..., start + n - 1}."""

        def __init__(self, n, seed=None, start=0):
            if int(n) <= 0:
                raise ValueError("Discrete needs n > 0")
            self.n = np.int64(n)
            self.start = np.int64(start)
            super().__init__((), np.int64, seed)

        def sample(self, mask=None):
            if mask is not None:
                mask = np.asarray(mask, dtype=np.int8)
                valid = np.flatnonzero(mask)
                if valid.size == 0:
                    return self.start
                return np.int64(self.start + self.np_random.choice(valid))
            return np.int64(self.start + self.np_random.integers(self.n))

        def contains(self, x):
            if isinstance(x, (int, np.integer)):
                v = int(x)
            elif isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
                v = int(x)
            else:
                return False
            return int(self.start) <= v < int(self.start + self.n)

        def __repr__(self):
            return f"Discrete({self.n})" if self.start == 0 else f"Discrete({self.n}, start={self.start})"

        def __eq__(self, other):
            return isinstance(other, Discrete) and self.n == other.n and self.start == other.start

    class Box(Space):
        """A box in R^n with per-entry bounds (infinite where unbounded)."""

        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            dtype = np.dtype(dtype)
            if shape is None:
                shape = np.shape(low) if np.ndim(low) else np.shape(high)
            self.low = np.broadcast_to(np.asarray(low, dtype=dtype), shape).copy()
            self.high = np.broadcast_to(np.asarray(high, dtype=dtype), shape).copy()
            super().__init__(shape, dtype, seed)

        def sample(self, mask=None):
            low = np.where(np.isfinite(self.low), self.low, -1.0)
            high = np.where(np.isfinite(self.high), self.high, low + 2.0)
            return self.np_random.uniform(low, high, self.shape).astype(self.dtype)

        def contains(self, x):
            if not isinstance(x, np.ndarray):
                try:
                    x = np.asarray(x, dtype=self.dtype)
                except (ValueError, TypeError):
                    return False
            return bool(x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                        and np.all(x >= self.low) and np.all(x <= self.high))

        def __repr__(self):
            return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

        def __eq__(self, other):
            return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                    and np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))


class Graph(Space):
    """A module as a graph: a dict of NumPy arrays

    ``opcode`` int32[N] (index into ``hlsgym.opcode_names()``), ``features``
    float32[N, F] (names: ``hlsgym.graph_node_feature_names()``), ``row_ptr`` int64[N+1]
    and ``col`` int32[E] (CSR: node i reads ``col[row_ptr[i]:row_ptr[i+1]]``) and
    ``edge_type`` int8[E] (0 data, 1 call). N and E vary from state to state.
    """

    def __init__(self, node_features, opcodes, seed=None):
        self.node_features = int(node_features)
        self.opcodes = int(opcodes)
        super().__init__(None, None, seed)

    def contains(self, x):
        try:
            op, f, rp, col, et = (x[k] for k in ("opcode", "features", "row_ptr", "col", "edge_type"))
        except (KeyError, TypeError):
            return False
        n = op.shape[0] if op.ndim == 1 else -1
        return bool(
            op.dtype == np.int32 and f.dtype == np.float32 and rp.dtype == np.int64 and col.dtype == np.int32
            and et.dtype == np.int8 and f.shape == (n, self.node_features) and rp.shape == (n + 1,)
            and col.ndim == 1 and et.shape == col.shape and rp[0] == 0 and rp[-1] == col.shape[0]
            and np.all(np.diff(rp) >= 0) and (col.size == 0 or (col.min() >= 0 and col.max() < n))
            and (op.size == 0 or (op.min() >= 0 and op.max() < self.opcodes))
            and np.all((et == 0) | (et == 1)))

    def sample(self, mask=None):
        raise NotImplementedError("graph observations are not sampled")

    @property
    def is_np_flattenable(self):
        return False

    def __repr__(self):
        return f"Graph(node_features={self.node_features}, opcodes={self.opcodes}, CSR edges)"

    def __eq__(self, other):
        return isinstance(other, Graph) and (self.node_features, self.opcodes) == (other.node_features, other.opcodes)


__all__ = ["Box", "Discrete", "Graph", "Space", "HAVE_GYMNASIUM"]
