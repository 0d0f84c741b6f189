"""Run any engine function over a grid of parameter settings: :func:`sweep`.

``sweep(fn, grid)`` calls ``fn(**point)`` once per point of the grid and returns a pandas
DataFrame, one row per point, indexed by the point's parameters (so ``df.to_xarray()`` is the
N-dimensional grid and ``df.reset_index()`` the flat table). The same call gives the same table
serially, over local processes, or on a Dask cluster:

* **Where it runs.** By default over local processes, one per core
  (:class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method). Its
  workers cost about a second of CPU each to start (importing numba and loading the cached
  kernels), it opens no network port and needs no scheduler, nanny or dashboard, where a
  ``dask.distributed.LocalCluster`` adds those processes and sockets for the same work;
  ``fork`` is avoided because numba's workqueue and GNU OpenMP threading layers are not
  fork-safe. Given a ``dask.distributed.Client`` (or a scheduler address such as
  ``"tcp://10.0.0.5:8786"``) the points run as Dask tasks on that cluster instead.
  ``workers=1`` runs them here, in order.
* **Seeds.** If ``fn`` takes a ``seed`` and the grid does not set one, each point gets its own,
  from :class:`numpy.random.SeedSequence` ``(seed, spawn_key=digest of the point)``: the child
  ``SeedSequence.spawn`` would make, keyed by the point's value instead of its position. The
  same point has the same seed in any grid, any order and on any worker (:func:`point_seed`).
* **Workers** run numba single-threaded (``NUMBA_NUM_THREADS=1``: the sweep is the parallel
  part) and share the on-disk compile cache (``NUMBA_CACHE_DIR``, passed on from this process):
  once it is warm they load the kernels from it, but on a cold cache each worker that starts at
  once compiles its own copy.
* **Resume.** With ``results="file.parquet"`` every finished point is saved (at most every
  2 s, and when the sweep ends or is interrupted), keyed by the point; a later call with the
  same function (its name and source code) and seed loads those points instead of
  recomputing them; an edited function is refused with that file.
* **Failures.** A point whose function raises does not stop the others. When all have run,
  :class:`SweepError` names the failed points and carries the whole table (failed rows hold
  their error in an ``error`` column); the finished points are in the results file. With
  ``errors="keep"`` the table is returned with that column instead.

How results become columns (:func:`result_columns`): ``fn`` returns a mapping of names to
values, a dataclass (e.g. :class:`flashlab.ftl.FtlResult`), or a bare scalar (column
``result``). Scalars (bool, int, float, str, None, NumPy scalars) become columns; nested
mappings and dataclasses are flattened with dots (``counters.gc_copies``); arrays, lists and
other non-scalars are left out, because a row holds one value per column.

Needs the ``sweep`` extra (``pip install -e ".[sweep]"`` in a clone: pandas, pyarrow,
dask.distributed, xarray); importing this module loads none of them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import math
import numbers
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sized
from contextlib import contextmanager
from itertools import product
from pathlib import Path

import numpy as np

from flashlab._validate import check_bool, check_choice, check_int, check_seed, quote

__all__ = ["sweep", "SweepError", "grid_points", "point_seed", "result_columns"]

SEED = "seed"          # the parameter through which a point receives its seed
ERROR = "error"        # column holding a failed point's error
_KEY = "_point"        # results-file column holding the point's canonical JSON key
_META = b"flashlab.sweep"
_CHECKPOINT_S = 2.0    # results file written at most this often while a sweep runs
MAX_POINTS = 10**6     # points in one grid: more would take days and fill memory before the first ran


class SweepError(RuntimeError):
    """Some points of a sweep raised.

    ``table`` is the whole table, failed rows with their error in the ``error`` column;
    ``failed`` lists the failed points' parameters, in grid order.
    """

    def __init__(self, message: str, table, failed: list[dict]):
        super().__init__(message)
        self.table = table
        self.failed = failed


# ----------------------------------------------------------------------------------- points
def _plain(value):
    """A grid value or result as a plain Python scalar, or ``NotImplemented`` if not a scalar."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            return NotImplemented
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return NotImplemented


def _single(values) -> bool:
    """Whether a grid entry is one setting rather than a list of them (a 0-d array is one)."""
    return isinstance(values, (str, bytes)) or not isinstance(values, Iterable) \
        or (isinstance(values, np.ndarray) and values.ndim == 0)


def _values(name: str, values) -> list:
    if _single(values):
        values = [values]  # a single setting
    out = []
    for v in values:
        p = _plain(v)
        if p is NotImplemented:
            raise TypeError(f"grid values must be numbers, strings, booleans or None (they key the table "
                            f"and the results file); got {v!r} ({type(v).__name__}) for parameter {name!r}")
        out.append(p)
    return out


def _check_size(names: list, counts: list[int]) -> None:
    if math.prod(counts) > MAX_POINTS:
        raise ValueError(f"grid must have at most {MAX_POINTS} points (the product of its value counts); got "
                         f"{math.prod(counts)} ({', '.join(f'{n}: {c}' for n, c in zip(names, counts))})")


def grid_points(grid) -> list[dict]:
    """The points of ``grid`` in order, each a dict of plain scalars.

    ``grid`` is either a mapping ``{parameter: list of values}`` (its Cartesian product, the last
    parameter varying fastest; a single value stands for a one-element list) or a list of
    mappings ``{parameter: value}``, one per point.
    """
    if isinstance(grid, Mapping):
        if not grid:
            raise ValueError("grid must name at least one parameter; got an empty dict")
        names = list(grid)
        # count before building anything: a product of a few long lists is a huge number of points
        _check_size(names, [len(v) if isinstance(v, Sized) and not _single(v) else 1 for v in grid.values()])
        columns = [_values(str(n), grid[n]) for n in names]
        for name, col in zip(names, columns):
            if not col:
                raise ValueError(f"grid[{name!r}] must list at least one value; got {grid[name]!r}")
        _check_size(names, [len(c) for c in columns])  # value lists without a length (generators)
        points = [dict(zip(names, combo)) for combo in product(*columns)]
    elif isinstance(grid, Iterable) and not isinstance(grid, (str, bytes)):
        points = []
        for i, p in enumerate(grid):
            if not isinstance(p, Mapping):
                raise TypeError(f"grid must be a dict of value lists or a list of dicts; grid[{i}] is {p!r}")
            points.append({k: _values(str(k), [v])[0] for k, v in p.items()})
        if not points:
            raise ValueError("grid must hold at least one point; got an empty list")
    else:
        raise TypeError(f"grid must be a dict of value lists or a list of dicts; got {type(grid).__name__}")
    for p in points:
        for k in p:
            if not isinstance(k, str) or not k.isidentifier():
                raise ValueError(f"grid parameter names must be identifiers; got {k!r}")
    seen = set()
    for p in points:
        key = point_key(p)
        if key in seen:
            raise ValueError(f"grid lists the point {p} more than once")
        seen.add(key)
    return points


def point_key(point: Mapping) -> str:
    """The point's canonical form: JSON with sorted names (``1`` and ``1.0`` are different points)."""
    if not isinstance(point, Mapping) or not all(isinstance(k, str) for k in point):
        raise TypeError(f"point must be a dict of parameter names to values; got {quote(point)}")
    plain = {k: _plain(v) for k, v in point.items()}
    for k, v in plain.items():
        if v is NotImplemented:
            raise TypeError(f"point values must be numbers, strings, booleans or None; got {quote(point[k])} "
                            f"({type(point[k]).__name__}) for {k!r}")
    return json.dumps(plain, sort_keys=True, separators=(",", ":"))


def point_seed(point: Mapping, seed: int = 0) -> int:
    """The seed, in ``[0, 2**63)``, that :func:`sweep` gives ``point`` under root ``seed``.

    ``SeedSequence(seed, spawn_key=words of SHA-256(point_key(point)))``: a spawned child
    keyed by the point's value, so it does not depend on the grid, its order or the worker.
    """
    check_seed("seed", seed)
    words = np.frombuffer(hashlib.sha256(point_key(point).encode()).digest(), dtype="<u4")
    state = np.random.SeedSequence(seed, spawn_key=tuple(int(w) for w in words)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def _signature_check(fn, names: set[str]) -> tuple[bool, bool]:
    """Check the grid's parameter names against ``fn``; return (gets a seed, gets progress=False)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # no introspectable signature: trust the grid
        return False, False
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    named = {n for n, p in params.items() if p.kind in kinds}
    if not any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values()):
        unknown = sorted(names - named)
        if unknown:
            raise ValueError(f"grid parameter {unknown[0]!r} is not a parameter of {_name(fn)}; "
                             f"it takes {', '.join(sorted(named)) or 'none'}")
    gets_seed = SEED in named and SEED not in names
    missing = sorted(n for n, p in params.items() if p.kind in kinds and p.default is inspect.Parameter.empty
                     and n not in names and not (n == SEED and gets_seed))
    if missing:
        raise ValueError(f"{_name(fn)} needs parameter {missing[0]!r}: give it values in the grid")
    return gets_seed, "progress" in named and "progress" not in names


def _name(fn) -> str:
    module = getattr(fn, "__module__", None) or type(fn).__module__
    qualname = getattr(fn, "__qualname__", None) or type(fn).__qualname__
    return f"{module}.{qualname}"


def _code(fn) -> str:
    """A digest of what ``fn`` runs, which a results file records so that an edited function does
    not resume from the old one's results: SHA-256 of its source (a callable object's class's; a
    ``functools.partial``'s function's, with its arguments pickled), or, where Python keeps no
    source (a builtin, code typed at a prompt), of the function pickled by value. Functions that
    ``fn`` calls are not covered: edit one of those and start a new results file."""
    import functools

    import cloudpickle

    parts = []
    while isinstance(fn, functools.partial):
        parts.append(cloudpickle.dumps((fn.args, fn.keywords)))
        fn = fn.func
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else type(fn)
    try:
        parts.append(inspect.getsource(target).encode())
    except (OSError, TypeError):
        parts.append(cloudpickle.dumps(fn))
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


# ---------------------------------------------------------------------------------- results
def _is_record(value) -> bool:
    """A mapping or a dataclass instance: its fields become columns."""
    return isinstance(value, Mapping) or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def result_columns(result) -> dict:
    """The table columns of one result (see the module docstring for the rules)."""
    if _is_record(result):
        out: dict = {}
        _flatten(result, "", out, 0)
        return out
    value = _plain(result)
    if value is NotImplemented:
        raise TypeError(f"the function's result must be a dict, a dataclass or a scalar; got {type(result).__name__}")
    return {"result": value}


_MAX_DEPTH = 32  # records nested deeper (or a record holding itself) are refused, not recursed into


def _flatten(obj, prefix: str, out: dict, depth: int) -> None:
    if depth >= _MAX_DEPTH:
        raise ValueError(f"result must nest records (dicts, dataclasses) at most {_MAX_DEPTH} deep; got deeper "
                         f"at {prefix[:-1][:200]!r} (a record that holds itself?)")
    items = ({f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
             if dataclasses.is_dataclass(obj) else obj)
    for k, v in items.items():
        name = f"{prefix}{k}"
        if _is_record(v):
            _flatten(v, name + ".", out, depth + 1)
        else:
            value = _plain(v)
            if value is not NotImplemented:
                out[name] = value


def _evaluate(fn, kwargs: dict) -> tuple[dict | None, str | None]:
    """Run one point: (columns, None) or (None, "ExceptionType: message")."""
    try:
        return result_columns(fn(**kwargs)), None
    except Exception as exc:  # noqa: BLE001 - a failed point is reported, the others go on
        return None, f"{type(exc).__name__}: {exc}"


# ----------------------------------------------------------------------------- worker side
def _usable_cores() -> int:
    """The cores this process may run on (its affinity mask on Linux; all cores elsewhere, where
    ``os.sched_getaffinity`` does not exist)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _worker_environ() -> dict[str, str]:
    """What workers need in their environment: single-threaded numba, this process's cache."""
    env = {"NUMBA_NUM_THREADS": "1"}
    if os.environ.get("NUMBA_CACHE_DIR"):
        env["NUMBA_CACHE_DIR"] = str(Path(os.environ["NUMBA_CACHE_DIR"]).resolve())
    return env


def _single_threaded(env: dict[str, str]) -> None:
    """Make numba single-threaded in this worker (before numba is imported, if it is not yet)."""
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = env["NUMBA_NUM_THREADS"]
        if "NUMBA_CACHE_DIR" in env:
            os.environ.setdefault("NUMBA_CACHE_DIR", env["NUMBA_CACHE_DIR"])
    else:  # a long-lived worker that already runs numba: limit this thread's parallel regions
        import numba

        if numba.config.NUMBA_NUM_THREADS > 1 and numba.get_num_threads() > 1:
            numba.set_num_threads(1)


class _NotATerminal:
    """A worker's stderr: written through, but never a terminal, so engine progress bars stay off
    (the sweep shows one bar for all points)."""

    def __init__(self, stream):
        self._stream = stream

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name):
        return getattr(self._stream, name)


_FN = None            # the function of the sweep, in a local worker process
_FN_CACHE: dict = {}  # functions by digest, in a Dask worker


def _init_local(fn_bytes: bytes, env: dict[str, str]) -> None:
    global _FN
    _single_threaded(env)
    sys.stderr = _NotATerminal(sys.stderr)
    import cloudpickle

    _FN = cloudpickle.loads(fn_bytes)


def _local_task(kwargs: dict):
    return _evaluate(_FN, kwargs)


def _dask_task(fn_bytes: bytes, kwargs: dict, env: dict[str, str]):
    _single_threaded(env)
    digest = hashlib.sha256(fn_bytes).digest()
    if digest not in _FN_CACHE:
        import cloudpickle

        _FN_CACHE[digest] = cloudpickle.loads(fn_bytes)
    return _evaluate(_FN_CACHE[digest], kwargs)


@contextmanager
def _environ(env: dict[str, str]):
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# ------------------------------------------------------------------------------ executors
def _run_serial(fn, pending):
    for key, kwargs in pending:
        yield key, _evaluate(fn, kwargs)


def _run_local(fn, pending, workers: int):
    from concurrent.futures import ProcessPoolExecutor, as_completed
    import multiprocessing

    import cloudpickle

    env = _worker_environ()
    pool = ProcessPoolExecutor(min(workers, len(pending)), mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_local, initargs=(cloudpickle.dumps(fn), env))
    try:
        with _environ(env):  # the workers start during the first submits and inherit this
            futures = {pool.submit(_local_task, kwargs): key for key, kwargs in pending}
        for fut in as_completed(futures):
            yield futures[fut], _outcome(fut)
    except BaseException:  # interrupted: drop the queued points, let running ones end on their own
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_dask(fn, pending, client):
    from distributed import as_completed
    import cloudpickle

    env = _worker_environ()
    # a random key, not the content's hash: a sweep just before on the same scheduler released the
    # same function under the same key, and reusing it raced with that release (lost dependencies)
    fn_ref = client.scatter(cloudpickle.dumps(fn), broadcast=True, hash=False)
    futures = {client.submit(_dask_task, fn_ref, kwargs, env, pure=False): key for key, kwargs in pending}
    try:
        for fut in as_completed(futures):
            yield futures[fut], _outcome(fut)
    finally:
        client.cancel([f for f in futures if not f.done()])


def _outcome(fut):
    try:
        return fut.result()
    except Exception as exc:  # noqa: BLE001 - the worker died or the task was lost
        return None, f"{type(exc).__name__}: {exc}"


# ----------------------------------------------------------------------------- results file
class _Store:
    """The Parquet results file: finished points keyed by :func:`point_key`, rewritten whole
    (to a temporary file, then renamed) so an interruption never leaves a torn file. Its rows
    are in grid order (``order``: the sweep's point keys), as :func:`sweep` returns them, however
    the points finished (a pool or a Dask cluster completes them in any order); rows a results
    file held from points outside this grid follow, in their previous order."""

    def __init__(self, path, meta: dict, order: list[str]):
        self.path = Path(path)
        self.meta = meta
        self.rank = {k: i for i, k in enumerate(order)}
        self.rows: dict[str, dict] = {}
        self.parameters: list[str] = []
        self.dirty = False
        self.written = time.monotonic()
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(self.path)
        except (OSError, ValueError) as exc:  # not Parquet (pyarrow's ArrowInvalid is a ValueError)
            raise ValueError(f"results={str(self.path)!r} is not a flashlab sweep results file ({exc})") from None
        raw = (table.schema.metadata or {}).get(_META)
        if raw is None or _KEY not in table.column_names:
            raise ValueError(f"results={str(self.path)!r} is not a flashlab sweep results file")
        try:
            meta = json.loads(raw)
        except ValueError:  # JSONDecodeError, UnicodeDecodeError
            meta = None
        fields = ("function", "seed", "parameters")
        if not (isinstance(meta, dict) and all(f in meta for f in fields) and isinstance(meta["parameters"], list)
                and all(isinstance(x, str) for x in meta["parameters"])):
            raise ValueError(f"results={str(self.path)!r} is not a flashlab sweep results file (its metadata "
                             f"must be a JSON object with {', '.join(fields)}; got {quote(raw)})")
        for field in ("function", "seed"):
            if meta[field] != self.meta[field]:
                raise ValueError(f"results={str(self.path)!r} holds a sweep with {field} {meta[field]!r}; this "
                                 f"sweep has {field} {self.meta[field]!r}: use another results file")
        if meta.get("code") != self.meta["code"]:  # files written before the digest have none
            raise ValueError(f"results={str(self.path)!r} holds a sweep of another version of "
                             f"{self.meta['function']} (its code has changed since): use another results file")
        self.parameters = list(meta["parameters"])
        for rec in table.to_pylist():
            key = rec.pop(_KEY)
            self.rows[key] = {k: v for k, v in rec.items() if v is not None}

    def results(self, key: str) -> dict | None:
        row = self.rows.get(key)
        if row is None:
            return None
        return {k: v for k, v in row.items() if k not in self.parameters and k != SEED}

    def add(self, key: str, row: dict, parameters) -> None:
        self.rows[key] = row
        self.parameters += [p for p in parameters if p not in self.parameters]
        self.dirty = True
        if time.monotonic() - self.written >= _CHECKPOINT_S:
            self.save()

    def save(self) -> None:
        if not self.dirty:
            return
        import pandas as pd
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = sorted(self.rows.items(), key=lambda kv: self.rank.get(kv[0], len(self.rank)))  # stable
        frame = pd.DataFrame([{_KEY: k, **row} for k, row in rows])
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[_META] = json.dumps({**self.meta, "parameters": self.parameters}).encode()
        tmp = self.path.with_name(self.path.name + ".tmp")
        pq.write_table(table.replace_schema_metadata(meta), tmp)
        os.replace(tmp, self.path)
        self.dirty = False
        self.written = time.monotonic()


# ------------------------------------------------------------------------------------ sweep
def sweep(fn, grid, *, seed: int = 0, client=None, progress: bool | None = None, results=None,
          workers: int | None = None, errors: str = "raise"):
    """Run ``fn(**point)`` at every point of ``grid``; return one table row per point.

    Parameters
    ----------
    fn : callable
        Takes the grid's parameters as keyword arguments (checked against its signature) and
        returns a mapping, a dataclass or a scalar (:func:`result_columns`). If it takes
        ``seed`` and the grid does not set it, each point gets :func:`point_seed`; if it takes
        ``progress``, it gets ``False`` (the sweep has one bar). It must be picklable by
        ``cloudpickle`` (any function, including one defined in a notebook).
    grid : dict of lists (Cartesian product) or list of dicts (one per point)
        Values are numbers, strings, booleans or None.
    seed : int in [0, 2**63), the root seed of every point's seed.
    client : None, a ``dask.distributed.Client`` or a scheduler address (str)
        None runs on local processes; otherwise the points are Dask tasks on that cluster,
        whose workers need flashlab installed.
    progress : a tqdm bar; default: when stderr is a terminal (quiet in tests and builds).
    results : path of a Parquet file (ending in ``.parquet``) to save finished points in and resume
        from, or None.
    workers : local processes (default: the cores this process may use); 1 runs the points
        here, one after another. Only for local runs.
    errors : "raise" (default: :class:`SweepError` after all points ran) or "keep" (return the
        table with an ``error`` column).

    Returns
    -------
    pandas.DataFrame
        Rows in grid order, indexed by the parameters (a MultiIndex when there are several);
        columns: ``seed`` (when the sweep gave one), the results, and ``error`` if any point
        failed. ``to_xarray()`` turns a Cartesian grid into an N-D ``xarray.Dataset``.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable; got {fn!r}")
    seed = check_seed("seed", seed)  # a plain int: it goes into the results file's JSON metadata
    check_choice("errors", errors, ("raise", "keep"))
    check_bool("progress", progress, allow_none=True)
    if client is not None and not (isinstance(client, str) and client.strip()) and not hasattr(client, "submit"):
        raise TypeError(f"client must be a dask.distributed.Client or a scheduler address; got {quote(client)}")
    if results is not None:
        if not isinstance(results, (str, os.PathLike)) or not os.fspath(results).endswith(".parquet"):
            raise ValueError(f"results must be the path of a .parquet file (str or Path) or None; got {quote(results)}")
        folder = Path(os.fspath(results)).parent
        if not folder.is_dir():  # checked before the first point: the table is written at the end too
            raise ValueError(f"results={quote(os.fspath(results))}: its folder {str(folder)!r} does not exist")
    if workers is not None:
        workers = check_int("workers", workers, 1, 4096)
        if client is not None:
            raise ValueError("workers sets the local processes; with a Dask client the cluster sets them")
    points = grid_points(grid)
    names = list(dict.fromkeys(n for p in points for n in p))
    gets_seed, quiet = _signature_check(fn, set(names))

    from tqdm.auto import tqdm

    keys = [point_key(p) for p in points]
    seeds = {k: point_seed(p, seed) for k, p in zip(keys, points)} if gets_seed else {}
    store = None if results is None else _Store(results, {"function": _name(fn), "code": _code(fn), "seed": seed},
                                                   keys)
    done: dict[str, tuple[dict | None, str | None]] = {}
    pending = []
    for key, p in zip(keys, points):
        stored = store.results(key) if store else None
        if stored is not None:
            done[key] = (stored, None)
        else:
            kwargs = dict(p)
            if gets_seed:
                kwargs[SEED] = seeds[key]
            if quiet:
                kwargs["progress"] = False
            pending.append((key, kwargs))
    by_key = dict(zip(keys, points))
    show = sys.stderr.isatty() if progress is None else bool(progress)
    dask_client = _client(client) if pending and client is not None else None
    try:
        if pending:
            if dask_client is not None:
                run = _run_dask(fn, pending, dask_client)
            else:
                n = _usable_cores() if workers is None else workers
                run = _run_serial(fn, pending) if n == 1 or len(pending) == 1 else _run_local(fn, pending, n)
            with tqdm(total=len(points), initial=len(done), disable=not show, unit="point", desc="sweep") as bar:
                for key, (cols, err) in run:
                    clash = [c for c in cols or () if c in by_key[key] or c == SEED]
                    if clash:
                        cols, err = None, f"ValueError: result column {clash[0]!r} has the name of a parameter"
                    done[key] = (cols, err)
                    if store is not None and err is None:
                        row = {**by_key[key], **({SEED: seeds[key]} if gets_seed else {}), **cols}
                        store.add(key, row, by_key[key])
                    bar.update(1)
    finally:
        if store is not None:
            store.save()
        if isinstance(client, str) and dask_client is not None:
            dask_client.close()
    return _table(points, keys, seeds, done, names, errors, results)


def _table(points, keys, seeds, done, names, errors, results):
    import pandas as pd

    failed = [(p, done[k][1]) for k, p in zip(keys, points) if done[k][1] is not None]
    rows = []
    for key, p in zip(keys, points):
        cols, err = done[key]
        row = {**p, **({SEED: seeds[key]} if seeds else {}), **(cols or {})}
        if failed:
            row[ERROR] = err
        rows.append(row)
    table = pd.DataFrame(rows)
    if failed:
        table[ERROR] = table.pop(ERROR).astype(object)  # last column; None where the point ran
    table = table.set_index(names)
    if failed and errors == "raise":
        first, err = failed[0]
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        kept = "" if len(failed) == len(points) else (
            f"; {len(points) - len(failed)} finished point(s) kept in this error's table"
            + (f" and in {results}" if results is not None else ""))
        raise SweepError(f"{len(failed)} of {len(points)} points failed: {first} raised {err}{more}{kept}",
                         table, [p for p, _ in failed])
    return table


def _client(client):
    if isinstance(client, str):
        from distributed import Client

        return Client(client)
    return client  # checked by sweep
