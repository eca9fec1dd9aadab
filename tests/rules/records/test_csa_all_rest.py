"""CSA ``P-00AL``: every piece not on the board or in the other hand goes to one side's hand."""

from __future__ import annotations

from rules.records import import_record

EMPTY = " * " * 9


def test_all_remaining_pieces_go_to_gote_hand() -> None:
    rows = [f"P{n}{EMPTY}" for n in range(1, 10)]
    rows[0] = "P1 *  *  *  *  *  *  * -KY-OU"
    rows[8] = "P9 *  *  *  * +OU *  *  *  * "
    csa = "\n".join(["V2.2", "N+a", "N-b", *rows, "P+00KI", "P-00AL", "+", ""]).encode()
    final = import_record(csa, "problem.csa").final_position()
    assert final.sfen() == "7lk/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n3l18p 1"
