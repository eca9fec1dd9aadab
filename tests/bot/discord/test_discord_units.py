"""Pieces of the Discord front end that need no server: settings, layout, choices, CLI."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.config import ConfigError
from bot.core.api import Attachment, Button, Reply, User
from bot.discord_front import DiscordSettings
from bot.discord_front.completion import clip, command_choices, piece_choices, time_choices
from bot.discord_front.render import render
from bot.discord_front.settings import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL


def test_settings_defaults() -> None:
    s = DiscordSettings.from_env({})
    assert s.token == "" and not s.message_content and s.prefix == "!"
    assert not s.sharded and s.shard_ids is None
    assert s.api_base == DEFAULT_API_BASE and s.gateway_url == DEFAULT_GATEWAY_URL
    assert "secret" not in repr(DiscordSettings.from_env({"DISCORD_TOKEN": "secret"}))


def test_settings_read_every_variable() -> None:
    s = DiscordSettings.from_env(
        {
            "DISCORD_TOKEN": "t",
            "DISCORD_MESSAGE_CONTENT": "yes",
            "DISCORD_PREFIX": "?",
            "DISCORD_GUILD_IDS": "5",
            "DISCORD_SHARD_COUNT": "4",
            "DISCORD_SHARD_IDS": "0,1",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
        }
    )
    assert s.message_content and s.prefix == "?" and s.guild_ids == (5,)
    assert s.shard_count == 4 and s.shard_ids == (0, 1) and s.sharded
    assert s.api_base == "http://127.0.0.1:9/api/v10"
    assert DiscordSettings.from_env({"DISCORD_SHARD_COUNT": "auto"}).auto_shard


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DISCORD_SHARD_COUNT": "two"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_COUNT": "0"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_IDS": "0"}, "DISCORD_SHARD_IDS"),
        ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "2"}, "DISCORD_SHARD_IDS"),
        ({"DISCORD_MESSAGE_CONTENT": "maybe"}, "DISCORD_MESSAGE_CONTENT"),
        ({"DISCORD_PREFIX": "!!!!!!"}, "DISCORD_PREFIX"),
        ({"DISCORD_GUILD_IDS": "abc"}, "DISCORD_GUILD_IDS"),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE"),
        ({"DISCORD_GATEWAY_URL": "https://gateway"}, "DISCORD_GATEWAY_URL"),
    ],
)
def test_bad_settings_name_the_variable(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        DiscordSettings.from_env(env)


def test_plain_text_reply_with_pings() -> None:
    alice = User("discord", "111", "alice")
    out = render(Reply("Your move.", mentions=(alice, alice, User("console", "x", "c"))))
    assert out.content == "<@111>\nYour move."
    assert out.embed is None and out.mention_ids == (111,)
    assert out.allowed_mentions().users == [out.allowed_mentions().users[0]]  # type: ignore[index]


def test_long_text_goes_into_an_embed_and_is_cut() -> None:
    out = render(Reply("x" * 5000))
    assert out.content is None and out.embed is not None
    assert out.embed.description is not None and len(out.embed.description) == 4096
    assert out.embed.description.endswith("…")


def test_image_reply_layout_and_extra_files() -> None:
    png = Attachment(b"\x89PNG...", "board.png", "image/png")
    kif = Attachment(b"kif", "game-1.kifu", "text/plain")
    out = render(Reply("Game #1\nalice to move.", image=png, files=(kif,)))
    assert out.embed is not None and out.embed.title == "Game #1"
    assert out.embed.image.url == "attachment://board.png"
    assert [f.filename for f in out.files()] == ["board.png", "game-1.kifu"]


async def test_buttons_are_clipped_to_discord_limits() -> None:
    row = tuple(Button("L" * 90, f"move {i}") for i in range(7))
    out = render(Reply("pick", buttons=(row,) * 7))
    assert len(out.buttons) == 5 and all(len(r) == 5 for r in out.buttons)
    assert all(len(label) == 80 for r in out.buttons for label, _, _ in r)
    view = out.view()
    assert view is not None and len(view.children) == 25 and view.is_finished()


def test_clip_keeps_25_distinct_short_choices() -> None:
    many = [(f"{'n' * 150}{i}", f"v{i % 30}") for i in range(60)]
    clipped = clip(many)
    assert len(clipped) == 25
    assert len({v for _, v in clipped}) == 25
    assert all(len(n) <= 100 for n, _ in clipped)


def test_local_choices() -> None:
    assert [v for _, v in piece_choices("ro", "shogi")][:1] == ["rook"]
    assert [v for _, v in piece_choices("kaku", "shogi")] == ["bishop"]
    assert [v for _, v in piece_choices("鶴", "wa")] == ["crane king"]  # another spelling of 靏
    assert [v for _, v in time_choices("1")] == ["1d", "10m+30s"]
    assert [v for _, v in time_choices("600s+30s")] == ["10m+30s"]
    assert [v for _, v in time_choices("5m+")] == ["5m+30s"]
    assert time_choices("banana") == [] and time_choices("1m+2m+3m") == []
    assert [v for _, v in command_choices("undo")] == ["takeback"]


def test_cli_refuses_to_start_without_a_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["discord"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_cli_reports_bad_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "many")
    assert main(["discord"]) == 2
    assert "DISCORD_SHARD_COUNT" in capsys.readouterr().err


def test_uploads_over_the_limit_are_left_out_and_named() -> None:
    png = Attachment(b"p" * 100, "board.png", "image/png")
    gif = Attachment(b"g" * 1000, "game-1.gif", "image/gif")
    out = render(Reply("Game #1 as gif.", image=png, files=(gif,)), upload_limit=500)
    assert [a.filename for a in out.attachments] == ["board.png"]
    assert out.embed is not None and out.embed.description is not None
    assert "game-1.gif left out" in out.embed.description
    alone = render(Reply("Game #1 as gif.", files=(gif,)), upload_limit=500)
    assert alone.attachments == () and alone.content is not None and "game-1.gif" in alone.content


def test_commands_in_text_are_written_the_discord_way() -> None:
    out = render(Reply("bob: /accept 1 or /decline 1. See /help move; not /shogi, a/b or /moves7."))
    assert out.content == (
        "bob: /shogi accept 1 or /shogi decline 1. "
        "See /shogi help move; not /shogi, a/b or /moves7."
    )
    assert render(Reply("https://example.org/move /board")).content == (
        "https://example.org/move /shogi board"
    )


def test_a_board_without_picture_is_shown_as_text() -> None:
    board = "  9 8 7\na . k .\n"
    out = render(Reply("alice to move.", text_board=board))
    assert out.content == "alice to move.\n```\n  9 8 7\na . k .\n```"
    png = Attachment(b"p", "board.png", "image/png")
    assert "```" not in str(render(Reply("alice to move.", image=png, text_board=board)).embed)
