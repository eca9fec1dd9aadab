"""A handicap game on Telegram: typed in the group, through the real ptb client against the fake
Bot API server, to the giver's first move."""

from __future__ import annotations

from pathlib import Path

from rules import GOTE
from tests.bot.telegram.fake_botapi import FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, bot_over, buttons_of, mentioned

ROOK_SFEN = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"


async def test_a_rook_handicap_challenge_in_a_group(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path) as (service, _front):
        hello = fake.send_text(group, BOB, "/games")  # Bob talks to the bot
        await fake.expect(1)
        fake.send_text(group, ALICE, "/challenge 飛車落ち", reply_to=hello["message_id"])
        (card,) = await fake.expect(1)
        assert "handicap: Rook (飛車落ち)" in card["text"], card["text"]
        assert "Alice gives the handicap" in card["text"] and "not rated" in card["text"]
        accept = next(data for data in buttons_of(card) if data.startswith("accept "))
        query = fake.press(group, BOB, card["message_id"], accept)
        await fake.answered(query)
        (board,) = await fake.expect(1)
        assert "handicap: Rook (飛車落ち)" in board["caption"], board["caption"]
        assert mentioned(board) == [2001]  # Alice, the giver, moves first
        game = await service.store.get_game(1)
        assert game is not None and game.start_sfen == ROOK_SFEN and game.side_to_move == GOTE
        fake.send_text(group, ALICE, "/move 3c3d")
        (moved,) = await fake.expect(1)
        assert mentioned(moved) == [2002], moved
