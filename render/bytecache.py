"""A least-recently-used cache of a function's results bounded by the bytes they hold, not by
their number: for results whose sizes differ by orders of magnitude (drawn texts, from "Bob"
to a long caption), where a count either wastes memory or holds too few."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class ByteBoundedCache(Generic[P, R]):
    """``fn`` with its results kept by arguments (which must be hashable), least recently used
    dropped first once they hold more than ``max_bytes`` as ``size_of`` counts them; safe
    across threads (two threads missing the same key may both compute it: both results are
    equal, one is kept)."""

    def __init__(self, fn: Callable[P, R], max_bytes: int, size_of: Callable[[R], int]) -> None:
        self.fn = fn
        self.max_bytes = max_bytes
        self.size_of = size_of
        self._results: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = self.misses = 0

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            found = self._results.get(key)
            if found is not None:
                self._results.move_to_end(key)
                self.hits += 1
                return found[0]
            self.misses += 1
        result = self.fn(*args, **kwargs)  # outside the lock: other threads go on meanwhile
        size = self.size_of(result)
        with self._lock:
            if key not in self._results:
                self._results[key] = (result, size)
                self.bytes += size
            while self.bytes > self.max_bytes and len(self._results) > 1:
                _, (_, dropped) = self._results.popitem(last=False)
                self.bytes -= dropped
        return result

    def cache_clear(self) -> None:
        with self._lock:
            self._results.clear()
            self.bytes = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._results)


def byte_bounded_cache(
    max_bytes: int, size_of: Callable[[R], int]
) -> Callable[[Callable[P, R]], ByteBoundedCache[P, R]]:
    """Decorator form of :class:`ByteBoundedCache`."""

    def wrap(fn: Callable[P, R]) -> ByteBoundedCache[P, R]:
        return ByteBoundedCache(fn, max_bytes, size_of)

    return wrap
