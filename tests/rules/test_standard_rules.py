"""Targeted tests for every rule of Standard Shogi in RULES.md section 1."""

from __future__ import annotations

import pytest

from rules import (
    GOTE,
    SENTE,
    IllegalDeclarationError,
    IllegalMoveError,
    Position,
    Termination,
    declare_impasse,
    impasse_report,
    load_variant,
)

SHOGI = load_variant("shogi")


def pos(sfen: str) -> Position:
    return Position.from_sfen(SHOGI, sfen)


def usis(p: Position) -> set[str]:
    return {p.usi(m) for m in p.legal_moves()}


def reason(p: Position, usi: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        p.push_usi(usi)
    return info.value


def test_uchifuzume_forbidden_but_pawn_drop_check_that_is_not_mate_allowed() -> None:
    # Gote king boxed in on 9a by its own knight and lance; 9c gold guards 9b.
    mate = pos("kn7/1l7/G8/9/9/9/9/9/4K4 b P 1")
    assert "P*9b" not in usis(mate)
    err = reason(mate, "P*9b")
    assert err.code == "uchifuzume"
    assert "uchifuzume" in str(err)
    # Guarded by a bishop instead, with 8b open: a legal check, not mate.
    escape = pos("kn7/9/9/2B6/9/9/9/9/4K4 b P 1")
    assert "P*9b" in usis(escape)
    escape.push_usi("P*9b")
    assert escape.is_check()
    # Mate by another piece dropped is fine (uchifuzume is about pawns only).
    gold = pos("kn7/1l7/G8/9/9/9/9/9/4K4 b G 1")
    gold.push_usi("G*9b")
    outcome = gold.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner == SENTE


def test_pawn_push_mate_is_allowed() -> None:
    p = pos("kn7/1l7/PG7/9/9/9/9/9/4K4 b - 1")
    p.push_usi("9c9b")
    outcome = p.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE


def test_nifu_and_promoted_pawn_does_not_count() -> None:
    p = pos("4k4/9/9/9/9/4P4/9/9/4K4 b P 1")
    assert not any(m.startswith("P*5") for m in usis(p))
    assert reason(p, "P*5e").code == "nifu"
    tokin = pos("4k4/9/9/9/9/4+P4/9/9/4K4 b P 1")
    assert "P*5e" in usis(tokin)


def test_drop_restrictions_on_last_ranks() -> None:
    p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1")
    moves = usis(p)
    assert not any(m.endswith("a") for m in moves if m[0] in "PL")
    assert not any(m[-1] in "ab" for m in moves if m[0] == "N")
    assert "N*5c" in moves and "L*5b" in moves and "P*5b" in moves
    assert reason(p, "N*1b").code == "dead_drop"
    gote = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1")
    assert not any(m[-1] in "hi" for m in usis(gote) if m[0] == "N")


def test_forced_and_optional_promotion() -> None:
    p = pos("4k4/9/P8/1N7/L8/9/9/9/4K4 b - 1")
    moves = usis(p)
    assert "9c9b" in moves and "9c9b+" in moves  # pawn to rank b: optional
    assert "8d7b+" in moves and "8d7b" not in moves  # knight to rank b: forced
    assert reason(p, "8d7b").code == "must_promote"
    deep = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1")
    assert "9b9a+" in usis(deep) and "9b9a" not in usis(deep)
    assert reason(deep, "9b9a").code == "must_promote"
    # Out of the zone promotes too; a move that never touches the zone cannot.
    silver = pos("4k4/9/4S4/9/9/9/9/9/4K4 b - 1")
    assert {"5c4d+", "5c4d"} <= usis(silver)
    far = pos("4k4/9/9/9/4S4/9/9/9/4K4 b - 1")
    assert "5e5d+" not in usis(far)
    assert reason(far, "5e5d+").code == "promotion_outside_zone"
    gold = pos("4k4/9/4G4/9/9/9/9/9/4K4 b - 1")
    assert reason(gold, "5c5b+").code == "cannot_promote"


def test_pins_and_evasions() -> None:
    pinned = pos("4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1")
    moves = usis(pinned)
    assert "5h5g" in moves and "5h6h" not in moves and "5h4g" not in moves
    err = reason(pinned, "5h6h")
    assert err.code == "leaves_king_in_check"
    assert "rook on 5b" in str(err)
    check = pos("4k4/9/9/9/4r4/9/9/9/4K4 b G 1")
    assert check.is_check()
    assert check.checkers() == [SHOGI.tables.parse_square("5e")]
    moves = usis(check)
    assert moves == {"5i4h", "5i4i", "5i6h", "5i6i", "G*5f", "G*5g", "G*5h"}
    assert reason(check, "G*1a").code == "still_in_check"


def test_king_cannot_capture_protected_piece_or_step_into_check() -> None:
    p = pos("4k4/9/9/9/9/9/9/3r5/4K4 b - 1")
    assert {m for m in usis(p) if m.startswith("5i")} == {"5i6h", "5i4i"}
    assert reason(p, "5i5h").code == "leaves_king_in_check"
    guarded = pos("4k4/9/9/9/9/9/4g4/4s4/4K4 b - 1")
    assert "5i5h" not in usis(guarded)
    assert reason(guarded, "5i5h").code == "still_in_check"


def test_checkmate_and_no_legal_moves_lose() -> None:
    mate = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
    outcome = mate.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.CHECKMATE, SENTE)


def test_captured_pieces_go_to_hand_unpromoted() -> None:
    p = pos("4k4/9/9/9/R3+r4/9/9/9/4K4 b - 1")
    p.push_usi("9e5e")
    assert p.hands[SENTE][SHOGI.by_letter["R"].kind] == 1
    assert p.sfen() == "4k4/9/9/9/4R4/9/9/9/4K4 w R 2"
    p.pop()
    assert p.sfen() == "4k4/9/9/9/R3+r4/9/9/9/4K4 b - 1"


def _shuffle(p: Position, moves: list[str], times: int) -> None:
    for _ in range(times):
        for usi in moves:
            p.push_usi(usi)


def test_fourfold_repetition_is_a_draw() -> None:
    p = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1")
    _shuffle(p, ["5i4i", "5a4a", "4i5i", "4a5a"], 2)
    assert p.repetitions() == 3
    assert p.outcome() is None
    _shuffle(p, ["5i4i", "5a4a", "4i5i", "4a5a"], 1)
    assert p.repetitions() == 4
    outcome = p.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.REPETITION, None)


def test_perpetual_check_loses() -> None:
    # Sente's rook checks from 5h/4h... every sente move gives check; gote's king shuffles.
    p = pos("3k5/9/9/9/9/9/9/9/K3R4 b - 1")
    line = ["5i6i", "6a5a", "6i5i", "5a6a"]
    _shuffle(p, line, 3)
    assert p.repetitions() == 4
    outcome = p.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner == GOTE


def test_impasse_declaration_accepted() -> None:
    p = pos("+RSGG1GGS+B/PPP1K1PPP/+P+P+P6/9/9/9/9/9/4k4 b 2S2N9p4l2n 1")
    report = impasse_report(p)
    assert report.failed == ()
    outcome = declare_impasse(p)
    assert (outcome.termination, outcome.winner) == (Termination.IMPASSE, SENTE)


def test_impasse_declaration_refused_with_every_failed_condition() -> None:
    p = pos("4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    with pytest.raises(IllegalDeclarationError) as info:
        declare_impasse(p)
    failed = info.value.params["failed"]
    assert any("king is not in the promotion zone" in f for f in failed)
    assert any("only 0 of your other pieces" in f for f in failed)
    assert any("points" in f for f in failed)
    few = pos("1+SGGKGG+S1/9/9/9/9/9/9/9/4k4 b - 1")
    report = impasse_report(few)
    assert report.pieces_in_zone == 6
    assert report.points == 6
    assert len(report.failed) == 2
    # Gote needs only 27.
    gote = pos("4K4/9/9/9/9/9/6+p+p+p/ppp1k1ppp/+bsgg1ggs+r w 9P4L2N2s2n 1")
    assert impasse_report(gote).needed == 27


def test_wa_has_no_impasse() -> None:
    with pytest.raises(IllegalDeclarationError):
        declare_impasse(Position.start(load_variant("wa")))


def test_push_validates_and_changes_nothing_on_error() -> None:
    p = Position.start(SHOGI)
    before = (p.sfen(), p.hash)
    err = reason(p, "7g7e")
    assert err.code == "bad_pattern"
    assert (p.sfen(), p.hash) == before
    err = reason(p, "8h2b")
    assert err.code == "path_blocked"
    assert "blocked by sente's pawn on 7g" in str(err)
    assert reason(p, "3c3d").code == "not_your_piece"
    assert reason(p, "5e5d").code == "no_piece"
    assert reason(p, "P*5e").code == "not_in_hand"
    assert reason(p, "9i9g").code == "own_piece_on_target"
    assert (p.sfen(), p.hash) == before


def test_push_pop_restore_everything() -> None:
    p = Position.start(SHOGI)
    start = (p.sfen(), p.hash, p.kings[:])
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "5i4h"]:
        p.push_usi(usi)
    assert p.ply == 7
    assert p.last_move is not None and p.usi(p.last_move) == "5i4h"
    while p.ply:
        p.pop()
    assert (p.sfen(), p.hash, p.kings) == start
