"""``Position.with_side_to_move``: what the side not to move could do on its turn."""

from __future__ import annotations

from rules import GOTE, SENTE, Position, load_variant


def test_handing_the_turn_over_gives_that_sides_legal_moves() -> None:
    variant = load_variant("shogi")
    pos = Position.start(variant)
    pos.push_usi("7g7f")
    turned = pos.with_side_to_move(SENTE)
    same = Position.from_sfen(variant, pos.sfen().replace(" w ", " b "))
    assert turned.side == SENTE and turned.hash == same.hash
    assert sorted(map(turned.usi, turned.legal_moves())) == sorted(
        map(same.usi, same.legal_moves())
    )
    assert turned.ply == 0 and pos.side == GOTE and pos.ply == 1  # the original is untouched
    assert pos.with_side_to_move(GOTE).sfen() == pos.sfen()


def test_a_position_no_game_reaches_still_answers() -> None:
    pos = Position.from_sfen(load_variant("shogi"), "4k4/9/9/9/4R4/9/9/9/8K w - 1")
    turned = pos.with_side_to_move(SENTE)  # sente could take the king that is in check
    rook = sorted(turned.usi(m) for m in turned.legal_moves() if turned.usi(m).startswith("5e"))
    assert "5e5a" in rook and "5e5a+" in rook
    turned.push_usi("5e5d")  # play goes on from there, history and all
    assert turned.side == GOTE and turned.pop() is not None
