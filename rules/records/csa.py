"""CSA records (Standard Shogi only): ``V2.2``, names, ``$`` headers, ``PI`` or ``P1``-``P9``
plus ``P+`` / ``P-`` hands, side to move, moves ``+7776FU``, and the end of the game. Written
in UTF-8 with the comment line ``'CSA encoding=UTF-8`` first. A handicap game starts as CSA
writes one: ``PI`` naming the squares and pieces the giver leaves out (``PI82HI22KA``), then
``-`` (gote, the giver, moves first); reading checks that each named piece is there.

The end words are those of the CSA standard, chosen so that readers name the right winner:
``%TORYO`` for a resignation and also for a checkmate (as game servers write it: ``%TSUMI`` is
the tsume-problem word, and cshogi and python-shogi give it no winner), ``%TIME_UP``,
``%SENNICHITE``, ``%KACHI`` / ``%JISHOGI``, ``%HIKIWAKE``, ``%CHUDAN``; a foul is
``%ILLEGAL_MOVE`` when the side to move committed it and ``%+ILLEGAL_ACTION`` (sente's foul) or
``%-ILLEGAL_ACTION`` otherwise, with the comment ``'連続王手の千日手`` for a perpetual check.
%TORYO and %TIME_UP say the side to move lost, and CSA has no word for a resignation by the
player who just moved (see ``record.told_by_turn``): that game ends ``%CHUDAN`` with a comment
saying who resigned and who won. After the end comes ``'KOMABOT-RESULT: <termination>
<winner>``; readers skip it, and Komabot's reader prefers it.

Read: V2.2 and V3.0, in any encoding ``encoding.decode`` knows; board rows ``P1``-``P9`` with
cells ``+XX``, ``-XX`` or ``*`` however spaced; ``%ILLEGAL_MOVE`` and ``%+ILLEGAL_ACTION`` as an
illegal move, or a perpetual check when a comment says 連続王手 (or shogi-server's
``oute_sennichite``); ``%TORYO`` in a mated position as checkmate.
"""

from __future__ import annotations

import re
from datetime import datetime

from rules.arrays import plain
from rules.errors import RulesError
from rules.handicaps import handicap_at
from rules.move import Move
from rules.numbers import is_digits, shown
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.records.bod import rest_to_hand
from rules.records.record import (
    RESULT_TAG,
    WINNER_WORDS,
    GameRecord,
    RecordError,
    loser_to_move,
    read_result_words,
    result_words,
    same_start,
    told_by_turn,
)
from rules.records.time_control import csa_time_limit, read_csa_time_limit
from rules.tables import GOTE, SENTE
from rules.variant import Variant, load_variant

DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
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


def _csa_square(variant: Variant, sq: int) -> str:
    w = variant.files
    return f"{w - sq % w}{sq // w + 1}"


def _position_lines(pos: Position) -> list[str]:
    v = pos.variant
    if same_start(pos.sfen(), v.start_sfen):
        return ["PI", "+"]
    handicap = handicap_at(v, pos.sfen())
    if handicap is not None:  # ``PI82HI22KA`` then ``-``: the even start less gote's pieces
        start = Position.start(v).board
        removed = [v.tables.parse_square(text) for text in handicap.removed]
        cells = [_csa_square(v, sq) + CODES[v.piece(-start[sq]).letter] for sq in removed]
        return ["PI" + "".join(cells), SIGNS[pos.side]]
    lines = []
    for r in range(v.ranks):
        row = plain(pos.board[r * v.files : (r + 1) * v.files])
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
    kind = abs(pos.piece_at(move.from_sq))
    after = v.piece(kind).promotes_to if move.promote else kind
    return f"{sign}{_csa_square(v, move.from_sq)}{to}{CODES[v.piece(after).letter]}"


# The end word for a result the side to move's word can state (loser to move, or the winner
# to move for %KACHI); fouls and impasse are chosen in ``_end_lines``.
_IN_TURN = {
    Termination.RESIGNATION: "%TORYO",
    Termination.CHECKMATE: "%TORYO",  # %TSUMI is for tsume problems; readers give it no winner
    Termination.NO_LEGAL_MOVES: "%TORYO",
    Termination.TIMEOUT: "%TIME_UP",
    Termination.REPETITION: "%SENNICHITE",
    Termination.AGREED_DRAW: "%HIKIWAKE",
    Termination.ABORTED: "%CHUDAN",
}
_OUT_OF_TURN = {
    Termination.RESIGNATION: "{loser} resigned",
    Termination.TIMEOUT: "{loser} ran out of time",
    Termination.CHECKMATE: "{loser} was checkmated",
    Termination.NO_LEGAL_MOVES: "{loser} had no legal move",
    Termination.IMPASSE: "{winner} declared impasse",
}
PERPETUAL_COMMENT = "'連続王手の千日手"


def _end_lines(result: Outcome, pos: Position) -> list[str]:
    """The end of the game and the comments that go with it (see the module notes)."""
    term, winner = result.termination, result.winner
    lines: list[str] = []
    if not told_by_turn(result, pos.side) and winner is not None:
        happened = _OUT_OF_TURN[term].format(
            winner=WINNER_WORDS[winner], loser=WINNER_WORDS[winner ^ 1]
        )
        side = WINNER_WORDS[pos.side]
        lines += ["%CHUDAN", f"'{happened} on {side}'s turn: {WINNER_WORDS[winner]} wins"]
    elif term in _IN_TURN:
        lines.append(_IN_TURN[term])
    elif term is Termination.IMPASSE:
        lines.append("%KACHI" if winner is not None else "%JISHOGI")
    else:  # PERPETUAL_CHECK, ILLEGAL_MOVE
        loser = pos.side if loser_to_move(result, pos.side) else pos.side ^ 1
        plain = term is Termination.ILLEGAL_MOVE and loser == pos.side
        lines.append("%ILLEGAL_MOVE" if plain else f"%{SIGNS[loser]}ILLEGAL_ACTION")
        if term is Termination.PERPETUAL_CHECK:
            lines.append(PERPETUAL_COMMENT)
    return [*lines, f"'{RESULT_TAG} {result_words(result)}"]


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
    limit = csa_time_limit(record.time_control) if record.time_control else None
    if limit:
        lines.append("$TIME_LIMIT:" + limit)
    lines += _position_lines(pos)
    for text in record.moves:
        move = pos.parse_usi(text)
        lines.append(_move_text(pos, move))
        pos.make_unchecked(move)
    if record.result is not None:
        lines += _end_lines(record.result, pos)
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- reading ---------------------------------------------------------------------------


def looks_like_csa(text: str) -> bool:
    return bool(re.search(r"^(?:V[23]|PI|P1|N\+|[+-][0-9]{4}[A-Z]{2})", text, re.M))


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
    comments: list[str] = []
    statements: list[tuple[int, str]] = []
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.strip()
        if line.startswith("'" + RESULT_TAG):
            tagged = read_result_words(line[len(RESULT_TAG) + 1 :], no)
            continue
        if line.startswith("'"):
            comments.append(line[1:])
            continue
        if not line:
            continue
        statement, *comment = _INLINE_COMMENT.split(line, maxsplit=1)  # ends the statements
        comments += comment
        statements += [(no, part.strip()) for part in statement.split(",") if part.strip()]
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
            elif st in SIGNS:
                side = SENTE if st == "+" else GOTE
            else:
                raise RecordError(
                    f"line {no}: cannot read {shown(st)} (a position line is PI, a board row "
                    "P1 to P9, or pieces P+ / P-)",
                    line=no,
                )
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
            if st[1:] not in _KNOWN_ENDS:
                raise RecordError(
                    f"line {no}: unknown CSA ending {st!r} (known: "
                    f"{', '.join('%' + w for w in sorted(_KNOWN_ENDS))})",
                    line=no,
                )
            if pos is None:
                pos = _start(variant, board, hands, side, no)
                start = pos.sfen()
            end = st
            break
        if _MOVE.fullmatch(st):
            if pos is None:
                pos = _start(variant, board, hands, side, no)
                start = pos.sfen()
            move = _read_move(pos, st, no, len(moves) + 1)
            moves.append(pos.usi(move))
            pos.make_unchecked(move)
            continue
        raise RecordError(f"line {no}: cannot read {st!r} as CSA", line=no)
    if pos is None:
        pos = _start(variant, board, hands, side, statements[-1][0] if statements else 1)
        start = pos.sfen()
    return GameRecord(
        variant="shogi",
        start_sfen=start,
        moves=tuple(moves),
        sente=fields.get("sente", ""),
        gote=fields.get("gote", ""),
        result=tagged or _result(pos, end, _says_perpetual(comments)),
        started=_date(fields.get("START_TIME")),
        ended=_date(fields.get("END_TIME")),
        event=fields.get("EVENT", ""),
        site=fields.get("SITE", ""),
        time_control=read_csa_time_limit(fields.get("TIME_LIMIT", "")),
    )


_INLINE_COMMENT = re.compile(r",\s*'")
_MOVE = re.compile(r"[+-][0-9]{4}[A-Z]{2}")  # ASCII digits: ``\d`` would also take ٣ and ９


def _square(variant: Variant, text: str, no: int) -> int:
    """``77``: file then rank, one ASCII digit each."""
    if len(text) == 2 and is_digits(text):
        f, r = int(text[0]), int(text[1])
        if 1 <= f <= variant.files and 1 <= r <= variant.ranks:
            return (r - 1) * variant.files + (variant.files - f)
    raise RecordError(
        f"line {no}: {shown(text)} is not a square (file 1-{variant.files} then rank "
        f"1-{variant.ranks}, like 77)",
        line=no,
    )


def _kind(variant: Variant, code: str, no: int) -> int:
    letter = LETTERS.get(code)
    if letter is None:
        raise RecordError(f"line {no}: unknown CSA piece {code!r}", line=no)
    return variant.by_letter[letter].kind


def _initial_board(variant: Variant, st: str, no: int) -> list[int]:
    board = plain(Position.start(variant).board)
    for i in range(2, len(st), 4):
        chunk = st[i : i + 4]
        if len(chunk) != 4 or not is_digits(chunk[:2]):
            raise RecordError(
                f"line {no}: cannot read {shown(st)} (PI then squares and pieces)", line=no
            )
        sq = _square(variant, chunk[:2], no)
        if board[sq] == 0 or abs(board[sq]) != _kind(variant, chunk[2:], no):
            held = "no piece" if board[sq] == 0 else CODES[variant.piece(abs(board[sq])).letter]
            raise RecordError(
                f"line {no}: {shown(st)} removes {chunk[2:]} from {chunk[:2]}, which holds "
                f"{held} in the starting position",
                line=no,
            )
        board[sq] = 0
    return board


_CELL = re.compile(r"[+-][A-Z]{2}|\*")


def _read_row(variant: Variant, board: list[int], st: str, no: int) -> None:
    """``P1-KY-KE * ...``: cells ``+XX``, ``-XX`` or ``*``, however they are spaced."""
    r = int(st[1]) - 1
    body = st[2:]
    cells = _CELL.findall(body)
    rest = _CELL.sub("", body).strip()
    if rest or len(cells) != variant.files:
        found = f"{len(cells)} cells" + (f" and {rest!r}" if rest else "")
        raise RecordError(
            f"line {no}: the board row {st[:2]} has {found}; expected {variant.files} cells, "
            "each +XX, -XX or * (as in 'P1-KY-KE-GI-KI-OU-KI-GI-KE-KY')",
            code="bad_record_board",
            line=no,
        )
    for c, cell in enumerate(cells):
        kind = 0 if cell == "*" else _kind(variant, cell[1:], no)
        board[r * variant.files + c] = -kind if cell[0] == "-" else kind


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
            rest_to_hand(variant, board, hands, color)
            continue
        kind = _kind(variant, chunk[2:], no)
        if chunk[:2] == "00":
            hands[color][variant.piece(kind).base] += 1
        else:
            board[_square(variant, chunk[:2], no)] = kind if color == SENTE else -kind


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
            here = abs(pos.piece_at(frm))
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


_ENDS_TO_MOVE_LOST = {"TORYO": Termination.RESIGNATION, "TIME_UP": Termination.TIMEOUT}
_DRAWS = {
    "SENNICHITE": Termination.REPETITION,
    "JISHOGI": Termination.IMPASSE,
    "HIKIWAKE": Termination.AGREED_DRAW,
}


_ABORTS = frozenset({"CHUDAN", "ERROR", "MAX_MOVES"})  # stopped, with no winner
_UNFINISHED = frozenset({"FUZUMI"})  # a tsume problem without mate: no result
_KNOWN_ENDS = frozenset(
    {
        *_ENDS_TO_MOVE_LOST,
        *_DRAWS,
        *_ABORTS,
        *_UNFINISHED,
        "TSUMI",
        "KACHI",
        "ILLEGAL_MOVE",
        "+ILLEGAL_ACTION",
        "-ILLEGAL_ACTION",
    }
)


def _result(pos: Position, end: str | None, perpetual: bool) -> Outcome | None:
    """The outcome an end word states; ``perpetual``: the comments say 連続王手."""
    if end is None or end[1:] in _UNFINISHED:
        return None
    mover, other = pos.side, pos.side ^ 1
    word = end[1:]
    foul = Termination.PERPETUAL_CHECK if perpetual else Termination.ILLEGAL_MOVE
    if word in _DRAWS:
        return Outcome(_DRAWS[word], None)
    if word in ("+ILLEGAL_ACTION", "-ILLEGAL_ACTION"):
        return Outcome(foul, GOTE if word[0] == "+" else SENTE)
    if word == "ILLEGAL_MOVE":
        return Outcome(foul, other)
    if word == "KACHI":
        return Outcome(Termination.IMPASSE, mover)
    if word == "TSUMI" or (word == "TORYO" and not pos.legal_moves()):
        stalemate = not pos.legal_moves() and not pos.is_check()
        return Outcome(Termination.NO_LEGAL_MOVES if stalemate else Termination.CHECKMATE, other)
    if word in _ENDS_TO_MOVE_LOST:
        return Outcome(_ENDS_TO_MOVE_LOST[word], other)
    return Outcome(Termination.ABORTED, None)  # one of _ABORTS: read_csa refuses the unknown


def _says_perpetual(comments: list[str]) -> bool:
    """Do the comments call the foul perpetual check (連続王手, shogi-server's oute_sennichite)?"""
    return any("連続王手" in c or "oute_sennichite" in c.lower() for c in comments)


def _date(text: str | None) -> datetime | None:
    if not text:
        return None
    for fmt in (DATE_FORMAT, "%Y/%m/%d %H:%M", "%Y/%m/%d"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None
