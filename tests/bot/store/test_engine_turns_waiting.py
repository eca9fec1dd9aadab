"""The look for the bot's turns nobody holds reads only the games where the bot is to move,
counted in the database the way :attr:`GameRow.side_to_move` counts (both backends)."""

from __future__ import annotations

from dataclasses import replace

from bot.store.models import ENGINE_PLAYER, GameRow
from tests.bot.store.conftest import OpenStore
from tests.bot.store.test_sqlite import new_game

EVEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
ROOK_GIVEN = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"  # gote moves first
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e")


def bot_game(bot_side: int, start: str, plies: int) -> GameRow:
    human = "console:a"
    sente, gote = (ENGINE_PLAYER, human) if bot_side == 0 else (human, ENGINE_PLAYER)
    # the store reads no move: only how many there are
    return replace(new_game(sente, gote), start_sfen=start, engine_level=3, moves=MOVES[:plies])


async def test_only_games_where_the_bot_is_to_move_are_read(open_store: OpenStore) -> None:
    store = await open_store()
    try:
        made = []
        for start in (EVEN, ROOK_GIVEN):
            for bot_side in (0, 1):
                for plies in (0, 1, 2, 3):
                    game = bot_game(bot_side, start, plies)
                    made.append(await store.create_game(game, [], free=[]))
        two_people = await store.create_game(new_game(), [], free=[])
        waiting = await store.unclaimed_engine_games(0.0)
        expected = [g.id for g in made if g.side_to_move == g.engine_color]
        assert [g.id for g in waiting] == expected
        assert len(expected) == len(made) // 2  # half of them, each start and side
        assert two_people.id not in expected
        assert all(g.side_to_move == g.engine_color for g in waiting)
    finally:
        await store.close()
