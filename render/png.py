"""A PNG writer for palette images that compresses horizontal bands on their own and can reuse
a band's compressed bytes when the same band comes back (most of a board does not change from
one move to the next).

Bands are deflated by zlib-ng (the ``zlib-ng`` package: the same deflate format and zlib's
API, about twice as fast at the same level, measured by bench/render.py), and so are the
checksums (the same Adler-32 and CRC-32 values as zlib's, 5-10 times faster on a band of 60
KB).  Each band is deflated with a full flush, which ends it on a byte boundary, so separately
compressed bands join into one valid zlib stream; the Adler-32 of the whole is combined from
the bands' own.  Decoders see an ordinary 8-bit palette PNG.

Each band but the first has the row just above it as a preset dictionary: the decoder holds
that row in its window when it gets there, so the band's rows can match it from the start
instead of spelling out a first row of wood grain (~200 bytes a rank of squares, boards ~5%
smaller, measured; the whole band above gains hardly more, and would tie each band's bytes
to the band before).  A band's compressed bytes depend on that row as well as its own.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence

from PIL import Image
from zlib_ng import zlib_ng

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ADLER_BASE = 65521
_END = zlib.compressobj(0, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)  # an empty final block

Band = tuple[int, int, Hashable | None]  # first row, end row (exclusive), key (None: no reuse)
Compressed = tuple[bytes, int, int]  # deflated rows, Adler-32 and length of the filtered rows


def adler32_combine(a1: int, a2: int, len2: int) -> int:
    """The Adler-32 of ``A + B`` from that of ``A`` (``a1``), of ``B`` (``a2``) and ``len(B)``."""
    rem = len2 % ADLER_BASE
    s1 = ((a1 & 0xFFFF) + (a2 & 0xFFFF) - 1) % ADLER_BASE
    s2 = ((a1 >> 16) + (a2 >> 16) + rem * (a1 & 0xFFFF) - rem) % ADLER_BASE
    return s1 | (s2 << 16)


class BandCache:
    """Compressed bands by key, least recently used dropped first once they hold more than
    ``max_bytes`` (their compressed bytes); safe across threads.  Counts the bands found
    (``hits``) and those that had to be drawn and compressed (``misses``)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._bands: OrderedDict[Hashable, Compressed] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def lookup(self, bands: Sequence[Band]) -> dict[Hashable, Compressed]:
        """The compressed bands held for the keys of ``bands`` (a snapshot: what later calls
        drop from the cache stays usable here)."""
        out: dict[Hashable, Compressed] = {}
        with self._lock:
            for _, _, key in bands:
                if key is None:
                    continue
                found = self._bands.get(key)
                if found is None:
                    self.misses += 1
                else:
                    self.hits += 1
                    self._bands.move_to_end(key)
                    out[key] = found
        return out

    def put(self, key: Hashable, value: Compressed) -> None:
        with self._lock:
            old = self._bands.pop(key, None)
            if old is not None:
                self.bytes -= len(old[0])
            self._bands[key] = value
            self.bytes += len(value[0])
            while self.bytes > self.max_bytes and len(self._bands) > 1:
                _, (dropped, _, _) = self._bands.popitem(last=False)
                self.bytes -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self.bytes = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._bands)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib_ng.crc32(data, zlib_ng.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def filtered_rows(part: Image.Image) -> bytes:
    """The rows of the palette image ``part``, each after its filter byte: type 0 (None).
    Cropping one column more on the left, which Pillow fills with index 0, makes those bytes
    in C.  Palette indices do not gain from the other filters (measured on boards: Sub, Up,
    Average, Paeth or the best per row make them 20-30% larger, the palette in its order or
    sorted by lightness)."""
    return part.crop((-1, 0, part.width, part.height)).tobytes()


def _deflate_band(filtered: bytes, level: int, above: bytes) -> Compressed:
    """Filtered rows deflated and flushed, with the filtered row ``above`` them (if any) as
    the dictionary: the compressed bytes, the Adler-32 and length of what was compressed."""
    if above:
        comp = zlib_ng.compressobj(level, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, above)
    else:
        comp = zlib_ng.compressobj(level, zlib.DEFLATED, -15, 9)
    data = comp.compress(filtered) + comp.flush(zlib.Z_FULL_FLUSH)
    return data, zlib_ng.adler32(filtered), len(filtered)


def encode_png(
    img: Image.Image,
    bands: Sequence[Band],
    level: int,
    cache: BandCache | None = None,
    found: Mapping[Hashable, Compressed] | None = None,
    drawn: Mapping[int, bytes] | None = None,
    levels: Mapping[int, int] | None = None,
) -> bytes:
    """The palette image ``img`` as an 8-bit palette PNG, a band at a time.

    ``bands`` cover the rows in order.  A band whose key is in ``found`` (see
    ``BandCache.lookup``) is not looked at: its compressed bytes are used; any other band with
    a key is compressed and stored in ``cache``.  A key must stand for the pixels of the
    band and of the row just above it (its dictionary) exactly: the caller guarantees it, and
    may leave found bands undrawn in ``img`` except for their last row.  ``drawn`` holds
    bands the caller has in palette indices already, by first row, with the row above (if
    any), each row after its filter byte 0 (as ``filtered_rows`` makes them): those rows of
    ``img`` are not looked at.  ``levels``: the deflate level of bands by first row, where it
    is not ``level``."""
    if img.mode != "P":
        raise ValueError(f"encode_png takes a palette image, not {img.mode}")
    width, height = img.size
    found = found or {}
    drawn = drawn or {}
    parts = [b"\x78\x9c"]
    adler, row = 1, 0
    for start, end, key in bands:
        if start != row or end <= start or end > height:
            raise ValueError(f"bands must cover rows 0..{height} in order, not {start}..{end}")
        row = end
        band = found.get(key) if key is not None else None
        if band is None:
            filtered = drawn.get(start)
            if filtered is None:
                filtered = filtered_rows(img.crop((0, max(0, start - 1), width, end)))
            above = width + 1 if start else 0
            effort = levels.get(start, level) if levels else level
            band = _deflate_band(filtered[above:], effort, filtered[:above])
            if cache is not None and key is not None:
                cache.put(key, band)
        data, band_adler, length = band
        parts.append(data)
        adler = adler32_combine(adler, band_adler, length)
    if row != height:
        raise ValueError(f"bands end at row {row}, not {height}")
    parts.append(_END)
    parts.append(struct.pack(">I", adler))
    colors = (img.getpalette() or [0, 0, 0])[: 256 * 3]
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", ihdr),
            _chunk(b"PLTE", bytes(colors[: len(colors) // 3 * 3])),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )
