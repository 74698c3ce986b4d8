"""The README's Python example runs as written (so the two cannot drift apart)."""
import os
import re

import numpy as np


def test_readme_python_block_runs(designs, hlsgym):
    text = (designs.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README.md has no ```python block"
    cwd = os.getcwd()
    os.chdir(designs.parent)  # the example names graphs="designs", relative to the checkout
    try:
        scope = {"actions": np.zeros(64, dtype=np.int64)}
        exec(compile(blocks[0], "README.md", "exec"), scope)
    finally:
        os.chdir(cwd)
    assert scope["info"]["action_mask"].shape == (64, len(hlsgym.action_names()))
    assert scope["twin"].state.split("|")[0] in scope["env"].graph_ids
