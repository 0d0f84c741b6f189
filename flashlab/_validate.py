"""Input validation shared by every layer.

Every public constructor and function checks its inputs with these helpers, so bad input
raises a ``ValueError`` that names the parameter, the value given and the allowed range,
before any numba kernel sees it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np


def _describe_range(lo, hi, lo_open: bool, hi_open: bool) -> str:
    left = "(" if lo_open else "["
    right = ")" if hi_open else "]"
    lo_s = "-inf" if lo is None else f"{lo:g}"
    hi_s = "inf" if hi is None else f"{hi:g}"
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
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number in {rng}; got {value!r} ({type(value).__name__})")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number in {rng}; got {value!r}")
    if lo is not None and (v < lo or (lo_open and v == lo)):
        raise ValueError(f"{name} must be in {rng}; got {value!r}")
    if hi is not None and (v > hi or (hi_open and v == hi)):
        raise ValueError(f"{name} must be in {rng}; got {value!r}")
    return v


def check_int(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int if it is an integer in ``[lo, hi]`` (``None``: unbounded)."""
    rng = _describe_range(lo, hi, False, False)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in {rng}; got {value!r} ({type(value).__name__})")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{name} must be in {rng}; got {value!r}")
    return v


def check_choice(name: str, value, choices: Iterable) -> object:
    """Return ``value`` if it is one of ``choices``; otherwise raise naming the allowed values."""
    options = tuple(choices)
    try:
        ok = value in options
    except TypeError:
        ok = False
    if not ok:
        allowed = ", ".join(repr(c) for c in options)
        raise ValueError(f"{name} must be one of {allowed}; got {value!r}")
    return value


def check_seed(name: str, value) -> int:
    """A seed is a non-negative integer below 2**63 (what NumPy and numba accept)."""
    return check_int(name, value, 0, 2**63 - 1)


def check_array(
    name: str,
    value,
    lo: float | None = None,
    hi: float | None = None,
    *,
    ndim: int = 1,
    min_size: int = 1,
) -> np.ndarray:
    """Return ``value`` as a float64 array of dimension ``ndim`` whose finite entries lie in the range."""
    rng = _describe_range(lo, hi, False, False)
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of real numbers in {rng}; got {value!r}") from None
    if arr.ndim != ndim or arr.size < min_size:
        raise ValueError(
            f"{name} must be a {ndim}-D array with at least {min_size} entries; got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite numbers in {rng}; got non-finite entries")
    if (lo is not None and arr.min() < lo) or (hi is not None and arr.max() > hi):
        raise ValueError(f"{name} entries must be in {rng}; got min {arr.min():g}, max {arr.max():g}")
    return arr
