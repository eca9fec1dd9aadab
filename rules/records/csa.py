"""CSA records (Standard Shogi only): ``V2.2``, names, ``$`` headers, ``PI`` or ``P1``-``P9``
plus ``P+`` / ``P-`` hands, side to move, moves ``+7776FU``, the end ``%TORYO``... Written in
UTF-8 with the comment line ``'CSA encoding=UTF-8`` first; read in UTF-8 or Shift-JIS.

CSA cannot say that the player not to move resigned or ran out of time, so Komabot adds a
comment line ``'KOMABOT-RESULT: <termination> <winner>`` after the end; readers skip it, and
Komabot's reader prefers it when present.
"""

from __future__ import annotations

import re
from datetime import datetime

from rules.errors import RulesError
from rules.move import Move
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.records.record import GameRecord, RecordError, same_start
from rules.sfen import piece_counts
from rules.tables import GOTE, SENTE
from rules.variant import Variant, load_variant

DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
RESULT_TAG = "'KOMABOT-RESULT:"
CODES = {
    "K": "OU",
    "R": "HI",
    "+R": "RY",
    "B": "KA",
    "+B": "UM",
    "G": "KI",
    "S": "GI",
    "+S": "NG",
    "N": "KE",
    "+N": "NK",
    "L": "KY",
    "+L": "NY",
    "P": "FU",
    "+P": "TO",
}
LETTERS = {code: letter for letter, code in CODES.items()}
SIGNS = ("+", "-")
WINNER_WORDS = {SENTE: "sente", GOTE: "gote", None: "none"}


def _csa_square(variant: Variant, sq: int) -> str:
    w = variant.files
    return f"{w - sq % w}{sq // w + 1}"


def _position_lines(pos: Position) -> list[str]:
    v = pos.variant
    if same_start(pos.sfen(), v.start_sfen):
        return ["PI", "+"]
    lines = []
    for r in range(v.ranks):
        row = pos.board[r * v.files : (r + 1) * v.files]
        cells = [" * " if not x else SIGNS[x < 0] + CODES[v.piece(abs(x)).letter] for x in row]
        lines.append(f"P{r + 1}" + "".join(cells))
    for color in (SENTE, GOTE):
        items = ["00" + CODES[p.letter] for p in v.pieces for _ in range(pos.hands[color][p.kind])]
        if items:
            lines.append(f"P{SIGNS[color]}" + "".join(items))
    lines.append(SIGNS[pos.side])
    return lines


def _move_text(pos: Position, move: Move) -> str:
    v = pos.variant
    sign = SIGNS[pos.side]
    to = _csa_square(v, move.to_sq)
    if move.is_drop:
        return f"{sign}00{to}{CODES[v.piece(move.drop).letter]}"
    kind = abs(pos.board[move.from_sq])
    after = v.piece(kind).promotes_to if move.promote else kind
    return f"{sign}{_csa_square(v, move.from_sq)}{to}{CODES[v.piece(after).letter]}"


def _end_word(result: Outcome, pos: Position) -> str:
    term, winner = result.termination, result.winner
    if term is Termination.RESIGNATION:
        return "%TORYO"
    if term in (Termination.CHECKMATE, Termination.NO_LEGAL_MOVES):
        return "%TSUMI"
    if term is Termination.TIMEOUT:
        return "%TIME_UP"
    if term is Termination.REPETITION:
        return "%SENNICHITE"
    if term is Termination.PERPETUAL_CHECK:
        loser = GOTE if winner == SENTE else SENTE
        return f"%{SIGNS[loser]}ILLEGAL_ACTION"
    if term is Termination.IMPASSE:
        return "%KACHI" if winner is not None else "%JISHOGI"
    if term is Termination.AGREED_DRAW:
        return "%HIKIWAKE"
    return "%CHUDAN"


def write_csa(record: GameRecord) -> str:
    """CSA text of a Standard Shogi record (``export_record`` checks the variant first)."""
    pos = record.start_position()
    lines = ["'CSA encoding=UTF-8", "V2.2", "N+" + _one_line(record.sente)]
    lines.append("N-" + _one_line(record.gote))
    if record.event:
        lines.append("$EVENT:" + _one_line(record.event))
    if record.site:
        lines.append("$SITE:" + _one_line(record.site))
    if record.started:
        lines.append("$START_TIME:" + record.started.strftime(DATE_FORMAT))
    if record.ended:
        lines.append("$END_TIME:" + record.ended.strftime(DATE_FORMAT))
    lines += _position_lines(pos)
    for text in record.moves:
        move = pos.parse_usi(text)
        lines.append(_move_text(pos, move))
        pos.make_unchecked(move)
    if record.result is not None:
        lines.append(_end_word(record.result, pos))
        r = record.result
        lines.append(f"{RESULT_TAG} {r.termination.value} {WINNER_WORDS[r.winner]}")
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- reading ---------------------------------------------------------------------------


def looks_like_csa(text: str) -> bool:
    return bool(re.search(r"^(?:V2|PI|P1|N\+|[+-]\d{4}[A-Z]{2})", text, re.M))


def read_csa(text: str) -> GameRecord:
    """A validated record from CSA text; RecordError names the line and the problem."""
    variant = load_variant("shogi")
    fields: dict[str, str] = {}
    board: list[int] | None = None
    hands = [[0] * (len(variant.pieces) + 1) for _ in range(2)]
    side: int | None = None
    pos: Position | None = None
    start = variant.start_sfen
    moves: list[str] = []
    end: str | None = None
    tagged: Outcome | None = None
    statements: list[tuple[int, str]] = []
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.strip()
        if line.startswith(RESULT_TAG):
            tagged = _read_tag(line[len(RESULT_TAG) :], no)
            continue
        if not line or line.startswith("'"):
            continue
        statements += [(no, part.strip()) for part in line.split(",") if part.strip()]
    for no, st in statements:
        if pos is None and (st.startswith("P") or st in ("+", "-")):
            if st.startswith("PI"):
                board = _initial_board(variant, st, no)
            elif re.fullmatch(r"P[1-9].*", st):
                board = board if board is not None else [0] * variant.tables.size
                _read_row(variant, board, st, no)
            elif st.startswith(("P+", "P-")):
                board = board if board is not None else [0] * variant.tables.size
                _read_pieces(variant, board, hands, st, no)
            else:
                side = SENTE if st == "+" else GOTE
            continue
        if st.startswith("V") or st.startswith("T"):
            continue
        if st.startswith("N+"):
            fields["sente"] = st[2:]
            continue
        if st.startswith("N-"):
            fields["gote"] = st[2:]
            continue
        if st.startswith("$"):
            key, _, value = st[1:].partition(":")
            fields[key] = value
            continue
        if st.startswith("%"):
            if pos is None:
                pos = _start(variant, board, hands, side, no)
                start = pos.sfen()
            end = st
            break
        if re.fullmatch(r"[+-]\d{4}[A-Z]{2}", st):
            if pos is None:
                pos = _start(variant, board, hands, side, no)
                start = pos.sfen()
            move = _read_move(pos, st, no, len(moves) + 1)
            moves.append(pos.usi(move))
            pos.make_unchecked(move)
            continue
        raise RecordError(f"line {no}: cannot read {st!r} as CSA", line=no)
    if pos is None:
        pos = _start(variant, board, hands, side, 0)
        start = pos.sfen()
    return GameRecord(
        variant="shogi",
        start_sfen=start,
        moves=tuple(moves),
        sente=fields.get("sente", ""),
        gote=fields.get("gote", ""),
        result=tagged or _result(pos, end),
        started=_date(fields.get("START_TIME")),
        ended=_date(fields.get("END_TIME")),
        event=fields.get("EVENT", ""),
        site=fields.get("SITE", ""),
    )


def _square(variant: Variant, text: str, no: int) -> int:
    f, r = int(text[0]), int(text[1])
    if not (1 <= f <= variant.files and 1 <= r <= variant.ranks):
        raise RecordError(f"line {no}: {text} is not a square", line=no)
    return (r - 1) * variant.files + (variant.files - f)


def _kind(variant: Variant, code: str, no: int) -> int:
    letter = LETTERS.get(code)
    if letter is None:
        raise RecordError(f"line {no}: unknown CSA piece {code!r}", line=no)
    return variant.by_letter[letter].kind


def _initial_board(variant: Variant, st: str, no: int) -> list[int]:
    board = Position.start(variant).board[:]
    for i in range(2, len(st), 4):
        chunk = st[i : i + 4]
        if len(chunk) != 4 or not chunk[:2].isdigit():
            raise RecordError(
                f"line {no}: cannot read {st!r} (PI then squares and pieces)", line=no
            )
        board[_square(variant, chunk[:2], no)] = 0
    return board


def _read_row(variant: Variant, board: list[int], st: str, no: int) -> None:
    r = int(st[1]) - 1
    body = st[2:].ljust(variant.files * 3)
    for c in range(variant.files):
        cell = body[c * 3 : c * 3 + 3]
        if cell.strip() in ("*", ""):
            board[r * variant.files + c] = 0
            continue
        if cell[0] not in SIGNS:
            raise RecordError(f"line {no}: cannot read {cell!r} in {st!r}", line=no)
        kind = _kind(variant, cell[1:], no)
        board[r * variant.files + c] = kind if cell[0] == "+" else -kind


def _read_pieces(
    variant: Variant, board: list[int], hands: list[list[int]], st: str, no: int
) -> None:
    color = SENTE if st[1] == "+" else GOTE
    body = st[2:]
    for i in range(0, len(body), 4):
        chunk = body[i : i + 4]
        if len(chunk) != 4:
            raise RecordError(f"line {no}: cannot read {st!r}", line=no)
        if chunk == "00AL":
            _rest_to_hand(variant, board, hands, color)
            continue
        kind = _kind(variant, chunk[2:], no)
        if chunk[:2] == "00":
            hands[color][variant.piece(kind).base] += 1
        else:
            board[_square(variant, chunk[:2], no)] = kind if color == SENTE else -kind


def _rest_to_hand(variant: Variant, board: list[int], hands: list[list[int]], color: int) -> None:
    full = variant.tables.set_counts
    used = piece_counts(variant, board, hands)
    for p in variant.pieces:
        if not p.promoted and not p.royal:
            hands[color][p.kind] += max(0, full[p.kind] - used[p.kind])


def _start(
    variant: Variant, board: list[int] | None, hands: list[list[int]], side: int | None, no: int
) -> Position:
    if board is None:
        raise RecordError(
            f"line {no}: a CSA record needs the position (PI or P1-P9) first", line=no
        )
    if side is None:
        raise RecordError(f"line {no}: the side to move (+ or -) is missing", line=no)
    from rules.records.bod import board_sfen

    rows = [board[r * variant.files : (r + 1) * variant.files] for r in range(variant.ranks)]
    try:
        return Position.from_sfen(variant, board_sfen(variant, rows, hands, side))
    except RulesError as exc:
        raise RecordError(f"line {no}: the start position is not valid: {exc.message}") from None


def _read_move(pos: Position, st: str, no: int, number: int) -> Move:
    v = pos.variant
    sign = SENTE if st[0] == "+" else GOTE
    try:
        if sign != pos.side:
            raise RecordError(f"it is {('sente', 'gote')[pos.side]}'s turn")
        to = _square(v, st[3:5], no)
        kind = _kind(v, st[5:7], no)
        if st[1:3] == "00":
            move = Move(-1, to, False, kind)
        else:
            frm = _square(v, st[1:3], no)
            here = abs(pos.board[frm])
            move = Move(frm, to, here != kind and here != 0, 0)
            if here and here != kind and v.piece(here).promotes_to != kind:
                raise RecordError(
                    f"the piece on {st[1:3]} is a {v.piece(here).name.lower()}, not {st[5:7]}"
                )
        pos.check_legal(move)
        return move
    except RulesError as exc:
        raise RecordError(
            f"line {no}: move {number} {st!r}: {exc.message}", code="bad_record_move", line=no
        ) from None


def _result(pos: Position, end: str | None) -> Outcome | None:
    if end is None:
        return None
    mover, other = pos.side, pos.side ^ 1
    word = end[1:]
    if word == "TORYO":
        return Outcome(Termination.RESIGNATION, other)
    if word == "TSUMI":
        stalemate = not pos.legal_moves() and not pos.is_check()
        return Outcome(Termination.NO_LEGAL_MOVES if stalemate else Termination.CHECKMATE, other)
    if word == "TIME_UP":
        return Outcome(Termination.TIMEOUT, other)
    if word == "SENNICHITE":
        return Outcome(Termination.REPETITION, None)
    if word in ("+ILLEGAL_ACTION", "-ILLEGAL_ACTION"):
        return Outcome(Termination.PERPETUAL_CHECK, GOTE if word[0] == "+" else SENTE)
    if word == "ILLEGAL_MOVE":
        return Outcome(Termination.PERPETUAL_CHECK, other)
    if word == "KACHI":
        return Outcome(Termination.IMPASSE, mover)
    if word == "JISHOGI":
        return Outcome(Termination.IMPASSE, None)
    if word == "HIKIWAKE":
        return Outcome(Termination.AGREED_DRAW, None)
    return Outcome(Termination.ABORTED, None)


def _read_tag(text: str, no: int) -> Outcome:
    parts = text.split()
    winners = {"sente": SENTE, "gote": GOTE, "none": None}
    try:
        return Outcome(Termination(parts[0]), winners[parts[1]])
    except (IndexError, KeyError, ValueError):
        raise RecordError(f"line {no}: cannot read the result {text.strip()!r}", line=no) from None


def _date(text: str | None) -> datetime | None:
    if not text:
        return None
    for fmt in (DATE_FORMAT, "%Y/%m/%d %H:%M", "%Y/%m/%d"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None
