"""KIF (Kakinoki) records: ``.kifu`` (UTF-8, every variant) and ``.kif`` (Shift-JIS, shogi).
KI2 records (``▲７六歩　△３四歩``, no origins) are read too.

Written: a ``#KOMABOT-VARIANT: <id>`` comment line naming the variant (KIF readers skip ``#``
lines), the usual headers (開始日時, 終了日時, 棋戦, 場所, 先手, 後手), the start as
``手合割：平手`` (Standard Shogi), ``手合割：和将棋`` (Wa), a named handicap plus its board
diagram, or a board diagram (BOD) for any other position; then one move a line,
``   1 ７六歩(77)``, drops ``５五角打``, ``同　``, 成 / 不成, and the end of the game.

Wa: squares ``１１十一`` (full-width file, kanji rank), origins as four digits ``(0709)``, and
the Wa piece names; a promoted piece that shares its kanji with another piece is written
成 + its unpromoted name (成走兎), so every game reads back exactly.
"""

from __future__ import annotations

import re
from datetime import datetime

from rules.errors import AmbiguousMoveError, RulesError
from rules.move import Move
from rules.notation.japanese import read_japanese
from rules.notation.names import piece_names
from rules.notation.numerals import normalize
from rules.notation.printing import Printer
from rules.notation.resolve import resolve
from rules.notation.squares import japanese_square, kif_origin
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.records.bod import board_sfen, read_board_row, read_hand, write_bod
from rules.records.record import GameRecord, RecordError, same_start
from rules.tables import GOTE, SENTE
from rules.variant import Variant, load_variant

VARIANT_TAG = "#KOMABOT-VARIANT:"
KI2_MARKS = "▲△☗☖"
DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
SIDE_NAMES = ("先手", "後手")
# Standard Shogi handicaps by their KIF names (gote, the stronger side, moves first).
HANDICAPS = {
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛香落ち": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
EVEN_NAMES = {"shogi": "平手", "wa": "和将棋", "wa-drops": "和将棋"}

# --- writing ---------------------------------------------------------------------------


def kif_move(printer: Printer, move: Move) -> str:
    """``７六歩(77)``, ``同　銀成(34)``, ``５五角打``, ``２三銀不成(34)``."""
    pos = printer.pos
    v = pos.variant
    last = pos.last_move
    square = (
        "同　" if last is not None and last.to_sq == move.to_sq else japanese_square(v, move.to_sq)
    )
    name = piece_names(v).japanese[printer.kind(move)]
    if move.is_drop:
        return f"{square}{name}打"
    suffix = "成" if move.promote else ("不成" if printer.could_promote_instead(move) else "")
    return f"{square}{name}{suffix}({kif_origin(v, move.from_sq)})"


def _end_lines(record: GameRecord, pos: Position) -> list[str]:
    result = record.result
    if result is None:
        return []
    n = len(record.moves)
    ply = f"{n + 1:>4} "
    term, winner = result.termination, result.winner
    side_to_move = pos.side
    who = SIDE_NAMES[winner] if winner is not None else ""
    loser = SIDE_NAMES[winner ^ 1] if winner is not None else ""
    if term is Termination.RESIGNATION:
        return [ply + "投了", f"まで{n}手で{who}の勝ち"]
    if term in (Termination.CHECKMATE, Termination.NO_LEGAL_MOVES):
        return [ply + "詰み", f"まで{n}手で{who}の勝ち"]
    if term is Termination.TIMEOUT:
        return [ply + "切れ負け", f"まで{n}手で{who}の勝ち"]
    if term is Termination.REPETITION:
        return [ply + "千日手", f"まで{n}手で千日手"]
    if term is Termination.PERPETUAL_CHECK:
        word = "反則勝ち" if winner == side_to_move else "反則負け"
        summary = f"{who}の反則勝ち" if word == "反則勝ち" else f"{loser}の反則負け"
        return [ply + word, "*連続王手の千日手", f"まで{n}手で{summary}"]
    if term is Termination.IMPASSE:
        if winner is None:
            return [ply + "持将棋", f"まで{n}手で持将棋"]
        return [ply + "入玉勝ち", f"まで{n}手で{who}の入玉勝ち"]
    if term is Termination.AGREED_DRAW:
        return [ply + "中断", "*合意による引き分け", f"まで{n}手で引き分け"]
    return [ply + "中断", f"まで{n}手で中断"]  # ABORTED


def write_kif(record: GameRecord, encoding: str = "UTF-8") -> str:
    """The KIF text of ``record`` (lines joined with CRLF, as KIF files are)."""
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
    if same_start(pos.sfen(), variant.start_sfen):
        lines.append("手合割：" + EVEN_NAMES.get(variant.id, variant.names["ja"]))
    else:
        handicap = next(
            (
                name
                for name, sfen in HANDICAPS.items()
                if variant.id == "shogi" and same_start(pos.sfen(), sfen)
            ),
            None,
        )
        if handicap:
            lines.append("手合割：" + handicap)
        lines += write_bod(pos)
    lines.append("先手：" + _one_line(record.sente))
    lines.append("後手：" + _one_line(record.gote))
    lines.append("手数----指手---------消費時間--")
    for ply, text in enumerate(record.moves, start=1):
        move = pos.parse_usi(text)
        lines.append(f"{ply:>4} {kif_move(Printer(pos), move)}")
        pos.make_unchecked(move)
    lines += _end_lines(record, pos)
    return "\r\n".join(lines) + "\r\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- reading ---------------------------------------------------------------------------

_TIME = re.compile(r"\s*\([\d ]*:[\d:/ ]*\)\s*\+?\s*$")
_MOVE_LINE = re.compile(r"^(\d+)\s+(\S.*?)\s*\+?$")
_SUMMARY = re.compile(r"^まで(\d+)手で(?:(先手|後手|下手|上手)の)?(.+)$")
_SPECIAL = {
    "投了",
    "詰み",
    "切れ負け",
    "千日手",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "入玉宣言",
    "持将棋",
    "中断",
}
_HEADER_KEYS = {
    "開始日時": "started",
    "終了日時": "ended",
    "棋戦": "event",
    "場所": "site",
    "先手": "sente",
    "下手": "sente",
    "後手": "gote",
    "上手": "gote",
}


def looks_like_kif(text: str) -> bool:
    keys = ("手数----", "手合割", "先手：", "後手：", "まで", "▲", "☗", VARIANT_TAG)
    return any(k in text for k in keys) or bool(re.search(r"^\s*1\s+\S*[一-龯]", text, re.M))


def read_kif(text: str) -> GameRecord:
    """A validated record from KIF text; RecordError names the line and the problem."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    variant_id = _variant_of(lines)
    variant = load_variant(variant_id)
    fields: dict[str, str] = {}
    start = variant.start_sfen
    rows: list[list[int]] = []
    hands = [[0] * (len(variant.pieces) + 1) for _ in range(2)]
    side = SENTE
    in_board = False
    board_seen = False
    pos: Position | None = None
    moves: list[str] = []
    special: tuple[str, int] | None = None
    first_number: int | None = None
    summary: tuple[str | None, str] | None = None
    for no, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line[0] in "#*&":
            continue
        if line.startswith("変化："):
            break  # variations are not read
        if line.startswith("+") and line.endswith("+") and "-" in line:
            in_board = not in_board
            board_seen = True
            continue
        if in_board:
            if "|" not in line:
                raise RecordError(f"line {no}: expected a board row like |v香v桂 ・...|一", line=no)
            rows.append(read_board_row(variant, line, no))
            continue
        if pos is None and (line in ("後手番", "上手番") or line in ("先手番", "下手番")):
            side = GOTE if line in ("後手番", "上手番") else SENTE
            continue
        if "：" in line:
            key, _, value = line.partition("：")
            key, value = key.strip(), value.strip()
            if key in ("先手の持駒", "下手の持駒"):
                hands[SENTE] = read_hand(variant, value, no)
            elif key in ("後手の持駒", "上手の持駒"):
                hands[GOTE] = read_hand(variant, value, no)
            elif key == "手合割":
                start = _start_from_name(variant, value, no, start)
            elif key in _HEADER_KEYS:
                fields[_HEADER_KEYS[key]] = value
            continue
        if line.startswith("手数") or re.fullmatch(r"[\d\s０-９]+", line):
            continue
        m = _SUMMARY.match(line)
        if m:
            summary = (m.group(2), m.group(3))
            continue
        ki2 = line[0] in KI2_MARKS
        m = None if ki2 else _MOVE_LINE.match(_TIME.sub("", line))
        if m is None and not ki2:
            raise RecordError(
                f"line {no}: cannot read {line!r} (expected a move like ７六歩(77))", line=no
            )
        if pos is None:
            if board_seen:
                if len(rows) != variant.ranks:
                    raise RecordError(
                        f"the board diagram has {len(rows)} rows, "
                        f"{variant.names['en']} has {variant.ranks}"
                    )
                start = board_sfen(variant, rows, hands, side)
            pos = _start_position(variant, start)
        if special is not None:
            break  # moves after the end of the game (a variation) are not read
        if m is None:  # KI2: ▲７六歩　△３四歩 ..., no numbers or origins
            for token in re.split(f"(?=[{KI2_MARKS}])", line):
                body = "".join(token.split())
                if body:
                    move = _read_ki2_move(pos, body, no, len(moves) + 1)
                    moves.append(pos.usi(move))
                    pos.make_unchecked(move)
            continue
        number, body = int(m.group(1)), "".join(m.group(2).split())
        if body in _SPECIAL:
            special = (body, no)
            continue
        if first_number is None:
            first_number = number  # a game from a diagram may go on counting from there
        if number != first_number + len(moves):
            raise RecordError(
                f"line {no}: move number {number}, expected {first_number + len(moves)}",
                line=no,
            )
        move = _read_move(pos, body, no, number)
        moves.append(pos.usi(move))
        pos.make_unchecked(move)
    if pos is None:
        if board_seen:
            start = board_sfen(variant, rows, hands, side)
        pos = _start_position(variant, start)
    result = _result(pos, special, summary)
    return GameRecord(
        variant=variant.id,
        start_sfen=start,
        moves=tuple(moves),
        sente=fields.get("sente", ""),
        gote=fields.get("gote", ""),
        result=result,
        started=_date(fields.get("started")),
        ended=_date(fields.get("ended")),
        event=fields.get("event", ""),
        site=fields.get("site", ""),
    )


def _variant_of(lines: list[str]) -> str:
    for line in lines:
        if line.startswith(VARIANT_TAG):
            name = line[len(VARIANT_TAG) :].strip()
            try:
                return load_variant(name).id
            except RulesError as exc:
                raise RecordError(f"{VARIANT_TAG} {exc.message}") from None
    wa = any("和将棋" in line for line in lines if "手合割" in line) or any(
        line.count("|") == 2 and len(re.findall(r"[v ]\S", line.split("|")[1])) > 9
        for line in lines
    )
    if not wa:
        return "shogi"
    return "wa-drops" if any("打" in line for line in lines) else "wa"


def _start_from_name(variant: Variant, name: str, no: int, current: str) -> str:
    if name == EVEN_NAMES.get(variant.id) or name in ("平手", variant.names["ja"]):
        return variant.start_sfen
    if variant.id == "shogi" and name in HANDICAPS:
        return HANDICAPS[name]
    if name == "その他":
        return current
    known = "、".join(["平手", *HANDICAPS])
    raise RecordError(f"line {no}: unknown 手合割 {name!r} (known: {known})", line=no)


def _start_position(variant: Variant, sfen: str) -> Position:
    try:
        return Position.from_sfen(variant, sfen)
    except RulesError as exc:
        raise RecordError(f"the start position is not valid: {exc.message}") from None


def _read_ki2_move(pos: Position, token: str, no: int, number: int) -> Move:
    mover = SENTE if token[0] in "▲☗" else GOTE
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


def _result(
    pos: Position, special: tuple[str, int] | None, summary: tuple[str | None, str] | None
) -> Outcome | None:
    if special is None and summary is None:
        return None
    word = special[0] if special else ""
    named, tail = summary if summary else (None, "")
    named_side = None if named is None else (SENTE if named in ("先手", "下手") else GOTE)
    mover, other = pos.side, pos.side ^ 1
    if "連続王手" in tail or word in ("反則勝ち", "反則負け") or "反則" in tail:
        if named_side is not None:
            winner = named_side if "勝ち" in tail else named_side ^ 1
        else:
            winner = mover if word == "反則勝ち" else other
        return Outcome(Termination.PERPETUAL_CHECK, winner)
    if word == "千日手" or tail == "千日手":
        return Outcome(Termination.REPETITION, None)
    if word == "持将棋" or tail == "持将棋":
        return Outcome(Termination.IMPASSE, None)
    if word in ("入玉勝ち", "入玉宣言") or "入玉" in tail:
        return Outcome(Termination.IMPASSE, named_side if named_side is not None else mover)
    if tail == "引き分け":
        return Outcome(Termination.AGREED_DRAW, None)
    if word == "中断" or tail == "中断":
        return Outcome(Termination.ABORTED, None)
    winner = named_side if named_side is not None else other
    if word == "詰み":
        term = (
            Termination.CHECKMATE
            if pos.is_check() or pos.legal_moves()
            else Termination.NO_LEGAL_MOVES
        )
        return Outcome(term, winner)
    if word == "切れ負け":
        return Outcome(Termination.TIMEOUT, winner)
    if not pos.legal_moves():
        return Outcome(
            Termination.CHECKMATE if pos.is_check() else Termination.NO_LEGAL_MOVES, winner
        )
    return Outcome(Termination.RESIGNATION, winner)


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
