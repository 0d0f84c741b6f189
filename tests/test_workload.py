"""Workload generators and trace files."""

import numpy as np
import pytest

from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE, Workload, read_trace


def take(workload, user, n, seed=0, chunk_size=4096):
    ops, lbas = [], []
    for o, l in workload.chunks(user, seed, chunk_size):
        ops.append(o)
        lbas.append(l)
        if sum(map(len, ops)) >= n:
            break
    return np.concatenate(ops)[:n], np.concatenate(lbas)[:n]


@pytest.mark.parametrize("pattern", ["uniform", "hotcold", "regions", "zipf", "sequential"])
def test_streams_are_seeded_chunked_and_in_range(pattern):
    wl = Workload(pattern, regions=((0.3, 0.6), (0.7, 0.4)) if pattern == "regions" else ())
    ops, lbas = take(wl, 1000, 20000, seed=3)
    again_ops, again = take(wl, 1000, 20000, seed=3)
    assert np.array_equal(lbas, again) and np.array_equal(ops, again_ops)
    assert lbas.dtype == np.int32 and ops.dtype == np.int8
    assert lbas.min() >= 0 and lbas.max() < 1000
    assert np.all(ops == OP_WRITE)
    if pattern != "sequential":
        assert not np.array_equal(lbas, take(wl, 1000, 20000, seed=4)[1])


def test_uniform_and_sequential():
    _, lbas = take(Workload(), 100, 100000)
    counts = np.bincount(lbas, minlength=100)
    assert counts.min() > 800 and counts.max() < 1200
    _, seq = take(Workload("sequential"), 7, 30, chunk_size=4)
    assert seq.tolist() == [i % 7 for i in range(30)]


@pytest.mark.parametrize("share,fraction", [(0.8, 0.2), (0.9, 0.1)])
def test_hot_cold_split(share, fraction):
    _, lbas = take(Workload("hotcold", hot_share=share, hot_fraction=fraction), 10000, 200000)
    assert np.mean(lbas < fraction * 10000) == pytest.approx(share, abs=0.01)


def test_zipf_matches_its_distribution():
    n, s = 50, 1.2
    _, lbas = take(Workload("zipf", zipf_exponent=s), n, 200000)
    p = np.arange(1, n + 1, dtype=float) ** -s
    p /= p.sum()
    freq = np.bincount(lbas, minlength=n) / lbas.size
    assert np.allclose(freq, p, atol=0.005)
    # exponent 1 (a removable singularity of the sampler) and large capacities work too
    _, lbas = take(Workload("zipf", zipf_exponent=1.0), 2**30, 10000)
    assert lbas.min() >= 0 and np.mean(lbas == 0) == pytest.approx(1 / np.log(2**30), rel=0.3)


def test_read_and_trim_mix():
    ops, _ = take(Workload(read_fraction=0.3, trim_fraction=0.1), 100, 100000)
    assert np.mean(ops == OP_READ) == pytest.approx(0.3, abs=0.01)
    assert np.mean(ops == OP_TRIM) == pytest.approx(0.1, abs=0.01)


def test_trace_round_trip(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("op,lba,length\n# comment\nW,0,3\n\nread, 5\nT,1,2\nwrite,9,1\n")
    tr = read_trace(path)
    assert tr.ops.tolist() == [OP_WRITE, OP_READ, OP_TRIM, OP_WRITE]
    assert tr.lines.tolist() == [3, 5, 6, 7] and tr.page_writes == 4
    ops, lbas = next(tr.chunks(10, chunk_size=100))
    assert ops.tolist() == [0, 0, 0, 1, 2, 2, 0]
    assert lbas.tolist() == [0, 1, 2, 5, 1, 2, 9]
    # replayed from the start again, in chunks of at most chunk_size requests
    stream = tr.chunks(10, chunk_size=3)
    assert [len(next(stream)[0]) for _ in range(3)] == [6, 1, 6]
    with pytest.raises(ValueError, match="t.csv:7: lba 9 \\+ length 1 must be <= user_pages=9"):
        next(tr.chunks(9))


@pytest.mark.parametrize(
    "text,match",
    [
        ("W,1,1\nX,2,1\n", r":2: op must be one of W, R, T .*'X,2,1'"),
        ("W,1,1\nW,abc\n", r":2: lba must be an integer >= 0; got 'abc'"),
        ("W,-1\n", r":1: lba must be in \[0,"),
        ("W,1,0\n", r":1: length must be in \[1,"),
        ("W,1,1,1\n", r":1: expected op,lba\[,length\] \(2 or 3 fields\), got 4"),
        ("# nothing\n", "holds no requests"),
    ],
)
def test_malformed_trace_lines(tmp_path, text, match):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        read_trace(path)


def test_bad_workload_parameters(tmp_path):
    with pytest.raises(ValueError, match="pattern must be one of"):
        Workload("pareto")
    with pytest.raises(ValueError, match=r"hot_share must be in \(0, 1\)"):
        Workload("hotcold", hot_share=1.0)
    with pytest.raises(ValueError, match="trim_fraction"):
        Workload(read_fraction=0.6, trim_fraction=0.5)
    with pytest.raises(ValueError, match="user_pages"):
        next(Workload().chunks(0))
    with pytest.raises(ValueError, match="cannot be read"):
        read_trace(tmp_path / "missing.csv")
    (tmp_path / "reads.csv").write_text("R,1\n")
    with pytest.raises(ValueError, match="at least one write"):
        next(read_trace(tmp_path / "reads.csv").chunks(10))


def test_trace_that_is_not_a_regular_file_is_refused(tmp_path):
    """A FIFO (or /dev/zero) would block on open or be read forever into memory: refuse it by its
    kind, before opening it (in a child interpreter, so a regression times out instead of hanging)."""
    import os

    from isolate import run_isolated

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    code = ("import resource, sys\nfrom flashlab.workload import read_trace\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2**31, 2**31))  # a regression reading /dev/zero stops here\n"
            "for p in sys.argv[1:]:\n"
            "    try:\n        read_trace(p)\n        print(p, 'ACCEPTED')\n"
            "    except ValueError as exc:\n        print(exc)\n")
    res = run_isolated(code, timeout=60, args=(str(fifo), "/dev/zero"))
    assert res.returncode == 0, res.describe()
    assert f"path {str(fifo)!r}: a trace must be a regular file" in res.stdout, res.stdout
    assert "path '/dev/zero': a trace must be a regular file" in res.stdout, res.stdout
