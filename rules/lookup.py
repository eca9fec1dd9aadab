"""Find pieces by any of their names: kanji, romaji, English, Russian, SFEN letter, Western code."""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from functools import cache

from rules.errors import RulesError
from rules.variant import PieceType, available_variants, load_variant


class UnknownPieceError(RulesError):
    """No piece has the name asked for; ``params['candidates']`` lists the closest names."""

    code = "unknown_piece"


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
    names = [*piece.names.values(), piece.kanji, piece.kanji_gote, piece.letter, piece.code]
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
    """Pieces named ``query``, best first; ``variant_ids`` are searched first and win if they
    have any match.  Small typos are forgiven; an unknown name raises ``UnknownPieceError``."""
    key = normalize(query)
    preferred, others = _order(variant_ids)
    if not key:
        raise UnknownPieceError(
            "Give a piece name, kanji, letter or code.", query=query, candidates=[]
        )
    for group in (preferred, others):  # the asked-for variants first, in every way
        found = _search(key, group) or _close(key, group) or _part_of_one_name(key, group)
        if found:
            return found
    candidates = _candidates(key, preferred + others)
    hint = f" Did you mean: {', '.join(candidates)}?" if candidates else ""
    raise UnknownPieceError(
        f"No piece is called {query.strip()!r}.{hint}", query=query, candidates=candidates
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


def _part_of_one_name(key: str, variant_ids: list[str]) -> list[PieceMatch]:
    """Pieces whose name contains ``key`` when they all are one piece and its promotion."""
    if len(key) < 4:
        return []
    found: list[PieceMatch] = []
    for vid in variant_ids:
        for k, entries in _index(vid).items():
            if key in k:
                for piece, name in entries:
                    if not any(_same(m.piece, piece) for m in found):
                        found.append(PieceMatch(vid, piece, name))
    bases = {(m.variant_id, m.piece.base) for m in found}
    same_variants = {m.variant_id for m in found}
    if len(bases) != len(same_variants) or len(same_variants) != 1:
        return []
    return sorted(found, key=lambda m: m.piece.promoted)
