"""The library verbs return what the CLI's --json prints for the same arguments."""
import numpy as np
import pytest


def drop(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


def test_stats(hlsgym, cli, designs):
    for name in ("fir8", "softmax", "attention_head"):
        path = designs / f"{name}.yaml"
        want = cli("stats", path, "--json")
        got = hlsgym.stats(path)
        for key in ("design", "instructions", "entry_instructions", "computations", "opcodes", "flops",
                    "transcendentals", "bytes_accessed", "features"):
            assert got[key] == pytest.approx(want[key]), (name, key)


def test_print_is_the_cli_text_and_reparses(hlsgym, cli, designs, tmp_path):
    path = designs / "conv2d.yaml"
    text = hlsgym.print_hlo(path)
    assert text == cli("print", path).stdout
    again = hlsgym.parse_hlo(text, "conv2d.hlo")
    assert hlsgym.print_hlo(again) == text


def test_report(hlsgym, cli, designs):
    for name, target in (("fir8", "fpga"), ("matvec", "cpu"), ("mlp_layer", "fpga")):
        path = designs / f"{name}.yaml"
        want = cli("report", path, "--target", target, "--json")
        got = hlsgym.report(path, target=target)
        assert drop(got, "seconds") == drop(want, "seconds"), name


def test_search(hlsgym, cli, designs):
    path = designs / "softmax.yaml"
    want = cli("search", path, "--algo", "greedy", "--json")
    got = hlsgym.search(path, algo="greedy")
    assert drop(got, "seconds") == drop(want, "seconds")
    want = cli("search", path, "--algo", "random", "--reward", "cycles", "--target", "fpga", "--budget-steps", "300",
               "--seed", "4", "--json")
    got = hlsgym.search(path, algo="random", reward="cycles", target="fpga", budget_steps=300, seed=4)
    assert drop(got, "seconds") == drop(want, "seconds")


def test_optimize(hlsgym, cli, designs, tmp_path):
    path = designs / "layernorm.yaml"
    for order in ("default", "algsimp,cse,dce", "learned"):
        want = cli("optimize", path, "--order", order, "--check", "--json")
        design, got = hlsgym.optimize(path, order=order, check=True)
        assert got["after"] == {k: want["after"][k] for k in got["after"]}, order
        assert got["check"]["status"] == "passed"
        assert design.instructions == want["after"]["instructions"]
    # an order as a list, and the optimized design prints as the CLI's -o file
    out = tmp_path / "opt.hlo"
    cli("optimize", path, "--order", "algsimp,cse,dce", "-o", out)
    design, _ = hlsgym.optimize(path, order=["algsimp", "cse", "dce"])
    assert design.text() == hlsgym.print_hlo(out)


def test_run(hlsgym, cli, designs):
    path = designs / "fir8.yaml"
    want = cli("run", path, "--seed", "5", "--json")
    got = hlsgym.run(path, seed=5)
    assert np.array_equal(np.asarray(got["output"]).ravel(), np.asarray(want["output"]).ravel())
    for k, v in want["inputs"].items():
        assert np.array_equal(got["inputs"][k].ravel(), np.asarray(v).ravel()), k


def test_passes_and_evaluate(hlsgym, cli, designs):
    want = cli("passes", "--json")
    names = [p["name"] for p in hlsgym.passes()]
    assert names == hlsgym.action_names()
    assert names == [p["name"] for p in want["passes"]]
    want = cli("evaluate", "--graphs", designs / "fir8.yaml", designs / "softmax.yaml", "--policy", "learned",
               "--no-baselines", "--json")
    got = hlsgym.evaluate([designs / "fir8.yaml", designs / "softmax.yaml"], policy="learned")
    assert got["geomean"] == pytest.approx(want["geomean"])
    assert [g["order"] for g in got["graphs"]] == [g["order"] for g in want["graphs"]]
    assert hlsgym.policy_order("learned", designs / "fir8.yaml") == want["graphs"][0]["order"]


def test_a_hardware_policy_file_acts_on_its_own_target(hlsgym, cli, designs):
    # fpga-cycles.policy records `target fpga`; the library runs it there, as the CLI does.
    design = designs / "heldout" / "conv1d.yaml"
    policy = designs / "policies" / "fpga-cycles.policy"
    want = cli("optimize", design, "--order", "learned", "--reward", "cycles", "--target", "fpga", "--json")
    assert want["policy_file"].endswith("fpga-cycles.policy")
    assert hlsgym.policy_order(str(policy), design) == want["order"]


def test_train_writes_a_policy_the_cli_reads(hlsgym, cli, designs, tmp_path):
    out = tmp_path / "p.policy"
    r = hlsgym.train([designs / "fir8.yaml", designs / "softmax.yaml"], str(out), steps=600, seed=3)
    assert out.exists() and r["steps"] >= 600 and r["curve"]
    want = cli("optimize", designs / "fir8.yaml", "--order", out, "--json")
    _, got = hlsgym.optimize(designs / "fir8.yaml", order=str(out))
    assert got["after"]["instructions"] == want["after"]["instructions"]


def test_rtl_emits_and_simulates_as_the_cli(hlsgym, cli, designs, tmp_path):
    want = cli("rtl", designs / "dot_product.yaml", "-o", tmp_path / "cli", "--sim", "--vectors", "4", "--json")
    got = hlsgym.rtl(designs / "dot_product.yaml", str(tmp_path / "py"), sim=True, vectors=4)
    for key in ("estimated_cycles", "lines", "vectors", "mismatches", "measured_cycles", "timeouts"):
        assert got[key] == want[key], key
    assert got["passed"] and got["measured_cycles"] == got["estimated_cycles"]
    assert open(got["verilog"]).read() == open(want["verilog"]).read()


def test_parse_errors_carry_the_cli_message(hlsgym, cli, tmp_path):
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] add(p, q)\n}\n")
    r = cli("stats", bad, check=False)
    assert r.returncode == 1
    message = r.stderr.strip().removeprefix("error: ")
    assert message.startswith(f"{bad}:5:")
    with pytest.raises(hlsgym.Error) as e:
        hlsgym.load(bad)
    assert str(e.value) == message
    with pytest.raises(hlsgym.Error) as e:
        hlsgym.make(graphs=[bad])
    assert str(e.value) == message
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("design: x\ninputs:\n  a: s32[4]\nops:\n  - {name: y, op: frobnicate, args: [a]}\noutputs: [y]\n")
    r = cli("stats", bad_yaml, check=False)
    with pytest.raises(hlsgym.Error) as e:
        hlsgym.load(bad_yaml)
    assert str(e.value) == r.stderr.strip().removeprefix("error: ") and ":5:" in str(e.value)
