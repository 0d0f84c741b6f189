"""Input validation shared by every layer.

Every public constructor and function checks its inputs with these helpers, so bad input
raises a ``ValueError`` that names the parameter, the value given and the allowed range,
before any numba kernel sees it. Messages quote at most ``_QUOTE`` characters of a value, so a
huge argument never makes a huge message.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np


_QUOTE = 200


def quote(value) -> str:
    """``repr(value)`` cut to ``_QUOTE`` characters (for error messages)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _QUOTE else text[:_QUOTE] + f"... ({len(text)} characters)"


def _num(x) -> str:
    """A bound as text: integers as integers (2147483647, not 2.14748e+09), floats with %g."""
    if isinstance(x, numbers.Integral):
        return str(int(x))
    return f"{x:g}"


def _describe_range(lo, hi, lo_open: bool, hi_open: bool) -> str:
    left = "(" if lo_open else "["
    right = ")" if hi_open else "]"
    lo_s = "-inf" if lo is None else _num(lo)
    hi_s = "inf" if hi is None else _num(hi)
    return f"{left}{lo_s}, {hi_s}{right}"


def check_real(
    name: str,
    value,
    lo: float | None = None,
    hi: float | None = None,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
) -> float:
    """Return ``value`` as a float if it is a finite real number within the range.

    ``lo``/``hi`` are inclusive bounds unless ``lo_open``/``hi_open``; ``None`` means unbounded.
    Raises ``ValueError`` naming ``name``, the value and the allowed range otherwise.
    """
    rng = _describe_range(lo, hi, lo_open, hi_open)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number in {rng}; got {quote(value)} ({type(value).__name__})")
    try:
        v = float(value)
    except OverflowError:  # an int beyond the float range, e.g. 10**400
        v = math.inf
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number in {rng}; got {quote(value)}")
    if lo is not None and (v < lo or (lo_open and v == lo)):
        raise ValueError(f"{name} must be in {rng}; got {quote(value)}")
    if hi is not None and (v > hi or (hi_open and v == hi)):
        raise ValueError(f"{name} must be in {rng}; got {quote(value)}")
    return v


def plain_fields(obj) -> None:
    """Replace every NumPy scalar field of the dataclass instance ``obj`` (frozen or not) by the
    Python scalar it holds: an ``np.uint64`` kept as given would turn arithmetic with an int64
    into float64 far from the check that let it in (``check_int`` accepts NumPy integers and
    returns a Python int, but a dataclass keeps what it was given). Called first in
    ``__post_init__``."""
    import dataclasses

    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, np.generic) and isinstance(v, (np.integer, np.floating, np.bool_)):
            object.__setattr__(obj, f.name, v.item())


def check_int(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int if it is an integer in ``[lo, hi]`` (``None``: unbounded)."""
    rng = _describe_range(lo, hi, False, False)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in {rng}; got {quote(value)} ({type(value).__name__})")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{name} must be in {rng}; got {quote(value)}")
    return v


def check_choice(name: str, value, choices: Iterable) -> object:
    """Return the entry of ``choices`` equal to ``value`` (of a compatible type: a NumPy string
    matches a str, a float never matches an int choice, an array or a bool never matches a
    number); otherwise raise naming the allowed values."""
    options = tuple(choices)
    if isinstance(value, np.bool_):
        value = bool(value)
    for c in options:
        # numbers: any integer matches an integer choice, any real a non-integer one (3.0 is no op code)
        same_kind = isinstance(value, type(c)) or (isinstance(value, numbers.Integral) and isinstance(c, numbers.Real)) \
            or (isinstance(value, numbers.Real) and isinstance(c, numbers.Real) and not isinstance(c, numbers.Integral))
        if same_kind and isinstance(value, bool) == isinstance(c, bool):
            try:
                if bool(value == c):
                    return c
            except (TypeError, ValueError):  # e.g. an array: no single truth value
                pass
    allowed = ", ".join(repr(c) for c in options)
    raise ValueError(f"{name} must be one of {allowed}; got {quote(value)}")


def check_bool(name: str, value, *, allow_none: bool = False) -> bool | None:
    """Return ``value`` as a bool if it is ``True`` or ``False`` (or ``None`` with
    ``allow_none``). Strings such as ``'False'``, numbers and arrays are refused rather than
    tested for truthiness."""
    if value is None and allow_none:
        return None
    if not isinstance(value, (bool, np.bool_)):
        allowed = "True, False or None" if allow_none else "True or False"
        raise ValueError(f"{name} must be {allowed}; got {quote(value)} ({type(value).__name__})")
    return bool(value)


def check_instance(name: str, value, cls, what: str | None = None):
    """Return ``value`` if it is an instance of ``cls`` (a class or tuple of classes)."""
    if not isinstance(value, cls):
        if what is None:
            classes = cls if isinstance(cls, tuple) else (cls,)
            what = " or ".join(f"{'an' if c.__name__[0] in 'AEIOU' else 'a'} {c.__name__}" for c in classes)
        raise ValueError(f"{name} must be {what}; got {quote(value)} ({type(value).__name__})")
    return value


def check_text(name: str, value, min_len: int = 0, max_len: int = 10_000) -> str:
    """Return ``value`` if it is a str of ``min_len`` to ``max_len`` characters (labels, names)."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string; got {quote(value)} ({type(value).__name__})")
    if not min_len <= len(value) <= max_len:
        raise ValueError(f"{name} must have {min_len} to {max_len} characters; got {len(value)}: {quote(value)}")
    return value


def check_text_tuple(name: str, value, what: str = "non-empty strings", max_len: int = 200) -> tuple[str, ...]:
    """Return ``value`` if it is a non-empty tuple of non-empty strings of at most ``max_len``
    characters (e.g. BibTeX keys; ``what`` names them in the message)."""
    if not (isinstance(value, tuple) and value
            and all(isinstance(k, str) and 0 < len(k) <= max_len for k in value)):
        raise ValueError(f"{name} must be a tuple of {what}, at least one; got {quote(value)}")
    return value


def check_seed(name: str, value) -> int:
    """A seed is a non-negative integer below 2**63 (what NumPy and numba accept)."""
    return check_int(name, value, 0, 2**63 - 1)


def available_memory_bytes() -> int | None:
    """Memory the system can still give this process (Linux ``MemAvailable``), or ``None`` where
    that is unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(name: str, nbytes: int, what: str) -> None:
    """Raise ``ValueError`` naming ``name`` if ``what`` (e.g. "an FTL of 10 physical pages") needs
    more than the ``nbytes`` the system has available: NumPy would otherwise allocate it lazily and
    the OOM killer end the process while it is filled."""
    avail = available_memory_bytes()
    if avail is not None and nbytes > avail:
        raise ValueError(f"{name}: {what} needs about {nbytes / 2**30:.2f} GiB of memory; "
                         f"{avail / 2**30:.2f} GiB is available")


def _raw_array(value, bad: ValueError) -> np.ndarray:
    """``value`` as a NumPy array without conversion, or ``bad`` raised: strings are not arrays of
    characters, and ragged nestings are refused."""
    if isinstance(value, (str, bytes)):
        raise bad
    try:
        return np.asarray(value)
    except (TypeError, ValueError, OverflowError):  # ragged nesting and the like
        raise bad from None


def check_array(
    name: str,
    value,
    lo: float | None = None,
    hi: float | None = None,
    *,
    ndim: int = 1,
    min_size: int = 1,
) -> np.ndarray:
    """Return ``value`` as a float64 array of dimension ``ndim`` whose entries are finite real
    numbers in the range. Strings, complex numbers, bools and objects are refused, not converted."""
    rng = _describe_range(lo, hi, False, False)
    bad = ValueError(f"{name} must be an array of real numbers in {rng}; got {quote(value)}")
    raw = _raw_array(value, bad)
    if raw.dtype.kind == "O":  # Python ints beyond int64, or mixed objects
        if not all(isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_)) for x in raw.flat):
            raise bad
        try:
            arr = raw.astype(np.float64)
        except OverflowError:
            raise ValueError(f"{name} must hold finite numbers in {rng}; got non-finite entries") from None
    elif raw.dtype.kind in "iuf":
        arr = raw.astype(np.float64)
    else:  # b (bool), c (complex), U/S (strings), M/m (dates), V
        raise bad
    if arr.ndim != ndim or arr.size < min_size:
        raise ValueError(
            f"{name} must be a {ndim}-D array with at least {min_size} entries; got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite numbers in {rng}; got non-finite entries")
    if arr.size and ((lo is not None and arr.min() < lo) or (hi is not None and arr.max() > hi)):
        raise ValueError(f"{name} entries must be in {rng}; got min {arr.min():g}, max {arr.max():g}")
    return arr


def check_int_array(name: str, value, lo: int | None = None, hi: int | None = None, *, min_size: int = 1) -> np.ndarray:
    """Return ``value`` as a 1-D int64 array of at least ``min_size`` integers in ``[lo, hi]``.
    Floats (even whole ones), bools, strings and ragged nestings are refused, not converted."""
    rng = _describe_range(lo, hi, False, False)
    bad = ValueError(f"{name} must be a 1-D array of integers in {rng}; got {quote(value)}")
    raw = _raw_array(value, bad)
    if raw.dtype.kind not in "iu" or raw.ndim != 1 or raw.size < min_size:
        raise bad
    if raw.dtype.kind == "u" and raw.dtype.itemsize == 8 and raw.size and raw.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} entries must be in {rng}; got max {raw.max()}")
    arr = raw.astype(np.int64)
    if arr.size and ((lo is not None and arr.min() < lo) or (hi is not None and arr.max() > hi)):
        raise ValueError(f"{name} entries must be in {rng}; got min {arr.min()}, max {arr.max()}")
    return arr


def check_real_or_array(name: str, value, lo: float | None = None, hi: float | None = None):
    """A real number (returned as a float) or a 1-D array of them (a float64 array), in the range."""
    if isinstance(value, numbers.Real):
        return check_real(name, value, lo, hi)
    return check_array(name, value, lo, hi)
