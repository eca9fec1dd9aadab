"""The USI protocol, in process: commands, errors, the search thread, clock budgets."""

from __future__ import annotations

import threading
import time

import pytest

from engine.clock import Clock, move_budget_ms
from engine.usi import UsiError, UsiSession, parse_go, parse_position
from rules import GOTE, SENTE, Position, load_variant


class Conversation:
    """A session whose output lines are collected, with a way to wait for one."""

    def __init__(self, variant: str = "shogi") -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.session = UsiSession(variant, self._receive)

    def _receive(self, line: str) -> None:
        with self.changed:
            self.lines.append(line)
            self.changed.notify_all()

    def say(self, *commands: str) -> list[str]:
        start = len(self.lines)
        for command in commands:
            assert self.session.handle(command)
        return self.lines[start:]

    def wait_for(self, prefix: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        with self.changed:
            while True:
                for line in self.lines:
                    if line.startswith(prefix):
                        self.lines.remove(line)
                        return line
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} in {self.lines}"
                self.changed.wait(left)


def legal(variant: str, sfen: str, moves: list[str]) -> set[str]:
    pos = Position.from_sfen(load_variant(variant), sfen)
    for text in moves:
        pos.push_usi(text)
    return {pos.usi(m) for m in pos.legal_moves()}


def test_handshake_declares_the_options() -> None:
    talk = Conversation()
    out = talk.say("usi")
    assert out[0] == "id name Komabot (shogi)" and out[1].startswith("id author ")
    assert "option name Level type spin default 8 min 1 max 8" in out
    assert any(line.startswith("option name USI_Hash type spin") for line in out)
    assert out[-1] == "usiok"
    assert talk.say("isready") == ["readyok"]
    assert talk.say("setoption name USI_Ponder value true") == []  # accepted, ignored
    assert talk.say("setoption name Level value 3", "setoption name USI_Hash value 8") == []
    assert talk.session.options["Level"] == 3


def test_go_gives_a_legal_bestmove_with_info_lines() -> None:
    talk = Conversation()
    talk.say("usinewgame", "position startpos moves 7g7f 3c3d", "go depth 3")
    best = talk.wait_for("bestmove ")
    assert best.split()[1] in legal("shogi", "startpos", ["7g7f", "3c3d"])
    infos = [line for line in talk.lines if line.startswith("info depth")]
    assert len(infos) == 3
    assert " score cp " in infos[-1] and " pv " in infos[-1] and " nps " in infos[-1]


def test_wa_positions_and_moves_are_the_eleven_file_forms() -> None:
    talk = Conversation("wa-drops")
    talk.say("position startpos moves 11i11h 1c1d", "go nodes 800")
    best = talk.wait_for("bestmove ").split()[1]
    assert best in legal("wa-drops", "startpos", ["11i11h", "1c1d"])
    sfen = (
        "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - 2"
    )
    talk.say(f"position sfen {sfen} moves 1c1d", "go nodes 500")
    assert talk.wait_for("bestmove ").split()[1] in legal("wa-drops", sfen, ["1c1d"])


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("hello", "unknown command 'hello' (expected one of usi, isready"),
        ("position", "nothing after 'position'"),
        ("position fen 9/9 b - 1", "cannot read 'fen 9/9 b - 1'"),
        ("position sfen", "'sfen' needs the SFEN"),
        ("position sfen 9/9 b - 1", "the board has 2 ranks"),
        ("position startpos moves 7g7f 7g7f", "move 2 (7g7f) cannot be played"),
        ("position startpos moves 7g7f xx", "move 2 (xx) cannot be played"),
        ("go wibble", "go: unknown parameter 'wibble'"),
        ("go movetime", "go: movetime needs a number"),
        ("go movetime soon", "takes a whole number"),
        ("go depth 0", "depth must be at least 1"),
        ("go mate 5", "not supported"),
        ("setoption Level 3", "expected setoption name"),
        ("setoption name Colour value red", "unknown option 'Colour'"),
        ("setoption name Level value 9", "from 1 to 8, not 9"),
        ("setoption name AllowResign value maybe", "true or false"),
    ],
)
def test_bad_commands_get_one_error_line_and_change_nothing(command: str, words: str) -> None:
    talk = Conversation()
    talk.say("position startpos moves 2g2f")
    before = talk.session.position.sfen()
    out = talk.say(command)
    assert len(out) == 1 and out[0].startswith("info string error: "), out
    assert words in out[0]
    assert talk.session.position.sfen() == before
    assert talk.session.options["Level"] == 8


def test_the_position_is_never_half_applied() -> None:
    talk = Conversation()
    talk.say("position startpos moves 7g7f")
    # four good moves, then one that is not
    out = talk.say("position startpos moves 2g2f 8c8d 2f2e 8d8e 2e2c")
    assert "move 5 (2e2c) cannot be played" in out[0]
    assert [talk.session.position.usi(m) for m in talk.session.position.move_stack] == ["7g7f"]
    talk.say("go nodes 300")
    assert talk.wait_for("bestmove ").split()[1] in legal("shogi", "startpos", ["7g7f"])


def test_stop_ends_an_infinite_search_and_only_then_bestmove_comes() -> None:
    talk = Conversation("wa")
    talk.say("position startpos", "go infinite")
    time.sleep(0.5)
    assert not any(line.startswith("bestmove") for line in talk.lines)
    assert talk.say("isready") == ["readyok"]  # answered while it thinks
    assert "go: already searching" in talk.say("go depth 1")[0]
    talk.say("stop")
    assert talk.wait_for("bestmove ", 5).split()[1] in legal("wa", "startpos", [])


def test_an_infinite_search_that_ends_early_waits_for_stop() -> None:
    talk = Conversation()
    talk.say("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go infinite")
    time.sleep(0.5)
    assert not any(line.startswith("bestmove") for line in talk.lines)
    talk.say("stop")
    assert talk.wait_for("bestmove ") == "bestmove G*5b"
    assert any(" score mate 1 " in line for line in talk.lines)


def test_ponder_waits_for_ponderhit_then_uses_the_clock() -> None:
    talk = Conversation()
    talk.say("position startpos", "go ponder btime 0 wtime 0 byoyomi 300")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in talk.lines)
    hit = time.monotonic()
    talk.say("ponderhit")
    talk.wait_for("bestmove ", 5)
    assert time.monotonic() - hit < 3.0


def test_mated_and_declaring_positions() -> None:
    talk = Conversation()
    talk.say("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "go movetime 100")
    assert talk.wait_for("bestmove ") == "bestmove resign"
    talk.say("position sfen 1+R+BGGSS+N1/PPPK5/9/9/9/9/9/9/4k4 b RBL 1", "go nodes 200")
    assert talk.wait_for("bestmove ") == "bestmove win"


def test_quit_during_a_search_ends_the_session() -> None:
    talk = Conversation()
    talk.say("position startpos", "go infinite")
    time.sleep(0.2)
    start = time.monotonic()
    assert talk.session.handle("quit") is False
    assert time.monotonic() - start < 3.0
    assert not talk.session.searching


def test_parse_helpers() -> None:
    go = parse_go(["btime", "1000", "wtime", "2000", "binc", "10", "winc", "20", "byoyomi", "500"])
    assert go.clock == Clock(1000, 2000, 10, 20, 500, None)
    assert parse_go(["infinite"]).infinite and parse_go(["ponder"]).ponder
    with pytest.raises(UsiError):
        parse_go(["nodes", "-5"])
    pos = parse_position(load_variant("shogi"), ["startpos", "moves", "7g7f"])
    assert pos.ply == 1


def test_clock_budgets() -> None:
    assert move_budget_ms(Clock(movetime=1000), SENTE, 100) == 900
    assert move_budget_ms(Clock(movetime=50), SENTE, 100) == 1
    assert move_budget_ms(Clock(), SENTE, 100) is None
    # byoyomi only: nearly all of it
    assert move_budget_ms(Clock(btime=0, wtime=0, byoyomi=1000), GOTE, 100) == 900
    # sudden death: a thirtieth of what is left, the side's own clock
    assert move_budget_ms(Clock(btime=60_000, wtime=30_000), SENTE, 0) == 2000
    assert move_budget_ms(Clock(btime=60_000, wtime=30_000), GOTE, 0) == 1000
    # never more than is on the clock
    assert move_budget_ms(Clock(btime=50, wtime=50, binc=0), SENTE, 100) == 1
    # Fischer increment: most of it is spent
    assert move_budget_ms(Clock(btime=0, wtime=0, binc=1000, winc=1000), SENTE, 0) == 800


def test_go_right_after_a_bestmove_is_accepted() -> None:
    # a GUI (or the client) sends the next go as soon as it reads bestmove, while the search
    # thread may still be winding down
    talk = Conversation()
    talk.say("position startpos")
    for _ in range(25):
        talk.say("go nodes 60")
        talk.wait_for("bestmove ")
    assert not any("error" in line for line in talk.lines), talk.lines
