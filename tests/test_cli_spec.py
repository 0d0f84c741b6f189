"""``flashlab spec`` and ``flashlab act``: exit status 0 for a specification met, 1 for one failed
or not supported by the samples, 2 with one line naming the field for a malformed one."""

import subprocess
import sys

PY = sys.executable
# a light load on the X25-E (its small_config, filled but not preconditioned further): 1,000 requests
BASE = "preset = x25e\nrequests = 1000\nprecondition_fills = 0\nwrite_mb_s = 20\nwrite_size_kib = 128\n"


def _run(args, **kw):
    return subprocess.run([PY, "-m", "flashlab.cli", *args], capture_output=True, text=True, timeout=600, **kw)


def test_a_met_spec_exits_0_with_the_measure_beside_the_limit(tmp_path):
    f = tmp_path / "spec.txt"
    f.write_text(BASE + "read_p90_ms <= 1000  # a bound no drive misses\n")
    r = _run(["spec", str(f)])
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "read_p90_ms" in ln)
    assert "measured" in line and " ms" in line and "n=" in line and line.rstrip().endswith("pass")
    assert r.stdout.rstrip().endswith("PASS")


def test_a_failed_limit_exits_1_and_says_fail(tmp_path):
    f = tmp_path / "spec.txt"
    f.write_text(BASE + "read_p90_ms <= 0.001\n")
    r = _run(["spec", str(f)])
    assert r.returncode == 1, r.stderr
    assert "FAIL" in r.stdout and r.stderr == ""


def test_a_percentile_the_samples_cannot_support_is_not_a_pass():
    """About 700 reads leave fewer than ten beyond p99.99: not supported, exit 1, said so."""
    r = _run(["spec", "-e", BASE.replace("\n", ";"), "-e", "read_p99.99_ms <= 1000"])
    assert r.returncode == 1, r.stderr
    assert "NOT SUPPORTED" in r.stdout and "not supported" in r.stdout


def test_a_malformed_spec_exits_2_with_one_line_naming_the_field(tmp_path):
    for bad, field in (("rwmixread = 170", "rwmixread"), ("read_p99_ms <= soon", "read_p99_ms"),
                       ("write_size = 256", "write_size"), ("preset = nosuch", "preset")):
        f = tmp_path / "bad.txt"
        f.write_text(BASE.replace("preset = x25e\n", "") + ("" if field == "preset" else "preset = x25e\n")
                     + bad + "\nread_p90_ms <= 1\n")
        r = _run(["spec", str(f)])
        assert r.returncode == 2, (bad, r.stdout)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and field in lines[0] and "Traceback" not in r.stderr, (bad, r.stderr)
    r = _run(["spec"])
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "file" in r.stderr


def test_act_prints_the_rule_table_and_the_qos_rows():
    r = _run(["act", "--preset", "x25e", "--multiple", "1", "--record-reads", "2000", "--precondition", "0"])
    assert r.returncode == 0, r.stderr
    assert ">1 ms (<5%)" in r.stdout and "verdict:" in r.stdout and "record read QoS (" in r.stdout
