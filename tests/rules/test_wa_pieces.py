"""Every Wa Shogi piece and promoted piece, written out by hand from RULES.md section 2.

The expected moves below are typed from the English descriptions, not derived from the Betza
strings in the variant file, so they check the file and the Betza reader together.
"""

from __future__ import annotations

import pytest

from rules import GOTE, SENTE, IllegalMoveError, Position, Termination, load_variant

WA = load_variant("wa")
WA_DROPS = load_variant("wa-drops")

N, S, E, W = (0, 1), (0, -1), (1, 0), (-1, 0)
NE, NW, SE, SW = (1, 1), (-1, 1), (1, -1), (-1, -1)
ORTHO, DIAG = (N, S, E, W), (NE, NW, SE, SW)
ALL8 = ORTHO + DIAG


def steps(*dirs: tuple[int, int]) -> list[tuple[tuple[int, int], int, bool]]:
    return [(d, 1, False) for d in dirs]


def slides(*dirs: tuple[int, int], limit: int = 20) -> list[tuple[tuple[int, int], int, bool]]:
    return [(d, limit, False) for d in dirs]


def jumps(*offsets: tuple[int, int]) -> list[tuple[tuple[int, int], int, bool]]:
    return [(d, 1, True) for d in offsets]


FOX = steps(*DIAG, N, S) + jumps((2, 2), (-2, 2), (2, -2), (-2, -2), (0, 2), (0, -2))
EAGLE = slides(N, S) + slides(NE, NW, limit=3) + steps(SE, SW, E, W)
FALCON = slides(*DIAG) + steps(N)
SWALLOW = slides(E, W) + steps(N, S)
WOLF = steps(*ORTHO, NE, NW)
STAG = steps(*DIAG, N)

EXPECTED = {
    "K": steps(*ALL8),
    "E": EAGLE,
    "F": FALCON,
    "+F": slides(*DIAG, N, S) + steps(E, W),
    "S": SWALLOW,
    "+S": slides(*ORTHO),
    "X": FOX,
    "R": slides(N) + steps(*DIAG, S),
    "+R": FOX,
    "W": WOLF,
    "+W": steps(*ALL8),
    "V": STAG,
    "+V": steps(*DIAG, N, E, W),
    "G": steps(NE, NW, N, S),
    "+G": SWALLOW,
    "C": steps(NE, NW, E, W),
    "+C": slides(N, S) + steps(NE, NW, E, W),
    "U": steps(N, SE, SW),
    "+U": FALCON,
    "L": steps(N, SE, SW),
    "+L": EAGLE,
    "D": steps(NE, NW, S, E, W),
    "+D": WOLF,
    "M": steps(NE, NW, N, S),
    "+M": STAG,
    "H": slides(N) + slides(S, limit=2),
    "+H": jumps((1, 2), (-1, 2), (1, -2), (-1, -2)),
    "O": slides(N),
    "+O": steps(*ALL8),
    "P": steps(N),
    "+P": WOLF,
}

CENTRE = "6f"
KINGS = {"10k": "K", "2a": "k"}  # off every line and jump from 6f


def square(col: int, row: int) -> str:
    return f"{11 - col}{chr(ord('a') + row)}"


def expected_squares(letter: str, color: int, blockers: dict[str, str] | None = None) -> set[str]:
    """Destinations from 6f on a board holding only the kings and ``blockers``."""
    occupied = {**KINGS, **(blockers or {})}
    sign = 1 if color == SENTE else -1
    col, row = 5, 5
    out = set()
    for (dx, dy), limit, jump in EXPECTED[letter]:
        c, r = col, row
        for _ in range(limit):
            c, r = c + dx * sign, r - dy * sign
            if not (0 <= c < 11 and 0 <= r < 11):
                break
            name = square(c, r)
            occupant = occupied.get(name)
            own = occupant is not None and (occupant.isupper() == (color == SENTE))
            if not own:
                out.add(name)
            if occupant is not None and not jump:
                break
    return out


def board_with(pieces: dict[str, str], side: int) -> Position:
    cells = [["" for _ in range(11)] for _ in range(11)]
    for name, letter in pieces.items():
        col, row = 11 - int(name[:-1]), ord(name[-1]) - ord("a")
        cells[row][col] = letter
    rows = []
    for row_cells in cells:
        out, empty = "", 0
        for cell in row_cells:
            if not cell:
                empty += 1
                continue
            out += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(out + (str(empty) if empty else ""))
    return Position.from_sfen(WA, f"{'/'.join(rows)} {'b' if side == SENTE else 'w'} - 1")


def destinations(pos: Position, origin: str) -> set[str]:
    sq = WA.tables.parse_square(origin)
    return {pos.tables.square_names[m.to_sq] for m in pos.legal_moves() if m.from_sq == sq}


def kings_for(letter: str, color: int) -> dict[str, str]:
    """Both kings, except the mover's own when the piece under test is that king."""
    if letter != "K":
        return KINGS
    return {sq: k for sq, k in KINGS.items() if k.isupper() != (color == SENTE)}


@pytest.mark.parametrize("letter", sorted(EXPECTED))
@pytest.mark.parametrize("color", [SENTE, GOTE])
def test_open_board(letter: str, color: int) -> None:
    piece = letter if color == SENTE else letter.lower()
    pos = board_with({**kings_for(letter, color), CENTRE: piece}, color)
    assert destinations(pos, CENTRE) == expected_squares(letter, color)


# Blockers one and two squares away in every direction (a friendly and an enemy ring).
RING_NEAR = {square(5 + dx, 5 - dy): "P" for dx, dy in [N, S, E, W]}
RING_NEAR |= {square(5 + dx, 5 - dy): "p" for dx, dy in DIAG}
RING_FAR = {square(5 + 2 * dx, 5 - 2 * dy): "p" for dx, dy in ORTHO}
RING_FAR |= {square(5 + 2 * dx, 5 - 2 * dy): "P" for dx, dy in DIAG}


@pytest.mark.parametrize("letter", sorted(EXPECTED))
@pytest.mark.parametrize("color", [SENTE, GOTE])
@pytest.mark.parametrize("ring", [RING_NEAR, RING_FAR], ids=["near", "far"])
def test_with_blockers(letter: str, color: int, ring: dict[str, str]) -> None:
    if color == GOTE:
        ring = {sq: p.swapcase() for sq, p in ring.items()}
    piece = letter if color == SENTE else letter.lower()
    # sparrows may not face the last rank issue here: the rings stay on ranks d-h
    pos = board_with({**kings_for(letter, color), **ring, CENTRE: piece}, color)
    expected = expected_squares(letter, color, ring)
    if letter == "K":  # the king may not step next to the far ring's sparrows that face it
        expected -= {square(5, 4)} if color == SENTE else {square(5, 6)}
    assert destinations(pos, CENTRE) == expected


def test_fox_jumps_over_friend_and_foe_but_not_onto_a_friend() -> None:
    pos = board_with({**KINGS, "6f": "X", "6e": "P", "6h": "p", "7g": "P", "8h": "P"}, SENTE)
    dest = destinations(pos, "6f")
    assert "6d" in dest  # over its own sparrow
    assert "6h" in dest and "6g" in dest  # step back; capture two back
    assert "8h" not in dest and "7g" not in dest  # own pieces there
    assert "4h" in dest and "4d" in dest and "8d" in dest


def test_eagle_diagonal_range_is_three_and_blocked() -> None:
    pos = board_with({**KINGS, "6f": "E"}, SENTE)
    dest = destinations(pos, "6f")
    assert {"5e", "4d", "3c"} <= dest and "2b" not in dest
    blocked = board_with({**KINGS, "6f": "E", "5e": "P"}, SENTE)
    assert not {"5e", "4d", "3c"} & destinations(blocked, "6f")


def test_horse_retreat_is_two_and_blocked() -> None:
    pos = board_with({**KINGS, "6f": "H"}, SENTE)
    assert {"6g", "6h"} <= destinations(pos, "6f") and "6i" not in destinations(pos, "6f")
    blocked = board_with({**KINGS, "6f": "H", "6g": "P"}, SENTE)
    assert not {"6g", "6h"} & destinations(blocked, "6f")


def usis(pos: Position) -> set[str]:
    return {pos.usi(m) for m in pos.legal_moves()}


def test_promotion_forced_only_for_sparrow_and_oxcart_on_last_rank() -> None:
    pos = board_with({**KINGS, "9b": "P", "7b": "O", "5b": "H", "4b": "U", "3d": "W"}, SENTE)
    moves = usis(pos)
    assert "9b9a+" in moves and "9b9a" not in moves
    assert "7b7a+" in moves and "7b7a" not in moves
    assert {"5b5a+", "5b5a"} <= moves  # horse can still retreat from rank a
    assert {"4b4a+", "4b4a"} <= moves  # crow can still step back diagonally
    assert {"3d3c+", "3d3c"} <= moves  # entering the zone
    assert "3d3e+" not in moves
    with pytest.raises(IllegalMoveError) as info:
        pos.push_usi("9b9a")
    assert info.value.code == "must_promote"


def test_promoted_piece_never_promotes_again() -> None:
    pos = board_with({**KINGS, "6c": "+U", "8c": "F"}, SENTE)
    moves = usis(pos)
    assert "6c5b" in moves and "6c5b+" not in moves  # a promoted crow, not a falcon
    assert "8c7b+" in moves  # a real falcon promotes
    with pytest.raises(IllegalMoveError) as info:
        pos.push_usi("6c5b+")
    assert info.value.code == "cannot_promote"


@pytest.mark.parametrize(
    ("promoted", "returns"),
    [(f"+{p.letter}", p.letter) for p in WA.pieces if p.promotes_to],
)
def test_capture_of_promoted_piece_returns_base_piece(promoted: str, returns: str) -> None:
    pos = Position.from_sfen(
        WA_DROPS, f"9k1/11/11/11/11/5{promoted.lower()}5/5R5/11/11/11/1K9 b - 1"
    )
    pos.push_usi("6g6f")
    kind = WA_DROPS.by_letter[returns].kind
    assert pos.hands[SENTE][kind] == 1
    assert pos.sfen().split()[2] == returns
    no_drops = Position.from_sfen(WA, pos.copy().sfen().replace(f" {returns} ", " - ", 1))
    assert sum(no_drops.hands[SENTE]) == 0


def test_no_drops_in_wa() -> None:
    pos = board_with({**KINGS, "6f": "R", "6e": "p"}, SENTE)
    pos.push_usi("6f6e")
    assert sum(pos.hands[SENTE]) == 0
    assert not any(m.drop for m in pos.legal_moves())


def test_wa_drops_restrictions() -> None:
    pos = Position.from_sfen(WA_DROPS, "9k1/11/11/11/11/4P6/11/11/11/11/1K9 b POX 1")
    moves = usis(pos)
    sparrow = {m for m in moves if m.startswith("P*")}
    oxcart = {m for m in moves if m.startswith("O*")}
    fox = {m for m in moves if m.startswith("X*")}
    assert not any(m.endswith("a") for m in sparrow | oxcart)
    assert not any(m[2:-1] == "7" for m in sparrow)  # nifu: a sparrow already on file 7
    assert "X*5a" in fox and "O*5b" in oxcart
    with pytest.raises(IllegalMoveError) as info:
        pos.push_usi("P*7c")
    assert info.value.code == "nifu"


def test_wa_sparrow_drop_mate_is_forbidden_but_other_drop_mates_are_not() -> None:
    # Gote king in the corner, boxed in by its own oxcart and sparrow; a wolf guards 11b.
    sfen = "ko9/1p9/1W9/11/11/11/11/11/11/11/5K5 b {hand} 1"
    pos = Position.from_sfen(WA_DROPS, sfen.format(hand="P"))
    assert "P*11b" not in usis(pos)
    with pytest.raises(IllegalMoveError) as info:
        pos.push_usi("P*11b")
    assert info.value.code == "uchifuzume"
    stag = Position.from_sfen(WA_DROPS, sfen.format(hand="V"))
    stag.push_usi("V*11b")
    outcome = stag.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE


def test_wa_checkmate() -> None:
    pos = Position.from_sfen(WA, "ko9/1p9/WW9/11/11/11/11/11/11/11/5K5 b - 1")
    pos.push_usi("11c11b")
    outcome = pos.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.CHECKMATE, SENTE)


def test_wa_repetition_and_perpetual_check() -> None:
    pos = Position.from_sfen(WA, "5k5/11/11/11/11/11/11/11/11/11/5K5 b - 1")
    for _ in range(3):
        for usi in ("6k5k", "6a5a", "5k6k", "5a6a"):
            pos.push_usi(usi)
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    checks = Position.from_sfen(WA, "5k5/11/11/11/11/11/11/11/11/11/K5+S4 b - 1")
    for _ in range(3):
        for usi in ("5k6k", "6a5a", "6k5k", "5a6a"):
            checks.push_usi(usi)
    outcome = checks.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.PERPETUAL_CHECK, GOTE)
