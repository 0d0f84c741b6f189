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
