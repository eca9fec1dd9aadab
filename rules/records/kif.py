"""KIF (Kakinoki) records: ``.kifu`` (UTF-8, every variant) and ``.kif`` (Shift-JIS, shogi).

Written: a ``#KOMABOT-VARIANT: <id>`` comment line naming the variant (KIF readers skip ``#``
lines), the usual headers (開始日時, 終了日時, 棋戦, 場所, 先手, 後手), the start as
``手合割：平手`` (Standard Shogi), ``手合割：和将棋`` (Wa), or a board diagram (BOD) for any
other position; then one move a line, ``   1 ７六歩(77)``, drops ``５五角打``, ``同　``,
promotions ``成``, and the end of the game.

A handicap game (駒落ち) is written as KIF programs write it: ``手合割：飛車落ち`` (the
variant's Japanese name of the handicap) and no diagram, the players as ``下手：`` (the taker,
sente) and ``上手：`` (the giver, gote), and the moves numbered from 1, move 1 being 上手's; the
summary names the winner 下手 or 上手 (``まで52手で上手の勝ち``). cshogi, python-shogi,
tsshogi and json-kifu-format all know these names and start the game with 上手 to move.

A declined promotion is written without 不成 (``２三銀(34)``): the origin square already says
which piece moved, and KIF move lines never carry 不成 (only KI2 does); cshogi, tsshogi and
json-kifu-format drop or refuse a line that does. Both forms are read.

The end is a special move line, a comment where needed, and the summary ``まで52手で...`` in the
words cshogi, python-shogi, tsshogi and json-kifu-format accept: 投了 / 詰み / 切れ負け with
``まで52手で後手の勝ち``; 入玉勝ち with ``...先手の勝ち`` (json-kifu-format refuses
``先手の入玉勝ち``); 千日手, 持将棋 and 中断 with the same word; 反則勝ち or 反則負け (for the
side to move) with ``後手の反則勝ち`` / ``先手の反則負け``, plus ``*連続王手の千日手`` for a
perpetual check; a draw by agreement is the special move ``引き分け`` with no summary (no reader
knows it; json-kifu-format refuses ``まで33手で引き分け``, and 中断 would read as unfinished).
Special moves speak of the side to move, so a resignation (or time-out) by the player who just
moved cannot be one (see ``record.told_by_turn``): it is written ``中断``, a comment
``*後手番で先手が投了`` and the summary naming the winner, which cshogi and python-shogi take it
from. Last comes ``#KOMABOT-RESULT: <termination> <winner>``, which Komabot's reader prefers.

Read: KIF and KI2 (``▲７六歩　△３四歩`` or ``▼76歩 ▽34歩``, no origins), headers with ``：`` or
``:``, 手合割 as 平手, a handicap of the variant, one of ``OTHER_KIF_HANDICAPS`` or その他 (any
other name is refused with the names known), 上手 / 下手 for 後手 / 先手, board diagrams (a
hand of 残り全部 takes the rest of the set), every ending above, a sealed move (封じ手: the
game is unfinished), a tsume record's ``まで7手詰``, and fouls: a perpetual check when the
record says 連続王手, otherwise an illegal move.

Wa: squares ``１１十一`` (full-width file, kanji rank), origins as four digits ``(0709)``, and
the Wa piece names; a promoted piece that shares its kanji with another piece is written
成 + its unpromoted name (成走兎), so every game reads back exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice

from rules.errors import AmbiguousMoveError, RulesError
from rules.move import Move
from rules.notation.japanese import read_japanese
from rules.notation.names import piece_names
from rules.notation.numerals import normalize
from rules.notation.printing import Printer
from rules.notation.resolve import resolve
from rules.notation.squares import japanese_square, kif_origin
from rules.numbers import MAX_MOVE_NUMBER, read_number
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.records.bod import (
    REST,
    board_sfen,
    read_board_row,
    read_hand,
    rest_to_hand,
    write_bod,
)
from rules.records.record import (
    RESULT_TAG,
    GameRecord,
    RecordError,
    at_line,
    loser_to_move,
    read_result_words,
    result_words,
    same_start,
    told_by_turn,
)
from rules.records.time_control import kif_time_control, read_kif_time_control
from rules.tables import GOTE, SENTE
from rules.variant import Variant, load_variant

VARIANT_TAG = "#KOMABOT-VARIANT:"
KI2_MARKS = "▲△☗☖▼▽"
DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
SIDE_NAMES = ("先手", "後手")
HANDICAP_SIDE_NAMES = ("下手", "上手")
"""A handicap game's sides: the taker (sente) and the giver (gote, who moves first)."""
# Handicaps KIF programs name that no variant file lists (a reader meets them in files from
# elsewhere); the usual ones are the variant's ``[handicaps.ID]``, by their Japanese names.
OTHER_KIF_HANDICAPS = {
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
EVEN_NAMES = {"shogi": "平手", "wa": "和将棋", "wa-drops": "和将棋"}

# --- writing ---------------------------------------------------------------------------


def kif_move(printer: Printer, move: Move) -> str:
    """``７六歩(77)``, ``同　銀成(34)``, ``５五角打``; a declined promotion is ``２三銀(34)``."""
    pos = printer.pos
    v = pos.variant
    last = pos.last_move
    square = (
        "同　" if last is not None and last.to_sq == move.to_sq else japanese_square(v, move.to_sq)
    )
    name = piece_names(v).japanese[printer.kind(move)]
    if move.is_drop:
        return f"{square}{name}打"
    return f"{square}{name}{'成' if move.promote else ''}({kif_origin(v, move.from_sq)})"


# The special-move word and the summary (after まで52手で) for a result that the side to move's
# word can state; ``{winner}`` / ``{loser}`` are 先手 or 後手.
_IN_TURN = {
    Termination.RESIGNATION: ("投了", "{winner}の勝ち"),
    Termination.CHECKMATE: ("詰み", "{winner}の勝ち"),
    Termination.NO_LEGAL_MOVES: ("詰み", "{winner}の勝ち"),
    Termination.TIMEOUT: ("切れ負け", "{winner}の勝ち"),
    Termination.REPETITION: ("千日手", "千日手"),
    Termination.ABORTED: ("中断", "中断"),
}
# What happened, for the comment of a result no word can state (the loser just moved).
_OUT_OF_TURN = {
    Termination.RESIGNATION: "{loser}が投了",
    Termination.TIMEOUT: "{loser}の時間切れ",
    Termination.CHECKMATE: "{loser}の詰み",
    Termination.NO_LEGAL_MOVES: "{loser}の指し手なし",
    Termination.IMPASSE: "{winner}の入玉宣言",
}
PERPETUAL_COMMENT = "連続王手の千日手"


def _end_lines(record: GameRecord, pos: Position, side_names: tuple[str, str]) -> list[str]:
    """The special move, comments and summary that close the game (see the module notes);
    ``side_names``: 先手 and 後手, or 下手 and 上手 in a handicap game."""
    result = record.result
    if result is None:
        return []
    n = len(record.moves)
    term, winner = result.termination, result.winner
    sides = {"winner": side_names[winner] if winner is not None else ""}
    sides["loser"] = side_names[winner ^ 1] if winner is not None else ""
    comments: list[str] = []
    summary: str | None
    if not told_by_turn(result, pos.side):
        word, summary = "中断", "{winner}の勝ち"
        comments.append(f"{side_names[pos.side]}番で{_OUT_OF_TURN[term]}")
    elif term in _IN_TURN:
        word, summary = _IN_TURN[term]
    elif term is Termination.IMPASSE:
        word, summary = (
            ("入玉勝ち", "{winner}の勝ち") if winner is not None else ("持将棋", "持将棋")
        )
    elif term is Termination.AGREED_DRAW:
        word, summary = "引き分け", None
        comments.append("合意による引き分け")
    else:  # PERPETUAL_CHECK, ILLEGAL_MOVE
        loser_moves = loser_to_move(result, pos.side)
        word = "反則負け" if loser_moves else "反則勝ち"
        summary = "{loser}の反則負け" if loser_moves else "{winner}の反則勝ち"
        if term is Termination.PERPETUAL_CHECK:
            comments.append(PERPETUAL_COMMENT)
    lines = [f"{n + 1:>4} {word}", *(f"*{c.format(**sides)}" for c in comments)]
    if summary is not None:
        lines.append(f"まで{n}手で{summary.format(**sides)}")
    return [*lines, f"#{RESULT_TAG} {result_words(result)}"]


def write_kif(
    record: GameRecord,
    encoding: str = "UTF-8",
    comments: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """The KIF text of ``record`` (lines joined with CRLF, as KIF files are).

    ``comments``: lines written as ``*`` comments after move ``ply`` (0: before the first
    move), which KIF readers show beside the move; each line is kept on one line."""
    notes = comments or {}
    variant = load_variant(record.variant)
    pos = record.start_position()
    lines = [f"#KIF version=2.0 encoding={encoding}", f"{VARIANT_TAG} {variant.id}"]
    if record.started:
        lines.append("開始日時：" + record.started.strftime(DATE_FORMAT))
    if record.ended:
        lines.append("終了日時：" + record.ended.strftime(DATE_FORMAT))
    if record.event:
        lines.append("棋戦：" + _one_line(record.event))
    if record.site:
        lines.append("場所：" + _one_line(record.site))
    if record.time_control:
        lines.append("持ち時間：" + kif_time_control(record.time_control))
    start = pos.sfen()
    sides = SIDE_NAMES
    if same_start(start, variant.start_sfen):
        lines.append("手合割：" + EVEN_NAMES.get(variant.id, variant.names["ja"]))
    else:
        handicap = next(
            (name for name, sfen in kif_handicaps(variant).items() if same_start(sfen, start)),
            None,
        )
        if handicap:
            lines.append("手合割：" + handicap)
            sides = HANDICAP_SIDE_NAMES
        else:
            lines += write_bod(pos)
    lines.append(f"{sides[SENTE]}：" + _one_line(record.sente))
    lines.append(f"{sides[GOTE]}：" + _one_line(record.gote))
    lines.append("手数----指手---------消費時間--")
    lines += _comment_lines(notes.get(0, ()))
    for ply, text in enumerate(record.moves, start=1):
        move = pos.parse_usi(text)
        lines.append(f"{ply:>4} {kif_move(Printer(pos), move)}")
        lines += _comment_lines(notes.get(ply, ()))
        pos.make_unchecked(move)
    lines += _end_lines(record, pos, sides)
    return "\r\n".join(lines) + "\r\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _comment_lines(texts: Sequence[str]) -> list[str]:
    return [f"*{_one_line(text)}" for text in texts if text.strip()]


# --- reading ---------------------------------------------------------------------------

# Digits are ASCII [0-9] (``\d`` would also take ٣ and ９); ``rules.numbers`` reads them.
_TIME = re.compile(r"\s*\([0-9 ]*:[0-9:/ ]*\)\s*\+?\s*$")
_MOVE_LINE = re.compile(r"^([0-9]+)\s+(\S.*?)\s*\+?$")
# A header ``key：value`` (or ``key:value``); never a move line, which starts with its number
# or a ▲ mark and may hold a time like ( 0:01/00:00:01).
_HEADER = re.compile(rf"^([^0-9\s:：{KI2_MARKS}][^:：]*?)\s*[：:]\s*(.*)$")
_SUMMARY = re.compile(r"^まで、?\s*([0-9０-９]+)\s*手(?:で)?\s*(.*)$")
_WIDE_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_TSUME = re.compile(r"^([0-9]+)手(詰み?)$")  # a tsume record's ``7手詰``
_NAMED = re.compile(r"(先手|後手|下手|上手)の(.*)$")
_SPECIAL = {
    "投了",
    "詰み",
    "詰",
    "切れ負け",
    "時間切れ",
    "千日手",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "入玉宣言",
    "持将棋",
    "中断",
    "引き分け",
    "封じ手",
    "不詰",
}
_HEADER_KEYS = {
    "開始日時": "started",
    "終了日時": "ended",
    "棋戦": "event",
    "場所": "site",
    "持ち時間": "time_control",
    "先手": "sente",
    "下手": "sente",
    "後手": "gote",
    "上手": "gote",
}
_SIDES = {"先手": SENTE, "下手": SENTE, "後手": GOTE, "上手": GOTE}


def looks_like_kif(text: str) -> bool:
    keys = ("手数----", "手合割", "先手：", "後手：", "まで", "▲", "☗", "▼", VARIANT_TAG)
    return any(k in text for k in keys) or bool(re.search(r"^\s*1\s+\S*[一-龯]", text, re.M))


@dataclass
class _Ending:
    """How the record says the game ended, gathered while reading."""

    special: str = ""  # the special move: 投了, 詰み, 千日手, ...
    special_named: int | None = None  # the side a special move names (先手の反則負け)
    summary: tuple[str, int] | None = None  # the text after まで52手(で), and its line
    counted: int | None = None  # the number of moves the summary says (52)
    comments: list[str] = field(default_factory=list)  # comments after the last move
    tag: Outcome | None = None  # #KOMABOT-RESULT:

    @property
    def perpetual(self) -> bool:
        said = [*self.comments, self.summary[0] if self.summary else ""]
        return any("連続王手" in text for text in said)


@dataclass
class _KifReader:
    """State while reading KIF or KI2 lines, top to bottom."""

    variant: Variant
    start: str
    hands: list[list[int]]
    fields: dict[str, str] = field(default_factory=dict)
    rows: list[list[int]] = field(default_factory=list)
    side: int = SENTE
    in_board: bool = False
    board_seen: bool = False
    pos: Position | None = None
    moves: list[str] = field(default_factory=list)
    first_number: int | None = None
    rest_to: int | None = None  # the side whose hand is 残り全部
    end: _Ending = field(default_factory=_Ending)

    def read(self, no: int, line: str) -> bool:
        """Take one stripped line; False when the rest of the file is not the game."""
        if line.startswith("#"):
            if line.startswith("#" + RESULT_TAG):
                self.end.tag = read_result_words(line[len(RESULT_TAG) + 1 :], no)
            return True
        if line.startswith("*"):
            self.end.comments.append(line[1:])
            return True
        if line.startswith("&"):
            return True
        if line.startswith("変化：") or line.startswith("変化:"):
            return False  # variations are not read
        if line.startswith("+") and line.endswith("+") and "-" in line:
            self.in_board = not self.in_board
            self.board_seen = True
            return True
        if self.in_board:
            if "|" not in line:
                raise RecordError(f"line {no}: expected a board row like |v香v桂 ・...|一", line=no)
            self.rows.append(read_board_row(self.variant, line, no))
            return True
        if self.pos is None and line in ("後手番", "上手番", "先手番", "下手番"):
            self.side = GOTE if line in ("後手番", "上手番") else SENTE
            return True
        if self._summary(no, line):
            return True
        header = _HEADER.match(line)
        if header:
            self._header(no, header.group(1), header.group(2).strip())
            return True
        if line.startswith("手数") or re.fullmatch(r"[0-9０-９]+(?:\s+[0-9０-９]+)+", line):
            return True  # the column numbers over a board diagram
        if re.fullmatch(r"[0-9]+", line):
            raise RecordError(
                f"line {no}: move {line} has no move after its number (expected a move like "
                f"'{line} ７六歩(77)' or an ending like '{line} 投了')",
                line=no,
            )
        return self._moves(no, line)

    def _summary(self, no: int, line: str) -> bool:
        m = _SUMMARY.match(line) or _TSUME.match(line)
        if m:
            self.end.summary = (m.group(2).strip(), no)
            self.end.counted = read_number(
                m.group(1).translate(_WIDE_DIGITS),
                "the number of moves",
                0,
                MAX_MOVE_NUMBER,
                at_line(no),
            )
            return True
        return False

    def _header(self, no: int, key: str, value: str) -> None:
        if key in ("先手の持駒", "下手の持駒"):
            self.hands[SENTE] = read_hand(self.variant, value, no)
        elif key in ("後手の持駒", "上手の持駒"):
            self.rest_to = GOTE if value == REST else self.rest_to
            self.hands[GOTE] = read_hand(self.variant, "" if value == REST else value, no)
        elif key == "手合割":
            self.start = _start_from_name(self.variant, value, no, self.start)
            # a diagram after a handicap's name without a turn line: the giver moves first
            self.side = GOTE if self.start.split()[1] == "w" else SENTE
        elif key in _HEADER_KEYS:
            self.fields[_HEADER_KEYS[key]] = value

    def position(self) -> Position:
        """The position before the next move (the start, from the diagram if there is one)."""
        if self.pos is None:
            if self.board_seen:
                if len(self.rows) != self.variant.ranks:
                    raise RecordError(
                        f"the board diagram has {len(self.rows)} rows, "
                        f"{self.variant.names['en']} has {self.variant.ranks}"
                    )
                if self.rest_to is not None:
                    board = [v for row in self.rows for v in row]
                    rest_to_hand(self.variant, board, self.hands, self.rest_to)
                self.start = board_sfen(self.variant, self.rows, self.hands, self.side)
            self.pos = _start_position(self.variant, self.start)
        return self.pos

    def _moves(self, no: int, line: str) -> bool:
        ki2 = line[0] in KI2_MARKS
        m = None if ki2 else _MOVE_LINE.match(_TIME.sub("", line))
        if m is None and not ki2:
            raise RecordError(
                f"line {no}: cannot read {line!r} (expected a move like '   1 ７六歩(77)', a "
                "header like '先手：name' or an ending like 'まで52手で後手の勝ち')",
                line=no,
            )
        pos = self.position()
        if self.end.special:
            return False  # moves after the end of the game (a variation) are not read
        if m is None:  # KI2: ▲７六歩　△３四歩 ..., no numbers or origins
            for token in re.split(f"(?=[{KI2_MARKS}])", line):
                body = "".join(token.split())
                if body:
                    self._push(pos, _read_ki2_move(pos, body, no, len(self.moves) + 1))
            return True
        number = read_number(m.group(1), "the move number", 1, MAX_MOVE_NUMBER, at_line(no))
        body = "".join(m.group(2).split()).lstrip(KI2_MARKS)
        named = _NAMED.fullmatch(body)
        if named and named.group(2) in _SPECIAL:  # a foul named for its side: 先手の反則負け
            body = named.group(2)
            side = _SIDES[named.group(1)]
            self.end.special_named = side ^ 1 if body.endswith("負け") else side
        if body in _SPECIAL:
            self.end.special = body
            self.end.comments.clear()
            return True
        if self.first_number is None:
            self.first_number = number  # a game from a diagram may go on counting from there
        expected = self.first_number + len(self.moves)
        if number != expected:
            raise RecordError(f"line {no}: move number {number}, expected {expected}", line=no)
        self._push(pos, _read_move(pos, body, no, number))
        return True

    def _push(self, pos: Position, move: Move) -> None:
        self.moves.append(pos.usi(move))
        pos.make_unchecked(move)
        self.end.comments.clear()


def read_kif(text: str) -> GameRecord:
    """A validated record from KIF or KI2 text; RecordError names the line and the problem."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    variant = load_variant(_variant_of(lines))
    hands = [[0] * (len(variant.pieces) + 1) for _ in range(2)]
    reader = _KifReader(variant, variant.start_sfen, hands)
    for no, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line and not reader.read(no, line):
            break
    pos = reader.position()
    fields = reader.fields
    notes = []
    counted, played = reader.end.counted, len(reader.moves)
    if counted is not None and counted != played + (reader.first_number or 1) - 1:
        notes.append(f"the record's ending counts {counted} moves, but it holds {played} moves")
    return GameRecord(
        variant=variant.id,
        start_sfen=reader.start,
        moves=tuple(reader.moves),
        sente=fields.get("sente", ""),
        gote=fields.get("gote", ""),
        result=_result(pos, reader.end),
        started=_date(fields.get("started")),
        ended=_date(fields.get("ended")),
        event=fields.get("event", ""),
        site=fields.get("site", ""),
        time_control=read_kif_time_control(fields.get("time_control", "")),
        notes=tuple(notes),
    )


def _variant_of(lines: list[str]) -> str:
    for no, line in enumerate(lines, start=1):
        if line.startswith(VARIANT_TAG):
            name = line[len(VARIANT_TAG) :].strip()
            try:
                return load_variant(name).id
            except RulesError as exc:
                raise RecordError(
                    f"line {no}: {VARIANT_TAG} {exc.message}", code=exc.code, line=no
                ) from None
    wa = any("和将棋" in line for line in lines if "手合割" in line) or any(
        _wider_than_nine(line) for line in lines
    )
    if not wa:
        return "shogi"
    return "wa-drops" if any("打" in line for line in lines) else "wa"


def _wider_than_nine(line: str) -> bool:
    """Is ``line`` a diagram row of more than 9 cells (a Wa board)? Stops at the tenth."""
    if line.count("|") != 2:
        return False
    cells = re.finditer(r"[v ]\S", line.split("|")[1])
    return next(islice(cells, 9, None), None) is not None


def kif_handicaps(variant: Variant) -> dict[str, str]:
    """The handicaps KIF can name for ``variant``: start SFEN by 手合割 name (香落ち, ...)."""
    named = {h.names["ja"]: h.sfen for h in variant.handicaps.values() if "ja" in h.names}
    return {**named, **OTHER_KIF_HANDICAPS} if variant.id == "shogi" else named


def _start_from_name(variant: Variant, name: str, no: int, current: str) -> str:
    even = EVEN_NAMES.get(variant.id, variant.names["ja"])
    if name in (even, "平手", variant.names["ja"]):
        return variant.start_sfen
    handicaps = kif_handicaps(variant)
    if name in handicaps:
        return handicaps[name]
    if name == "その他":
        return current
    known = "、".join([even, *handicaps, "その他"])
    raise RecordError(
        f"line {no}: unknown 手合割 {name!r} for {variant.names['en']} (known: {known}; "
        "その他 takes the board diagram)",
        line=no,
    )


def _start_position(variant: Variant, sfen: str) -> Position:
    try:
        return Position.from_sfen(variant, sfen)
    except RulesError as exc:
        raise RecordError(f"the start position is not valid: {exc.message}") from None


def _read_ki2_move(pos: Position, token: str, no: int, number: int) -> Move:
    mover = SENTE if token[0] in "▲☗▼" else GOTE
    if mover != pos.side:
        raise RecordError(
            f"line {no}: move {number} {token!r} is marked as {SIDE_NAMES[mover]}'s, but it is "
            f"{SIDE_NAMES[pos.side]}'s turn",
            code="bad_record_move",
            line=no,
        )
    return _read_move(pos, token[1:], no, number)


def _read_move(pos: Position, body: str, no: int, number: int) -> Move:
    try:
        last = pos.last_move
        q = read_japanese(pos.variant, normalize(body), last.to_sq if last else None)
        try:
            return resolve(pos, q)
        except AmbiguousMoveError as exc:
            if exc.code != "promotion_choice":
                raise
            # a record writes 成 when a piece promotes: no word means it did not
            candidates: list[Move] = exc.params["candidates"]
            return next(m for m in candidates if not m.promote)
    except RulesError as exc:
        raise RecordError(
            f"line {no}: move {number} {body!r}: {exc.message}", code="bad_record_move", line=no
        ) from None


_DRAWS = {
    "千日手": Termination.REPETITION,
    "持将棋": Termination.IMPASSE,
    "引き分け": Termination.AGREED_DRAW,
}
_UNFINISHED = {"封じ手", "不詰"}  # adjourned (a sealed move), or a tsume record without mate
_MOVER_WINS = {"反則勝ち", "入玉勝ち", "入玉宣言"}  # words that say the side to move won
_FOULS = {"反則勝ち", "反則負け", "反則"}


def _result(pos: Position, end: _Ending) -> Outcome | None:
    """The outcome the record states (Komabot's own tag first), None while unfinished."""
    if end.tag is not None:
        return end.tag
    named, said = _read_summary(*end.summary) if end.summary else (None, "")
    named = named if named is not None else end.special_named
    word = "切れ負け" if end.special == "時間切れ" else end.special or said
    if (not word and named is None) or word in _UNFINISHED:
        return None
    if word == "中断":  # the summary may say more: a winner (Komabot's out-of-turn form)
        if named is not None:
            timeout = any("時間切れ" in c for c in end.comments)
            return Outcome(Termination.TIMEOUT if timeout else Termination.RESIGNATION, named)
        draw = _DRAWS.get(said)
        return Outcome(draw or Termination.ABORTED, None)
    if word in _DRAWS:
        return Outcome(_DRAWS[word], None)
    by_word = pos.side if word in _MOVER_WINS else pos.side ^ 1
    winner = named if named is not None else by_word
    if word in _FOULS:
        term = Termination.PERPETUAL_CHECK if end.perpetual else Termination.ILLEGAL_MOVE
        return Outcome(term, winner)
    if word in ("入玉勝ち", "入玉宣言"):
        return Outcome(Termination.IMPASSE, winner)
    if word == "切れ負け":
        return Outcome(Termination.TIMEOUT, winner)
    if word in ("詰み", "詰") or not pos.legal_moves():
        mated = pos.is_check() or bool(pos.legal_moves())
        return Outcome(Termination.CHECKMATE if mated else Termination.NO_LEGAL_MOVES, winner)
    return Outcome(Termination.RESIGNATION, winner)  # 投了, or a summary naming the winner


def _read_summary(text: str, no: int) -> tuple[int | None, str]:
    """The winner a summary names (or None) and its word: ``後手の勝ち`` -> (GOTE, "")."""
    if text in _SPECIAL:
        return None, text
    timeout = "時間切れ" in text
    m = _NAMED.search(text)
    outcome = m.group(2) if m else ""
    if not m or not outcome.endswith(("勝ち", "負け")):
        raise RecordError(
            f"line {no}: cannot read the ending 'まで..手で{text}' (expected, after まで52手で, "
            "先手の勝ち, 後手の反則勝ち, 先手の反則負け, 千日手, 持将棋, 中断, 封じ手 or 詰み)",
            line=no,
        )
    side = _SIDES[m.group(1)]
    winner = side if outcome.endswith("勝ち") else side ^ 1
    if timeout:
        return winner, "切れ負け"
    if outcome.startswith("反則"):
        return winner, "反則"
    return winner, "入玉勝ち" if outcome.startswith("入玉") else ""


def _date(text: str | None) -> datetime | None:
    if not text:
        return None
    for fmt in (
        DATE_FORMAT,
        "%Y/%m/%d %H:%M",
        "%Y/%m/%d",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
    ):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None
