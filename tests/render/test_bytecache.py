"""The byte-bounded cache of drawn texts (render.bytecache)."""

from __future__ import annotations

import gc
import threading

from render import fonts
from render.bytecache import ByteBoundedCache


def test_keeps_results_until_their_bytes_pass_the_bound_least_recent_first() -> None:
    calls: list[int] = []

    def blob(n: int) -> bytes:
        calls.append(n)
        return bytes(n)

    cache = ByteBoundedCache(blob, max_bytes=100, size_of=len)
    assert cache(40) == bytes(40) and cache(40) == bytes(40)
    assert calls == [40] and cache.hits == 1 and cache.misses == 1
    cache(50)
    cache(40)  # now the most recently used
    cache(30)  # 120 bytes: 50, the least recently used, goes
    assert len(cache) == 2 and cache.bytes == 70
    cache(40)
    cache(50)
    assert calls == [40, 50, 30, 50]
    cache(500)  # larger than the bound on its own: kept alone, the others go
    assert len(cache) == 1 and cache.bytes == 500
    cache.cache_clear()
    assert len(cache) == 0 and cache.bytes == 0


def test_keyword_arguments_are_part_of_the_key() -> None:
    cache = ByteBoundedCache(lambda a, b=0: (a, b), max_bytes=10, size_of=lambda _: 1)
    assert cache(1, b=2) == (1, 2)
    assert cache(1) == (1, 0)
    assert len(cache) == 2


def test_threads_share_it_safely() -> None:
    cache = ByteBoundedCache(lambda n: bytes(n % 50), max_bytes=400, size_of=len)
    errors: list[BaseException] = []

    def hammer(seed: int) -> None:
        try:
            for i in range(2000):
                n = (i * 7 + seed) % 97
                assert cache(n) == bytes(n % 50)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert cache.bytes == sum(len(bytes(k[0] % 50)) for k in cache._results)
    assert cache.bytes <= 400


def test_drawn_texts_are_held_by_their_pixels() -> None:
    """A board's texts go through the cache as plain values (nothing for the garbage
    collector to walk): drawing the same name again draws nothing new, and the cache counts
    the mask's pixels."""
    fonts._text_mask.cache_clear()
    first = fonts._text_mask("Hanako", fonts.Face.LABEL, 20, "lm", 0.0, 0.5)
    again = fonts._text_mask("Hanako", fonts.Face.LABEL, 20, "lm", 0.0, 0.5)
    assert again is first
    pixels, (width, height), _ = first
    assert len(pixels) == width * height and max(pixels) == 255  # ink, fully covered somewhere
    gc.collect()  # a tuple of plain values is left alone once collections have seen it
    gc.collect()  # (and the tuples inside it first)
    assert not gc.is_tracked(first)
    assert fonts._text_mask.bytes == width * height + fonts._ENTRY_OVERHEAD
    assert fonts.TEXT_CACHE_BYTES // fonts._text_mask.bytes > 1000  # thousands of names fit
