"""The /analyse benchmark drives a real ``komabot console``: a short game at a small budget
is typed in, resigned and analysed, and the reply holds the text and the graph's image."""

from __future__ import annotations

import pytest

from bench.analyse_console import main


def test_a_short_game_is_analysed_in_the_console(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--plies", "6", "--movetime", "50", "--nodes", "50"]) == 0
    out = capsys.readouterr().out
    assert "game: 6 moves" in out
    assert "Analysis of game #1, alice vs bob (Komabot, 50 ms per position)" in out, out
    assert "☗ alice (sente): accuracy" in out and "☖ bob (gote): accuracy" in out
    assert "/analyse in the console: " in out and "target under 60 s: met" in out
