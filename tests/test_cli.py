"""The `flashlab` command's dispatcher: every subcommand registered, one-line errors, no traceback."""

import subprocess
import sys

PY = sys.executable


def _run(args, **kw):
    return subprocess.run([PY, "-m", "flashlab.cli", *args], capture_output=True, text=True, timeout=120, **kw)


def test_help_lists_every_subcommand():
    out = _run(["--help"]).stdout
    for name in ("rber", "wa", "cliff", "quiz"):
        assert name in out


def test_each_subcommand_comes_from_the_module_the_table_names():
    import argparse
    import importlib

    from flashlab.cli import SUBCOMMANDS

    for command, module in SUBCOMMANDS.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        assert list(sub.choices) == [command]


def test_a_named_subcommand_imports_only_its_module():
    code = ("import sys; from flashlab import cli; cli.main(['wa', '--blocks', '64', '--pages-per-block', '16', "
            "'--fills', '1', '--op', '0.2']); print(sorted(m for m in sys.modules if m.startswith('flashlab.') and m.endswith('cli')))")
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "['flashlab.cli', 'flashlab.ftl.cli']"


def test_unknown_subcommand_exits_2_with_one_line():
    r = _run(["nonsense"])
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_closed_pipe_is_not_a_traceback():
    # The reader (like `head -1`) closes the pipe after one line.
    cmd = f"{PY} -m flashlab.cli rber --cell slc --pe 100 | head -1"
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 1
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr


def test_python_dash_m_flashlab_is_the_command():
    """Where the ``flashlab`` script is not on PATH (a checkout on PYTHONPATH), ``python -m
    flashlab`` is the same command, errors included."""
    r = subprocess.run([PY, "-m", "flashlab", "quiz", "ftl", "--seed", "-1"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stderr == "flashlab quiz: error: seed must be in [0, 9223372036854775807]; got -1\n"


def test_running_out_of_memory_is_one_line_not_a_traceback():
    """A run the checks let through can still outgrow the memory (here 256 members of 4 GiB
    under a 3 GiB limit): the command says so in one line with exit status 2. The members are
    not preconditioned: their fresh state alone outgrows the limit (after 181 members), where
    preconditioning each first cost 35 s of CPU before the 91st ran out."""
    code = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))\n"
            "from flashlab.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    r = subprocess.run([PY, "-c", code, "array", "--drives", "256", "--drive-mib", "4096", "--raid", "0",
                        "--requests", "100", "--precondition", "0"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.startswith("flashlab array: error: out of memory (") and len(r.stderr.splitlines()) == 1
