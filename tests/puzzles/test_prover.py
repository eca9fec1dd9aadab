"""The mate prover on hand-made problems, on the engine's mate set, and against cshogi."""

from __future__ import annotations

from pathlib import Path

import cshogi
import pytest

from puzzles.prover import Prover, Verdict, checking_moves, prove
from rules import Move, Position, load_variant

MATES = Path(__file__).resolve().parent.parent / "engine" / "data" / "mates.txt"


def pos(sfen: str, variant: str = "shogi") -> Position:
    return Position.from_sfen(load_variant(variant), sfen)


def test_mate_in_one_by_a_supported_gold_drop() -> None:
    proof = prove(pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), 7)
    assert proof.verdict is Verdict.MATE
    assert (proof.plies, proof.line, proof.defences) == (1, ("G*5b",), 0)


def test_mate_in_three_with_a_forced_interposition() -> None:
    # the bishop drop checks along 3c-2b-1a; the gold must block on 2b and the pawn takes it,
    # promoting: the 4d pawn shuts the long diagonal, so only 3c works
    start = pos("7gk/9/7PP/5p3/9/9/9/9/K8 b BG 1")
    proof = prove(start, 7)
    assert proof.verdict is Verdict.MATE
    assert proof.plies == 3 and proof.moves_to_mate == 2
    assert proof.line == ("B*3c", "2a2b", "2c2b+")
    assert (proof.defences, proof.defences_total) == (1, 1)
    assert start.sfen() == "7gk/9/7PP/5p3/9/9/9/9/K8 b BG 1"  # not changed


def test_two_kings_and_two_golds_is_no_mate() -> None:
    proof = prove(pos("4k4/9/9/9/9/9/9/9/4K4 b 2G 1"), 7)
    assert proof.verdict is Verdict.NO_MATE
    assert proof.line == () and proof.plies == 0


def test_pawn_drop_mate_is_not_a_solution() -> None:
    # P*1b would mate (the gold guards 1b, the knight 2a): uchifuzume, illegal
    no_pawn_mate = pos("8k/9/6NG1/9/9/9/9/9/K8 b P 1")
    assert "P*1b" not in {no_pawn_mate.usi(m) for m in checking_moves(no_pawn_mate)}
    assert prove(no_pawn_mate, 1).verdict is Verdict.NO_MATE
    # the same with a lance in hand mates, from any square of the file
    lance = prove(pos("8k/9/6NG1/9/9/9/9/9/K8 b L 1"), 1)
    assert lance.verdict is Verdict.NOT_UNIQUE
    assert "L*1b" in lance.key_moves and len(lance.key_moves) == 8


def test_sparrow_drop_mate_is_not_a_solution_in_wa_drops() -> None:
    # a sparrow dropped on 6b would mate (the golden bird guards it, the oxcarts the files):
    # the rules forbid it, so the prover never plays it; a goose dropped there mates
    sfen = "5k5/11/5+P5/11/11/11/11/11/11/11/K3O1O4 b {} 1"
    sparrow = pos(sfen.format("P"), "wa-drops")
    assert "P*6b" not in {sparrow.usi(m) for m in checking_moves(sparrow)}
    drop = sparrow.variant.tables.parse_square("6b")
    sparrow.make_unchecked(Move(-1, drop, False, sparrow.variant.by_letter["P"].kind))
    assert sparrow.is_check() and not sparrow.legal_moves()  # what it would be: mate
    sparrow.undo()
    assert "P*6b" not in prove(sparrow, 1).key_moves
    assert "G*6b" in prove(pos(sfen.format("G"), "wa-drops"), 1).key_moves


def test_two_first_moves_that_mate_are_rejected() -> None:
    # the bishop may drop on 3c or 4d: both mate in 3
    proof = prove(pos("7gk/9/7PP/9/4p4/9/9/9/K8 b BG 1"), 7)
    assert proof.verdict is Verdict.NOT_UNIQUE
    assert proof.plies == 3
    assert proof.key_moves == ("B*3c", "B*4d")
    assert proof.line == ()


def test_the_node_limit_gives_unknown_not_a_wrong_answer() -> None:
    start = pos("5B2+R/1g2rk3/l2pspp2/p8/3Sp4/P6B1/4PPPP1/+p3GKS2/1+p5N1 b 3P2gs3n3l3p 1")
    assert prove(start, 7, node_limit=5).verdict is Verdict.UNKNOWN
    full = prove(start, 7)
    assert full.verdict is Verdict.MATE and full.plies == 7
    assert full.line[0] == "4a5b+"


def test_the_defence_resists_longest() -> None:
    # after the key move every reply is mated, the line's replies take the most plies
    start = pos("5B2+R/1g2rk3/l2pspp2/p8/3Sp4/P6B1/4PPPP1/+p3GKS2/1+p5N1 b 3P2gs3n3l3p 1")
    proof = prove(start, 7)
    prover = Prover()
    work = start.copy()
    for i, text in enumerate(proof.line):
        if i % 2 == 1:  # a defender turn: no reply lasts longer than the one played
            left = proof.plies - i
            for reply in work.legal_moves():
                work.make_unchecked(reply)
                assert prover.mates_within(work, left - 1)
                work.undo()
            work.push_usi(text)
            assert not prover.mates_within(work, left - 3) if left >= 3 else True
        else:
            work.push_usi(text)
            assert work.is_check()
    assert not work.legal_moves()


def _mate_set() -> list[tuple[str, int, str]]:
    out = []
    for line in MATES.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            variant, plies, sfen = line.split(None, 2)
            out.append((variant, int(plies), sfen))
    return out


@pytest.mark.parametrize(("variant", "plies", "sfen"), _mate_set(), ids=lambda x: str(x))
def test_the_engine_mate_set_has_the_lengths_it_says(variant: str, plies: int, sfen: str) -> None:
    prover = Prover()
    assert prover.mate_length(pos(sfen, variant), plies + 2) == plies


@pytest.mark.parametrize(
    "sfen",
    [
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "7gk/9/7PP/5p3/9/9/9/9/K8 b BG 1",
        "4R3+R/1g1k5/l2pspp2/p8/3Sp4/P6B1/4PPPP1/+p3GKS2/1+p5N1 b 3Pb2gs3n3l3p 1",
        "3g2B+N1/3sk2P1/3pps2+N/l1p2p3/3PG4/2PG5/+p1+r1PP3/4KS+r2/2G3L2 w 3Pbs2n2l5p 1",
    ],
)
def test_cshogi_finds_the_same_mate_length(sfen: str) -> None:
    proof = prove(pos(sfen), 7)
    assert proof.verdict is Verdict.MATE
    board = cshogi.Board(sfen)
    if proof.plies == 1:
        assert cshogi.move_to_usi(board.mate_move_in_1ply()) == proof.line[0]
    else:
        assert board.mate_move(proof.plies) != 0
        assert proof.plies == 3 or board.mate_move(proof.plies - 2) == 0
        assert board.mate_move_in_1ply() == 0


def test_an_interposing_drop_that_lasts_longer_is_the_defence() -> None:
    # with a silver in hand gote blocks with it (mate in 5) rather than with the gold (in 3)
    proof = prove(pos("7gk/9/7PP/5p3/9/9/9/9/K8 b BGs 1"), 7)
    assert proof.verdict is Verdict.MATE
    assert proof.line == ("B*3c", "S*2b", "2c2b+", "2a2b", "G*1b")
    assert proof.defences == 2


def test_among_defences_as_long_the_attacker_keeps_the_fewest_pieces_then_usi_order() -> None:
    # a pawn and a silver block as long; the attacker ends with as many pieces either way
    proof = prove(pos("7gk/9/7PP/5p3/9/9/9/9/K8 b BGsp 1"), 7)
    assert proof.line[:2] == ("B*3c", "P*2b")
