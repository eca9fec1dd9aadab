"""KIF board diagrams (BOD): the start position of a game that does not begin from the usual
set-up, written as KIF writers do (hands, 11 or 9 columns, ``v`` before a gote piece).

Standard Shogi cells are one kanji (promoted pieces 全 圭 杏, as in KIF diagrams); Wa cells are
the Japanese piece names of ``rules.notation.names`` (two kanji, three for a promoted piece
that shares its kanji with another piece, like 成走兎), so the rows of a Wa diagram can differ
in width; they are read by name, not by column. A hand of 残り全部 (tsume records) is every
piece of the set that is not on the board or in the other hand.
"""

from __future__ import annotations

from rules.arrays import IntArray, plain
from rules.notation.names import piece_names
from rules.notation.numerals import full_width, kanji_number, normalize, parse_kanji_number
from rules.numbers import DIGITS, Fail, check_number, read_number, shown
from rules.position import Position
from rules.records.record import RecordError, at_line
from rules.sfen import piece_counts
from rules.tables import GOTE, SENTE
from rules.variant import Variant

COLOR_LABELS = ("先手", "後手")


def cell_name(variant: Variant, kind: int) -> str:
    piece = variant.piece(kind)
    if variant.files == 9 and len(piece.kanji) == 1:
        return "玉" if piece.royal else piece.kanji
    return piece_names(variant).japanese[kind]


def hand_text(variant: Variant, hand: IntArray) -> str:
    items = []
    for piece in variant.pieces:
        n = hand[piece.kind]
        if n:
            items.append(cell_name(variant, piece.kind) + (kanji_number(n) if n > 1 else ""))
    return "　".join(items) or "なし"


def write_bod(pos: Position) -> list[str]:
    """The diagram lines for ``pos``."""
    v = pos.variant
    width = v.files
    header = " ".join(full_width(f) for f in range(width, 0, -1))
    border = "+" + "-" * (width * 3) + "+"
    lines = [f"{COLOR_LABELS[GOTE]}の持駒：{hand_text(v, pos.hands[GOTE])}", "  " + header, border]
    for r in range(v.ranks):
        cells = []
        for val in plain(pos.board[r * width : (r + 1) * width]):
            cells.append(" ・" if not val else ("v" if val < 0 else " ") + cell_name(v, abs(val)))
        lines.append("|" + "".join(cells) + "|" + kanji_number(r + 1))
    lines += [border, f"{COLOR_LABELS[SENTE]}の持駒：{hand_text(v, pos.hands[SENTE])}"]
    if pos.side == GOTE:
        lines.append("後手番")
    return lines


def _name_at(variant: Variant, text: str, i: int, line_no: int) -> tuple[int, int]:
    """The kind named at ``text[i:]`` and where the name ends."""
    names = piece_names(variant)
    for size in range(min(names.longest_japanese, len(text) - i), 0, -1):
        kinds = names.read_japanese.get(text[i : i + size])
        if kinds:
            exact = [k for k in kinds if names.japanese[k] == text[i : i + size]]
            return (exact or sorted(kinds))[0], i + size
    raise RecordError(
        f"line {line_no}: no {variant.names['en']} piece named at {shown(text[i:])}",
        code="bad_record_board",
        line=line_no,
    )


def read_board_row(variant: Variant, line: str, line_no: int) -> list[int]:
    """Signed kinds of one diagram row ``|v香v桂 ・ ...|一``."""
    body = line[line.index("|") + 1 : line.rindex("|")]
    body = normalize(body)
    out: list[int] = []
    i = 0
    gote = False
    while i < len(body) and len(out) <= variant.files:  # no more than one square too many
        c = body[i]
        if c == " ":
            i += 1
        elif c == "v":
            gote, i = True, i + 1
        elif c == "・":
            out.append(0)
            gote, i = False, i + 1
        else:
            kind, i = _name_at(variant, body, i, line_no)
            out.append(-kind if gote else kind)
            gote = False
    if len(out) != variant.files:
        found = f"more than {variant.files}" if len(out) > variant.files else f"only {len(out)}"
        raise RecordError(
            f"line {line_no}: a board row has {found} squares, "
            f"{variant.names['en']} has {variant.files}",
            code="bad_record_board",
            line=line_no,
        )
    return out


def read_hand(variant: Variant, text: str, line_no: int) -> list[int]:
    """Counts per kind from ``角　歩二`` or ``なし``."""
    hand = [0] * (len(variant.pieces) + 1)
    text = normalize(text).strip()
    if text in ("", "なし"):
        return hand
    fail = at_line(line_no, "bad_record_board")
    for item in text.split():
        kind, end = _name_at(variant, item, 0, line_no)
        piece = variant.piece(kind)
        if piece.promoted or piece.royal:
            raise fail(f"{shown(item)}: a {piece.name.lower()} cannot be in hand")
        hand[kind] += _hand_count(variant, kind, item[end:], fail)
    return hand


def _hand_count(variant: Variant, kind: int, text: str, fail: Fail) -> int:
    """The count after a piece name in a hand: none (one), digits (18) or kanji (十八),
    at most the set's pieces of that kind."""
    what = f"the number of {variant.piece(kind).name.lower()}s in hand"
    most = variant.tables.set_counts[kind]
    if not text:
        return 1
    if text[0] in DIGITS:
        return read_number(text, what, 1, most, fail)
    n = parse_kanji_number(text)
    if n is None:
        raise fail(
            f"cannot read the count {shown(text)} in hand: write it in digits or kanji, like "
            "歩18 or 歩十八"
        )
    return check_number(n, what, 1, most, fail)


REST = "残り全部"  # a tsume record's hand: every piece not on the board or in the other hand


def rest_to_hand(variant: Variant, board: list[int], hands: list[list[int]], color: int) -> None:
    """Give ``color`` every piece of the set that is not on the board or in a hand."""
    full = variant.tables.set_counts
    used = piece_counts(variant, board, hands)
    for p in variant.pieces:
        if not p.promoted and not p.royal:
            hands[color][p.kind] += max(0, full[p.kind] - used[p.kind])


def board_sfen(variant: Variant, rows: list[list[int]], hands: list[list[int]], side: int) -> str:
    """An SFEN from diagram rows, hands and side to move."""
    parts = []
    for row in rows:
        text, empty = "", 0
        for val in row:
            if not val:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            letter = variant.piece(abs(val)).letter
            text += letter if val > 0 else letter.lower()
        parts.append(text + (str(empty) if empty else ""))
    hand = ""
    for color in (SENTE, GOTE):
        for piece in variant.pieces:
            n = hands[color][piece.kind]
            if n:
                letter = piece.letter if color == SENTE else piece.letter.lower()
                hand += (str(n) if n > 1 else "") + letter
    return f"{'/'.join(parts)} {'b' if side == SENTE else 'w'} {hand or '-'} 1"
