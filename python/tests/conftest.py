"""Shared fixtures: the package under test (from PYTHONPATH, the build tree), the source
tree's designs, the CLI binary for round trips, and the real HLO files."""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("HLSGYM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DESIGNS = SOURCE / "designs"


@pytest.fixture(scope="session")
def hlsgym():
    try:
        import hlsgym as module
    except ImportError as e:
        pytest.fail(f"cannot import hlsgym ({e}); build the hlsgym_python target and set PYTHONPATH=build/python")
    return module


@pytest.fixture(scope="session")
def designs():
    return DESIGNS


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("HLSGYM_CLI", str(SOURCE / "build" / "cli" / "hlsgym"))
    if not os.path.exists(path):
        pytest.fail(f"the hlsgym CLI is not at {path} (build it, or set HLSGYM_CLI)")

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"hlsgym {' '.join(map(str, args))} failed: {r.stderr}")
        if "--json" in args and r.returncode == 0:
            return json.loads(r.stdout)
        return r
    return run


@pytest.fixture(scope="session")
def hlo_data():
    d = pathlib.Path(os.environ.get("HLSGYM_HLO_DATA_DIR", SOURCE.parent / "shared" / "data" / "hlo"))
    if not (d / "train").is_dir():
        pytest.fail(f"the real HLO files are not at {d}/train (set HLSGYM_HLO_DATA_DIR)")
    return d
