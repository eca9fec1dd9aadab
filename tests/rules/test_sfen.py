"""SFEN in and out, and the exact complaints about bad ones."""

from __future__ import annotations

import pytest

from rules import InvalidSetupError, Position, load_variant

SHOGI = load_variant("shogi")
WA = load_variant("wa")
WA_DROPS = load_variant("wa-drops")


@pytest.mark.parametrize(
    ("variant", "sfen"),
    [
        (SHOGI, SHOGI.start_sfen),
        (WA, WA.start_sfen),
        (SHOGI, "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"),
        (WA_DROPS, "hml+W1uk3o/11/11/11/11/11/11/11/11/11/4K6 b 4P2fx 133"),
    ],
)
def test_round_trip(variant: object, sfen: str) -> None:
    assert Position.from_sfen(variant, sfen).sfen() == sfen  # type: ignore[arg-type]


def test_multi_digit_empty_runs_and_prefixes() -> None:
    pos = Position.from_sfen(WA, "sfen " + WA.start_sfen)
    assert pos.sfen().split("/")[4] == "11"
    assert Position.from_sfen(SHOGI, "startpos").sfen() == SHOGI.start_sfen
    three_fields = Position.from_sfen(SHOGI, "4k4/9/9/9/9/9/9/9/4K4 b -")
    assert three_fields.move_number == 1


@pytest.mark.parametrize(
    ("variant", "sfen", "message"),
    [
        (SHOGI, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", "the board has 8 ranks"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K5 b - 1", "rank 9 (i) has 10 squares, expected 9"),
        (SHOGI, "4k4/9/4q4/9/9/9/9/9/4K4 b - 1", "unknown piece letter 'q'"),
        (SHOGI, "4k4/9/4+g4/9/9/9/9/9/4K4 b - 1", "the gold general cannot be promoted"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/3KK4 b - 1", "2 sente kings"),
        (SHOGI, "4P4/4k4/9/9/9/9/9/9/4K4 w - 1", "sente pawn on 5a could never move"),
        (SHOGI, "4k4/7N1/9/9/9/9/9/9/4K4 b - 1", "sente knight on 2b could never move"),
        (SHOGI, "4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1", "two sente pawns on file 5 (5e and 5f)"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K4 x - 1", "side to move must be 'b' (sente) or 'w' (gote)"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K4 b Q 1", "'Q' cannot be in hand"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K4 b K 1", "'K' cannot be in hand"),
        (
            SHOGI,
            "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
            "sente pawns in hand must be from 1 to 18, not 19",
        ),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K4 b - 0", "the move number must be from 1 to 999999, not 0"),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K4", "expected 4 fields"),
        (SHOGI, "4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "gote is in check but it is not gote's turn"),
        (
            SHOGI,
            "4k4/9/9/9/9/9/9/9/4K0 b - 1",
            "rank 9 (i): an empty run must be from 1 to 9, not 0",
        ),
        (SHOGI, "4k4/9/9/9/9/9/9/9/4K!4 b - 1", "unexpected character '!'"),
        (WA, "11/11/11/11/11/11/11/11/11/11/5K5 b P 1", "wa has no drops"),
        (
            WA,
            "5P5/5k5/11/11/11/11/11/11/11/11/5K5 w - 1",
            "sente sparrow pawn on 6a could never move",
        ),
    ],
)
def test_bad_sfen_says_what_is_wrong(variant: object, sfen: str, message: str) -> None:
    with pytest.raises(InvalidSetupError) as info:
        Position.from_sfen(variant, sfen)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert str(info.value).startswith("bad SFEN: ")
