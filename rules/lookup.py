"""Find pieces by any of their names: kanji (and its other usual spellings), romaji, English,
Russian, SFEN letter, Western code; or by one word of a name ("fox", "狐")."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from rules.errors import RulesError
from rules.variant import PieceType, available_variants, load_variant

LONGEST_QUERY = 100  # longer than any piece's name in any language
_WORD_BREAK = re.compile(r"[\s\-‐‑–'’]+")  # spaces, hyphens and apostrophes end a word


class UnknownPieceError(RulesError):
    """No piece has the name asked for; ``params['candidates']`` lists the closest names."""

    code = "unknown_piece"


class AmbiguousPieceError(RulesError):
    """The name asked for is a word of several pieces' names; ``params['candidates']`` lists
    those names (a choice to make, not a guess)."""

    code = "ambiguous_piece"


@dataclass(frozen=True)
class PieceMatch:
    variant_id: str
    piece: PieceType
    matched: str  # the name that matched


def normalize(text: str) -> str:
    """Case-folded, without accents, macrons, apostrophes, hyphens or spaces; ё as е."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    kept = unicodedata.normalize("NFC", kept).replace("ё", "е")
    return "".join(c for c in kept if c.isalnum() or c == "+")


def _names(piece: PieceType, base: PieceType) -> list[str]:
    names = [*_word_names(piece), piece.kanji_gote, piece.letter, piece.code]
    if piece.promoted:
        names += [f"promoted {base.names['en']}", f"+{base.code}", f"+{base.letter}"]
    return names


@cache
def _index(variant_id: str) -> dict[str, list[tuple[PieceType, str]]]:
    """Normalised name -> pieces of ``variant_id`` carrying it (with the name as written)."""
    variant = load_variant(variant_id)
    out: dict[str, list[tuple[PieceType, str]]] = {}
    for piece in variant.pieces:
        for name in _names(piece, variant.piece(piece.base)):
            key = normalize(name)
            if key and all(p is not piece for p, _ in out.get(key, [])):
                out.setdefault(key, []).append((piece, name))
    return out


def _same(a: PieceType, b: PieceType) -> bool:
    return (a.letter, a.code, a.kanji, a.betza) == (b.letter, b.code, b.kanji, b.betza)


def _search(key: str, variant_ids: list[str]) -> list[PieceMatch]:
    found: list[PieceMatch] = []
    for vid in variant_ids:
        for piece, name in _index(vid).get(key, []):
            if not any(_same(m.piece, piece) for m in found):
                found.append(PieceMatch(vid, piece, name))
    # unpromoted pieces first: "Treacherous Fox" is the fox before the promoted rabbit
    return sorted(found, key=lambda m: m.piece.promoted)


def _order(variant_ids: list[str] | None) -> tuple[list[str], list[str]]:
    every = available_variants()
    preferred = [v for v in (variant_ids or []) if v in every]
    for vid in variant_ids or []:
        load_variant(vid)  # an unknown variant id raises its own clear error
    return preferred, [v for v in every if v not in preferred]


def find_piece(query: str, variant_ids: list[str] | None = None) -> list[PieceMatch]:
    """Pieces named ``query``, best first; ``variant_ids`` are searched first, and the others
    only when those have no match.  In each group: an exact name; else a word of exactly one
    piece's name ("fox": the Treacherous Fox); else a name within a small typo.  Raises
    ``AmbiguousPieceError`` when a word belongs to several pieces, ``UnknownPieceError`` when
    nothing fits."""
    preferred, others = _order(variant_ids)
    if len(query) > LONGEST_QUERY:  # no name is that long: nothing to compare, nor to echo
        shown = query.strip()[:LONGEST_QUERY] + "…"
        raise UnknownPieceError(
            f"No piece is called {shown!r}.",
            reason="no_close_name",
            query=shown,
            candidates=[],
        )
    key = normalize(query)
    if not key:
        raise UnknownPieceError(
            "Give a piece name, kanji, letter or code.",
            code="unknown_piece",
            reason="piece_name_missing",
            query=query,
            candidates=[],
        )
    for group in (preferred, others):  # the asked-for variants first, in every way
        found = _search(key, group) or _by_word(query, group) or _close(key, group)
        if found:
            return found
    candidates = _candidates(key, preferred + others)
    hint = f" Did you mean: {', '.join(candidates)}?" if candidates else ""
    raise UnknownPieceError(
        f"No piece is called {query.strip()!r}.{hint}",
        reason="close_names" if candidates else "no_close_name",
        query=query.strip(),
        candidates=candidates,
    )


def _close(key: str, variant_ids: list[str]) -> list[PieceMatch]:
    """Pieces of a name within a small typo of ``key``."""
    if len(key) < 3:
        return []
    keys = [k for vid in variant_ids for k in _index(vid)]
    for guess in difflib.get_close_matches(key, keys, n=3, cutoff=0.8):
        found = _search(guess, variant_ids)
        if found:
            return found
    return []


def _candidates(key: str, variant_ids: list[str]) -> list[str]:
    written: dict[str, tuple[str, PieceType]] = {}
    for vid in variant_ids:
        for k, entries in _index(vid).items():
            name, piece = entries[0][1], entries[0][0]
            if len(k) >= 3 and not name.startswith(("+", "promoted ")):
                written.setdefault(k, (name, piece))
    close = difflib.get_close_matches(key, list(written), n=8, cutoff=0.5)
    if not close:
        close = [k for k in written if key in k or (len(k) >= 4 and k in key)]
    if not close:
        close = difflib.get_close_matches(key, list(written), n=3, cutoff=0.3)
    out: list[str] = []
    seen: list[PieceType] = []
    for k in close:
        name, piece = written[k]
        if name not in out and not any(_same(piece, p) for p in seen):
            out.append(name)
            seen.append(piece)
    return out[:5]


def words(text: str) -> tuple[str, ...]:
    """The words of a name, normalised: split at spaces, hyphens and apostrophes; every kanji
    (or kana) is a word of its own.  ``Swallow's Wings`` -> ``("swallow", "s", "wings")``."""
    out: list[str] = []
    for chunk in _WORD_BREAK.split(text):
        pieces = list(chunk) if _is_cjk(chunk) else [chunk]
        out += [w for w in (normalize(p) for p in pieces) if w]
    return tuple(out)


def _is_cjk(text: str) -> bool:
    return any(ord(c) >= 0x2E80 for c in text)


def _contains(whole: tuple[str, ...], part: tuple[str, ...]) -> bool:
    n = len(part)
    return any(whole[i : i + n] == part for i in range(len(whole) - n + 1))


def _word_names(piece: PieceType) -> list[str]:
    """The names whose words count (not letters, codes or "promoted X")."""
    return [*piece.names.values(), piece.kanji, *piece.kanji_alternatives]


def _family(variant_id: str, piece: PieceType) -> PieceType:
    """The unpromoted piece a name stands for: a promoted piece that borrows another piece's
    names (a promoted owl is a Cloud Eagle) belongs to that piece, any other promoted piece to
    its own unpromoted form."""
    if not piece.promoted:
        return piece
    variant = load_variant(variant_id)
    borrowed = (p for p in variant.pieces if not p.promoted and p.names == piece.names)
    return next(borrowed, variant.piece(piece.base))


def _by_word(query: str, variant_ids: list[str]) -> list[PieceMatch]:
    """Pieces with ``query`` as a whole word (or run of words) of a name, when they all are one
    piece, its promotion or pieces named like it; several such pieces raise
    ``AmbiguousPieceError`` listing their names."""
    asked = words(query)
    if not asked or (len(asked) == 1 and len(asked[0]) < 2 and not _is_cjk(asked[0])):
        return []
    found: list[PieceMatch] = []
    for vid in variant_ids:
        for piece in load_variant(vid).pieces:
            name = next((n for n in _word_names(piece) if _contains(words(n), asked)), None)
            if name is not None and not any(_same(m.piece, piece) for m in found):
                found.append(PieceMatch(vid, piece, name))
    families: list[PieceType] = []
    for m in found:
        family = _family(m.variant_id, m.piece)
        if not any(_same(family, f) for f in families):
            families.append(family)
    if len(families) > 1:
        names = list(dict.fromkeys(m.matched for m in found))
        raise AmbiguousPieceError(
            f"{query.strip()!r} is part of several pieces' names: {', '.join(names)}. Which one?",
            query=query,
            candidates=names,
        )
    return sorted(found, key=lambda m: m.piece.promoted)
