"""Variants as data: load, merge (``inherits``) and validate ``data/variants/*.toml``.

A variant id is looked up among the known ones only: ``available_variants()``, the names of
the files in ``data/variants``. ``load_variant`` (and so every record's ``# variant:`` line,
``#KOMABOT-VARIANT:`` tag and the CLI's ``--variant``) refuses any other text, such as a path
(``../../x``) or a NUL, before a file name is ever made from it; an ``inherits`` key is held to
the same rule. ``read_variant_file`` reads a file by its path, for checking a file before it
is installed; never give it a path from a user.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.betza import MoveSpec, parse_betza
from rules.errors import RulesError, VariantFileError
from rules.numbers import shown

if TYPE_CHECKING:
    from rules.handicaps import Handicap, HandicapSpec
    from rules.tables import Tables

LANGUAGES = ("en", "ja", "romaji", "ru", "pl")  # the names the shipped variant files give
# a name in another language is welcome too: its key is the language's code (de, pt_BR)
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")


def data_dir() -> Path:
    """The folder holding ``variants/`` and ``fonts/`` (``$KOMABOT_DATA_DIR`` overrides)."""
    env = os.environ.get("KOMABOT_DATA_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True, eq=False)
class PieceType:
    """One kind of piece, promoted forms being kinds of their own."""

    kind: int
    letter: str  # SFEN letter, sente case: "P", promoted "+P"
    code: str  # Western code: "P", "SP", promoted "+SP"
    kanji: str  # what is written on the piece
    kanji_gote: str  # the same for gote (differs only for the Standard Shogi king)
    names: Mapping[str, str]
    betza: str
    moves: MoveSpec
    royal: bool
    promoted: bool
    promotes_to: int  # kind, 0 when it cannot promote
    base: int  # kind of the unpromoted form (itself when unpromoted)
    kanji_alternatives: tuple[str, ...] = ()  # other usual spellings (鶴玉 for 靏玉), read only

    @property
    def name(self) -> str:
        return self.names["en"]


@dataclass(frozen=True)
class DropRules:
    enabled: bool
    no_two_on_file: frozenset[int]  # nifu: kinds (unpromoted) that may not double on a file
    no_mate_by_drop: frozenset[int]  # uchifuzume: kinds that may not be dropped to mate


@dataclass(frozen=True)
class RepetitionRules:
    count: int
    perpetual_check_loses: bool


@dataclass(frozen=True)
class ImpasseRules:
    min_pieces_in_zone: int
    major_kinds: frozenset[int]  # unpromoted kinds; their promoted forms count the same
    major_points: int
    minor_points: int
    points_sente: int
    points_gote: int


@dataclass(frozen=True, eq=False)
class Variant:
    """Everything the rules need to know about a variant, read from its file."""

    id: str
    description: str
    names: Mapping[str, str]
    files: int
    ranks: int
    zone_depth: int
    start_sfen: str
    pieces: tuple[PieceType, ...]  # pieces[kind - 1]
    drops: DropRules
    repetition: RepetitionRules
    impasse: ImpasseRules | None
    source: Path = field(repr=False)
    # Optional ``[engine] piece_values``: hand-tuned values (centipawns) by kind for the
    # engine's evaluation; kinds not listed get values derived from their moves.
    piece_values: Mapping[int, int] = field(default_factory=dict, repr=False)
    # Optional ``[engine] hand_values``: the same for pieces in hand (unpromoted kinds, drop
    # variants only); kinds not listed are worth their board value and a little more.
    hand_values: Mapping[int, int] = field(default_factory=dict, repr=False)
    # Optional ``[engine] evaluation``: weights of the engine's evaluation terms by name (see
    # ``EVALUATION_WEIGHTS``); names not listed keep the engine's defaults.
    evaluation_weights: Mapping[str, float] = field(default_factory=dict, repr=False)
    # Optional ``[handicaps.ID]``: handicap games by id (rules/handicaps.py), in file order.
    handicaps: Mapping[str, Handicap] = field(default_factory=dict, repr=False)

    def piece(self, kind: int) -> PieceType:
        return self.pieces[kind - 1]

    @cached_property
    def by_letter(self) -> dict[str, PieceType]:
        """Pieces by SFEN letter in sente case, promoted ones as ``+X``."""
        return {p.letter: p for p in self.pieces}

    @cached_property
    def by_code(self) -> dict[str, PieceType]:
        """Pieces by Western code in upper case (``SP``, ``+SP``)."""
        return {p.code.upper(): p for p in self.pieces}

    @cached_property
    def royal_kind(self) -> int:
        return next(p.kind for p in self.pieces if p.royal)

    @cached_property
    def tables(self) -> Tables:
        from rules.tables import Tables

        return Tables(self)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by id when it is what ``load_variant`` gives for it (unpickled: that object
        again, tables built once a process), else by its fields, never with what it builds on
        first use (its tables may be compiled objects, which do not unpickle)."""
        try:
            if load_variant(self.id) is self:
                return load_variant, (self.id,)
        except RulesError:
            pass
        return _unpickled_variant, ({f.name: getattr(self, f.name) for f in fields(self)},)


def _unpickled_variant(state: dict[str, Any]) -> Variant:
    return Variant(**state)


# --- loading ---------------------------------------------------------------------------

_NAMES_SCHEMA: dict[str, tuple[type, bool]] = {lang: (str, lang == "en") for lang in LANGUAGES}


def _names_schema(raw: Any) -> dict[str, tuple[type, bool]]:
    """The schema of a ``names`` table: the shipped languages and any other language code."""
    if not isinstance(raw, dict):
        return _NAMES_SCHEMA
    extra: dict[str, tuple[type, bool]] = {
        k: (str, False) for k in raw if isinstance(k, str) and LANGUAGE_CODE.fullmatch(k)
    }
    return {**extra, **_NAMES_SCHEMA}


_SCHEMA: dict[str, dict[str, tuple[type, bool]]] = {
    "variant": {
        "id": (str, True),
        "inherits": (str, False),
        "description": (str, True),
        "files": (int, True),
        "ranks": (int, True),
        "zone_depth": (int, True),
        "start": (str, True),
        "names": (dict, True),
    },
    "drops": {
        "enabled": (bool, True),
        "no_two_on_file": (list, False),
        "no_mate_by_drop": (list, False),
    },
    "repetition": {"count": (int, True), "perpetual_check_loses": (bool, True)},
    "impasse": {
        "enabled": (bool, True),
        "min_pieces_in_zone": (int, False),
        "major_pieces": (list, False),
        "major_points": (int, False),
        "minor_points": (int, False),
        "points_sente": (int, False),
        "points_gote": (int, False),
    },
    "engine": {
        "piece_values": (dict, False),
        "hand_values": (dict, False),
        "evaluation": (dict, False),
    },
}
# The evaluation weights a variant file may set (``[engine.evaluation]``), with the range each
# must lie in; what they weigh is said in engine/weights.py.
EVALUATION_WEIGHTS: dict[str, tuple[float, float]] = {
    "tempo": (0, 200),
    "square_mobility": (0, 50),
    "ride_mobility": (0, 50),
    "king_advance": (0, 200),
    "defender": (0, 200),
    "attacker_share": (0, 1),
    "hand_danger": (0, 1),
    "open_to_drops": (0, 1),
    "zone_pressure_0": (0, 1),
    "zone_pressure_1": (0, 1),
    "zone_pressure_2": (0, 1),
}
_HANDICAP_SCHEMA: dict[str, tuple[type, bool]] = {"remove": (list, True), "names": (dict, True)}
_PIECE_SCHEMA: dict[str, tuple[type, bool]] = {
    "code": (str, True),
    "kanji": (str, True),
    "kanji_gote": (str, False),
    "kanji_alternatives": (list, False),
    "betza": (str, True),
    "royal": (bool, False),
    "names": (dict, True),
    "promoted": (dict, False),
}
_LIKE_KEYS = ("kanji", "kanji_alternatives", "betza", "names")  # what ``like`` copies
_PROMOTED_SCHEMA: dict[str, tuple[type, bool]] = {
    "like": (str, False),
    "code": (str, False),
    "kanji": (str, False),
    "kanji_alternatives": (list, False),
    "betza": (str, False),
    "names": (dict, False),
}


class _Reader:
    """Checks keys and types of one file and raises errors that name file and key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, problem: str) -> VariantFileError:
        return VariantFileError(
            f"{self.path}: key '{key}': {problem}", file=str(self.path), key=key
        )

    def table(self, raw: Any, key: str, schema: Mapping[str, tuple[type, bool]]) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail(key, f"expected a table, found {type(raw).__name__}")
        for name in raw:
            if name not in schema:
                allowed = ", ".join(sorted(schema))
                raise self.fail(f"{key}.{name}", f"unknown key (allowed: {allowed})")
        for name, (typ, required) in schema.items():
            if name not in raw:
                if required:
                    raise self.fail(f"{key}.{name}", "missing")
                continue
            value = raw[name]
            if (typ is int and isinstance(value, bool)) or not isinstance(value, typ):
                raise self.fail(
                    f"{key}.{name}", f"expected {typ.__name__}, found {type(value).__name__}"
                )
        return raw


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _raw(
    variant_id: str, directory: Path, seen: tuple[str, ...] = ()
) -> tuple[dict[str, Any], Path]:
    path = _known_file(variant_id, directory)
    if variant_id in seen:
        raise VariantFileError(f"{path}: key 'variant.inherits': inheritance cycle {seen}")
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except OSError as exc:
        raise VariantFileError(f"{path}: cannot be read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise VariantFileError(f"{path}: not valid TOML: {exc}") from None
    parent = raw.get("variant", {}).get("inherits")
    if parent is None:
        return raw, path
    if not isinstance(parent, str):
        raise _Reader(path).fail("variant.inherits", "expected a variant id")
    base, _ = _raw(parent, directory, (*seen, variant_id))
    base["variant"].pop("id", None)
    return _merge(base, raw), path


def available_variants(directory: Path | None = None) -> list[str]:
    """Ids of every variant file in the data folder, sorted: the only ids ever loaded."""
    folder = directory if directory is not None else data_dir() / "variants"
    return sorted(p.stem for p in folder.glob("*.toml"))


def load_every_variant() -> list[Variant]:
    """Every known variant loaded, its tables built: what a long-lived process does at start
    so that no request pays for it (about 0.1 s)."""
    variants = [load_variant(variant_id) for variant_id in available_variants()]
    for variant in variants:
        variant.tables  # noqa: B018 (built on first use)
    return variants


def _known_file(variant_id: str, directory: Path) -> Path:
    """The file of ``variant_id`` when it is one of ``directory``'s variants; else an error
    listing the known ids (no path is made from unknown text)."""
    known = available_variants(directory)
    if variant_id not in known:
        raise VariantFileError(
            f"unknown variant {shown(str(variant_id))} (known: {', '.join(known) or 'none'})",
            code="unknown_variant",
            known=known,
        )
    return directory / f"{variant_id}.toml"


@cache
def load_variant(variant_id: str) -> Variant:
    """Load (once) and validate the variant ``variant_id``, one of ``available_variants()``;
    any other text is refused with VariantFileError (code ``unknown_variant``)."""
    return _read(variant_id, data_dir() / "variants")


def read_variant_file(path: Path) -> Variant:
    """Load and validate the variant file at ``path`` (no cache), any parent it inherits from
    the same folder: for checking a variant file. Never give it a path from a user; user text
    names a variant through ``load_variant``."""
    return _read(path.stem, path.parent)


def _read(variant_id: str, directory: Path) -> Variant:
    """Load and validate ``variant_id``, one of the variants in ``directory``."""
    raw, path = _raw(variant_id, directory)
    raw.get("variant", {}).pop("inherits", None)
    rd = _Reader(path)
    for section in raw:
        if section not in (*_SCHEMA, "pieces", "handicaps"):
            allowed = ", ".join([*_SCHEMA, "pieces", "handicaps"])
            raise rd.fail(section, f"unknown section (allowed: {allowed})")
    v = rd.table(raw.get("variant"), "variant", _SCHEMA["variant"])
    if v["id"] != variant_id:
        raise rd.fail("variant.id", f"is {v['id']!r} but the file is named {variant_id!r}")
    names = rd.table(v["names"], "variant.names", _names_schema(v["names"]))
    files, ranks, depth = v["files"], v["ranks"], v["zone_depth"]
    if not 3 <= files <= 19:
        raise rd.fail("variant.files", "must be between 3 and 19")
    if not 3 <= ranks <= 19:
        raise rd.fail("variant.ranks", "must be between 3 and 19")
    if not 1 <= depth <= ranks // 2:
        raise rd.fail("variant.zone_depth", f"must be between 1 and {ranks // 2}")

    pieces = _read_pieces(rd, raw.get("pieces"))
    letters = {p.letter: p for p in pieces}

    def kinds(key: str, items: list[Any]) -> frozenset[int]:
        out = set()
        for item in items:
            piece = letters.get(item) if isinstance(item, str) else None
            if piece is None or piece.promoted:
                raise rd.fail(key, f"{item!r} is not an unpromoted piece letter")
            out.add(piece.kind)
        return frozenset(out)

    d = rd.table(raw.get("drops"), "drops", _SCHEMA["drops"])
    drops = DropRules(
        d["enabled"],
        kinds("drops.no_two_on_file", d.get("no_two_on_file", [])),
        kinds("drops.no_mate_by_drop", d.get("no_mate_by_drop", [])),
    )
    r = rd.table(raw.get("repetition"), "repetition", _SCHEMA["repetition"])
    if r["count"] < 2:
        raise rd.fail("repetition.count", "must be at least 2")
    repetition = RepetitionRules(r["count"], r["perpetual_check_loses"])
    i = rd.table(raw.get("impasse"), "impasse", _SCHEMA["impasse"])
    impasse = None
    if i["enabled"]:
        for key in _SCHEMA["impasse"]:
            if key not in i:
                raise rd.fail(f"impasse.{key}", "missing (needed when enabled)")
        impasse = ImpasseRules(
            i["min_pieces_in_zone"],
            kinds("impasse.major_pieces", i["major_pieces"]),
            i["major_points"],
            i["minor_points"],
            i["points_sente"],
            i["points_gote"],
        )
    piece_values, hand_values, weights = _read_engine(rd, raw.get("engine"), letters)
    variant = Variant(
        id=variant_id,
        description=v["description"],
        names=names,
        files=files,
        ranks=ranks,
        zone_depth=depth,
        start_sfen=v["start"],
        pieces=tuple(pieces),
        drops=drops,
        repetition=repetition,
        impasse=impasse,
        source=path,
        piece_values=piece_values,
        hand_values=hand_values,
        evaluation_weights=weights,
    )
    from rules.handicaps import build_handicap
    from rules.position import Position

    try:
        Position.from_sfen(variant, variant.start_sfen)
    except RulesError as exc:
        raise rd.fail("variant.start", exc.message) from None
    handicaps = {}
    for spec in _read_handicap_specs(rd, raw.get("handicaps")):
        try:
            handicaps[spec.id] = build_handicap(variant, spec)
        except RulesError as exc:
            raise rd.fail(f"handicaps.{spec.id}.remove", exc.message) from None
    return replace(variant, handicaps=handicaps) if handicaps else variant


def _read_handicap_specs(rd: _Reader, raw: Any) -> list[HandicapSpec]:
    """The optional ``[handicaps.ID]`` tables: ``remove`` (squares of gote's pieces, in USI)
    and ``names`` (in every language, English required)."""
    from rules.handicaps import HandicapSpec

    if raw is None:
        return []
    if not isinstance(raw, dict):
        raise rd.fail("handicaps", "expected a table of handicaps")
    specs = []
    for handicap_id, spec in raw.items():
        key = f"handicaps.{handicap_id}"
        rd.table(spec, key, _HANDICAP_SCHEMA)
        names = rd.table(spec["names"], f"{key}.names", _NAMES_SCHEMA)
        remove = spec["remove"]
        if not all(isinstance(sq, str) for sq in remove):
            raise rd.fail(f"{key}.remove", 'expected a list of squares like "1a"')
        specs.append(HandicapSpec(handicap_id, tuple(remove), dict(names)))
    return specs


def _read_engine(
    rd: _Reader, raw: Any, letters: Mapping[str, PieceType]
) -> tuple[dict[int, int], dict[int, int], dict[str, float]]:
    """The optional ``[engine]`` section: ``piece_values = { P = 90, "+P" = 540, ... }``, a
    positive whole number of centipawns per (promoted or unpromoted) piece letter, royal
    pieces excepted; ``hand_values`` the same for unpromoted pieces in hand (unused where
    drops are off, as in a variant inheriting a drop variant's file without its drops);
    ``evaluation = { tempo = 10, ... }``, numbers within ``EVALUATION_WEIGHTS``'s ranges.
    Absent: empty (the engine derives every value from the moves and keeps its default
    weights)."""
    if raw is None:
        return {}, {}, {}
    section = rd.table(raw, "engine", _SCHEMA["engine"])
    board = _read_values(rd, section.get("piece_values", {}), "piece_values", letters)
    hand_letters = section.get("hand_values", {})
    hand = _read_values(rd, hand_letters, "hand_values", letters)
    for letter in hand_letters:
        piece = letters[letter]
        key = f"engine.hand_values.{letter}"
        if piece.promoted:
            raise rd.fail(key, "a piece in hand is never promoted")
    weights: dict[str, float] = {}
    for name, value in section.get("evaluation", {}).items():
        key = f"engine.evaluation.{name}"
        if name not in EVALUATION_WEIGHTS:
            raise rd.fail(key, f"unknown weight (known: {', '.join(EVALUATION_WEIGHTS)})")
        low, high = EVALUATION_WEIGHTS[name]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise rd.fail(key, f"expected a number from {low:g} to {high:g}, found {value!r}")
        if not low <= value <= high:  # NaN fails too
            raise rd.fail(key, f"expected a number from {low:g} to {high:g}, found {value!r}")
        weights[name] = float(value)
    return board, hand, weights


def _read_values(
    rd: _Reader, values: dict[str, Any], table: str, letters: Mapping[str, PieceType]
) -> dict[int, int]:
    """Centipawns by piece letter (``engine.piece_values`` or ``engine.hand_values``)."""
    out: dict[int, int] = {}
    for letter, value in values.items():
        key = f"engine.{table}.{letter}"
        piece = letters.get(letter)
        if piece is None:
            raise rd.fail(key, 'not a piece letter of this variant (write promoted ones "+P")')
        if piece.royal:
            raise rd.fail(key, "a royal piece has no value: it is never captured")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
            raise rd.fail(key, f"expected a whole number from 1 to 100000, found {value!r}")
        out[piece.kind] = value
    return out


def _read_pieces(rd: _Reader, raw: Any) -> list[PieceType]:
    if not isinstance(raw, dict) or not raw:
        raise rd.fail("pieces", "expected a table of pieces")
    base_specs: dict[str, dict[str, Any]] = {}
    for letter, spec in raw.items():
        key = f"pieces.{letter}"
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            raise rd.fail(key, "a piece key is one upper-case letter (its SFEN letter)")
        base_specs[letter] = rd.table(spec, key, _PIECE_SCHEMA)
        rd.table(spec["names"], f"{key}.names", _names_schema(spec["names"]))
    royal = [letter for letter, spec in base_specs.items() if spec.get("royal")]
    if len(royal) != 1:
        raise rd.fail("pieces", f"exactly one piece must be royal, found {len(royal)}")

    rows: list[dict[str, Any]] = []
    for letter, spec in base_specs.items():
        rows.append({"letter": letter, "key": f"pieces.{letter}", **spec})
        promo = spec.get("promoted")
        if promo is None:
            continue
        key = f"pieces.{letter}.promoted"
        rd.table(promo, key, _PROMOTED_SCHEMA)
        if spec.get("royal"):
            raise rd.fail(key, "a royal piece cannot promote")
        merged: dict[str, Any] = {}
        like = promo.get("like")
        if like is not None:
            if like not in base_specs:
                raise rd.fail(f"{key}.like", f"no piece {like!r} in this variant")
            merged = {k: base_specs[like][k] for k in _LIKE_KEYS if k in base_specs[like]}
        merged.update({k: promo[k] for k in _LIKE_KEYS if k in promo})
        for k in ("kanji", "betza", "names"):
            if k not in merged:
                raise rd.fail(f"{key}.{k}", "missing (give it, or 'like' another piece)")
        rd.table(merged["names"], f"{key}.names", _names_schema(merged["names"]))
        code = promo.get("code", "+" + spec["code"])
        rows.append(
            {"letter": "+" + letter, "key": key, **merged, "code": code, "promoted_from": letter}
        )

    kind_of = {row["letter"]: n for n, row in enumerate(rows, start=1)}
    codes: set[str] = set()
    pieces = []
    for n, row in enumerate(rows, start=1):
        key = row["key"]
        code = row["code"].upper()
        if code in codes or not code.lstrip("+").isalpha():
            raise rd.fail(f"{key}.code", f"{row['code']!r} is not a unique letter code")
        codes.add(code)
        if not row["kanji"]:
            raise rd.fail(f"{key}.kanji", "empty")
        try:
            moves = parse_betza(row["betza"])
        except RulesError as exc:
            raise rd.fail(f"{key}.betza", exc.message) from None
        letter = row["letter"]
        promoted = "promoted_from" in row
        pieces.append(
            PieceType(
                kind=n,
                letter=letter,
                code=row["code"],
                kanji=row["kanji"],
                kanji_gote=row.get("kanji_gote", row["kanji"]),
                names=dict(row["names"]),
                betza=row["betza"],
                moves=moves,
                royal=bool(row.get("royal", False)),
                promoted=promoted,
                promotes_to=0 if promoted else kind_of.get("+" + letter, 0),
                base=kind_of[row["promoted_from"]] if promoted else n,
                kanji_alternatives=tuple(row.get("kanji_alternatives", ())),
            )
        )
    _check_kanji_alternatives(rd, rows, pieces)
    return pieces


def _check_kanji_alternatives(
    rd: _Reader, rows: list[dict[str, Any]], pieces: list[PieceType]
) -> None:
    """Every other spelling is a non-empty string that names one kanji only: not the piece's
    own kanji, nor any other piece's kanji or other spelling (unless the pieces share a kanji,
    as a promoted rabbit shares the Treacherous Fox's)."""
    main = {p.kanji for p in pieces}
    owner: dict[str, str] = {}
    for row, piece in zip(rows, pieces, strict=True):
        key = f"{row['key']}.kanji_alternatives"
        for spelling in piece.kanji_alternatives:
            if not isinstance(spelling, str) or not spelling.strip():
                raise rd.fail(key, f"{spelling!r} is not a non-empty string")
            if spelling in main:
                raise rd.fail(key, f"{spelling!r} is already the kanji of a piece")
            if owner.setdefault(spelling, piece.kanji) != piece.kanji:
                raise rd.fail(key, f"{spelling!r} is also another spelling of {owner[spelling]}")
        if len(set(piece.kanji_alternatives)) != len(piece.kanji_alternatives):
            raise rd.fail(key, "lists a spelling twice")
