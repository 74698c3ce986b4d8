"""The graph observation: CSR arrays consistent with the module, on designs and on a
large real HLO file."""
import numpy as np


def check_graph(hlsgym, design):
    g = hlsgym.graph_observation(design)
    stats = hlsgym.stats(design)
    n = g["opcode"].shape[0]
    assert n == stats["instructions"]
    # opcode histogram = the stats' opcode counts
    names = hlsgym.opcode_names()
    counts = {names[k]: int(c) for k, c in enumerate(np.bincount(g["opcode"], minlength=len(names))) if c}
    assert counts == stats["opcodes"]
    assert hlsgym.spaces.Graph(len(hlsgym.graph_node_feature_names()), len(names)).contains(g)
    data = g["edge_type"] == 0
    assert int(data.sum()) == int(stats["features"]["edges"])  # one data edge per operand reference
    return g


def test_designs(hlsgym, designs):
    for path in sorted(designs.glob("*.yaml")):
        check_graph(hlsgym, hlsgym.load(path))


def test_fir8_edges_are_the_operands(hlsgym, designs):
    d = hlsgym.load(designs / "fir8.yaml")
    g = check_graph(hlsgym, d)
    names = hlsgym.opcode_names()
    multiply = [i for i, op in enumerate(g["opcode"]) if names[op] == "multiply"]
    assert len(multiply) == 1
    srcs = g["col"][g["row_ptr"][multiply[0]]:g["row_ptr"][multiply[0] + 1]]
    assert [names[g["opcode"][s]] for s in srcs] == ["convert", "convert"]
    reduce_ = [i for i, op in enumerate(g["opcode"]) if names[op] == "reduce"][0]
    types = g["edge_type"][g["row_ptr"][reduce_]:g["row_ptr"][reduce_ + 1]]
    assert list(types) == [0, 0, 1]  # two operands and the to_apply computation's root


def test_large_real_module(hlsgym, hlo_data):
    path = max((hlo_data / "train").glob("*.hlo"), key=lambda p: p.stat().st_size)
    g = check_graph(hlsgym, hlsgym.load(path))
    assert g["opcode"].shape[0] > 5000
    assert np.isfinite(g["features"]).all()
