"""hlsgym from Python: the pass-ordering environment and the whole tool as a library.

    import hlsgym
    env = hlsgym.make("hlsgym/PassOrder-v0", graphs="designs", reward="cycles", target="fpga")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))

Library verbs (the CLI's subcommands, returning Python objects): load, parse_hlo,
print_hlo, stats, run, passes, default_order, optimize, report, rtl, search, train,
evaluate, policy_order, graph_observation, load_target. Errors a user can cause raise
``hlsgym.Error`` (a ValueError) with the CLI's message, file:line:col included.
"""
import os as _os

from . import _core

# An installed package carries designs/ (targets, shipped policy, default graphs) inside
# it; from the build tree the extension falls back to the source tree it was built from.
_here = _os.path.join(_os.path.dirname(__file__), "designs")
if _os.path.isdir(_here):
    _core._set_package_designs_dir(_here)

from ._core import (Error, Design, Target, load, parse_hlo, print_hlo, stats, run, passes, default_order,  # noqa: E402
                    optimize, report, rtl, search, train, evaluate, policy_order, graph_observation, load_target,
                    target_names, action_names, opcode_names, graph_node_feature_names, observation_names,
                    reward_names, designs_dir)
from . import spaces  # noqa: E402
from .envs import ENV_ID, PassOrderEnv, VectorEnv, make  # noqa: E402
from .env_checker import check_env  # noqa: E402

__version__ = "0.1.0"
__all__ = ["Error", "Design", "Target", "load", "parse_hlo", "print_hlo", "stats", "run", "passes", "default_order",
           "optimize", "report", "rtl", "search", "train", "evaluate", "policy_order", "graph_observation",
           "load_target", "target_names", "action_names", "opcode_names", "graph_node_feature_names",
           "observation_names", "reward_names", "designs_dir", "spaces", "ENV_ID", "PassOrderEnv", "VectorEnv",
           "make", "check_env"]
