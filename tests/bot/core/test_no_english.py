"""A chat in another language never meets English: a scripted game with every kind of refusal,
/help, /piece, /cheatsheet, ratings and an export, played in each language; every reply, button,
text board and every word drawn on an image is scanned for words of the English catalogue."""

from __future__ import annotations

import re
import string
from dataclasses import replace
from typing import Any

import pytest

from bot.core import present
from bot.core.api import Reply
from bot.core.commands import COMMANDS, PLACEHOLDER
from bot.core.messages import CATALOGUE, EN, EN_PLURAL, LANGUAGES, PLURAL_CATALOGUE, text
from render.charset import label_chars
from rules import Position, RulesError, available_variants, load_variant
from rules.notation import parse_move
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness

OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]
WORD = re.compile(r"[A-Za-z]{3,}")


def _literal(template: str) -> str:
    """A template without its placeholders: only the words it says itself."""
    return " ".join(lit for lit, *_ in string.Formatter().parse(template))


def english_words() -> set[str]:
    """Every word of the English catalogue and of the English piece and variant names."""
    templates = [*EN.values(), *(f for forms in EN_PLURAL.values() for f in forms.values())]
    romaji: set[str] = set()  # Japanese names in Latin letters, as every language shows them
    for variant_id in available_variants():
        variant = load_variant(variant_id)
        templates += [variant.names["en"], *(p.names["en"] for p in variant.pieces)]
        romaji |= {w.lower() for p in variant.pieces for w in WORD.findall(p.names["romaji"])}
    words = {w.lower() for t in templates for w in WORD.findall(_literal(t))}
    return words - allowed_words() - romaji


def allowed_words() -> set[str]:
    """What a player types in any language: command names, their arguments and values, record
    formats, notation names; and the people of the tests."""
    typed = {c.name for c in COMMANDS} | {a for c in COMMANDS for a in c.aliases}
    for c in COMMANDS:  # what the syntax leaves to type as it is (not its placeholders)
        typed |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", c.syntax))}
    typed |= {
        *("language", "notation", "style", "perspective", "bare", "threads", "reminders"),
        *("western", "japanese", "kanji", "international", "mover", "chat", "off"),
        *("kif", "kifu", "csa", "usi", "gif", "utc", "sfen", "komabot", "shift", "ctrl", "jis"),
        *("alice", "bob", "carol", "dave", "yes", "level"),
        *("discord", "telegram", "console"),
        # the Japanese names of rules, as players of every language say them
        *("nifu", "uchifuzume", "sennichite", "shogi", "byoyomi"),
        # words Polish shares with English
        *("format", "same", "ten"),
    }
    return typed


def leftovers(said: str, english: set[str]) -> list[str]:
    """English words in ``said``, leaving out commands (``/board 12``) and what the player
    wrote, quoted back as the language quotes (``'hello'``, ``«hello»``, ``„hello”``,
    ``「hello」``)."""
    said = re.sub(r"/[a-z]+", " ", said)  # /commands
    said = re.sub(r"'[^'\n]*'|«[^»\n]*»|„[^”\n]*”|「[^」\n]*」", " ", said)  # the player's words
    return [w for w in WORD.findall(said) if w.lower() in english]


class Seen:
    """Everything a player of the chat is shown."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.drawn: list[str] = []

    def reply(self, reply: Reply) -> Reply:
        self.texts.append(reply.text)
        if reply.text_board:
            self.texts.append(reply.text_board)
        self.texts += [b.label for row in reply.buttons for b in row]
        for record in reply.files:  # game records: KIF (Shift-JIS), KIFU, CSA, USI
            if record.filename.endswith((".kif", ".kifu")):
                encoding = "shift_jis" if record.filename.endswith(".kif") else "utf-8"
                lines = record.data.decode(encoding).splitlines()
                # '#' lines are the format's own directives (#KIF version=2.0 encoding=UTF-8)
                self.texts.append("\n".join(x for x in lines if not x.startswith("#")))
        return reply


# refusals the rules give, as (SFEN or None for the start, move text)
REFUSALS = [
    (None, "5e5d"),  # no piece
    (None, "3c3d"),  # the opponent's piece
    (None, "9i9g"),  # own piece on the target
    (None, "2h3f"),  # the piece cannot move so
    (None, "2h2c"),  # the way is blocked
    (None, "5g5f+"),  # promotion outside the zone
    ("k8/9/9/9/9/9/9/4G4/4K4 b - 1", "5h5g+"),  # never promotes
    ("k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a"),  # must promote
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "R*2b"),  # not in hand
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*1a"),  # dead drop
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"),  # nifu
    ("8k/6G2/7G1/9/9/9/9/9/4K4 b P 1", "P*1b"),  # uchifuzume
    ("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1", "5h4h"),  # leaves the king in check
    ("4k4/9/9/9/4r4/9/9/9/4K4 b - 1", "5i5h"),  # still in check
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5i"),  # occupied
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "+P*5e"),  # a promoted piece dropped
    (None, "hello"),  # unreadable
    (None, "+-7f"),  # a + without a piece
    (None, "P7g*7f"),  # a drop with an origin
    (None, "*5e"),  # a drop without a piece
    (None, "P*5e+"),  # a drop that promotes
    (None, "7g7g"),  # the same square
    (None, "P-7z"),  # not a square
    (None, "Z-7f"),  # no such piece letter
    (None, "R-5e"),  # the rook cannot reach
    (None, "N-5e"),  # no knight reaches
    (None, "B*5e"),  # no bishop in hand
    (None, "同歩"),  # no previous move
    (None, "７六歩打打"),  # unreadable after the piece
    (None, "７六歩右左"),  # two side marks
    (None, "７六歩(77)打"),  # a drop with an origin
    (None, "７六鳩"),  # not a piece name after the square
    (None, "七七七七七七七七七七七七七七歩"),  # too long for a square
    (None, "歩"),  # no square first
    (None, "７六歩(99)"),  # not an origin here
    (None, "8h2b"),  # blocked USI
    (None, "7g7f7e"),  # not a move at all
    (None, "X*5e"),  # not a droppable USI piece
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "P-5e"),  # no pawn at all
    ("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i5h+"),  # a king never promotes
    (None, "x" * 80),  # too long
    ("ln1gkg1nl/1r1s3b1/pppp1pppp/4p4/9/4P4/PPPP1PPPP/1B5R1/LNSGKGSNL b s 1", "S*5e+"),
]
WA_REFUSALS = [
    (None, "SP-12a"),  # not a square on 11x11
    (None, "8h8h"),
    (None, "P*5e"),  # no drops in Wa
    (None, "1010"),  # all digits on a big board
    (None, "８七歩"),  # a Standard Shogi piece in a Wa move
    (None, "８七王将"),  # a piece of another variant nothing here moves like
]


def refusal(variant_id: str, sfen: str | None, move_text: str, lang: str) -> str:
    variant = load_variant(variant_id)
    pos = Position.from_sfen(variant, sfen) if sfen else Position.start(variant)
    with pytest.raises(RulesError) as caught:
        parse_move(pos, move_text)
    return present.rules_problem(caught.value, pos, lang)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_refusal_of_the_rules_is_in_the_language(lang: str) -> None:
    english = english_words()
    for variant_id, cases in (("shogi", REFUSALS), ("wa", WA_REFUSALS)):
        for sfen, move_text in cases:
            said = refusal(variant_id, sfen, move_text, lang)
            english_reply = refusal(variant_id, sfen, move_text, "en")
            assert said != english_reply, (move_text, said)
            assert leftovers(said, english) == [], (move_text, said)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
async def test_a_whole_game_in_the_language_has_no_english(
    h: Harness, drawn: list[str], lang: str
) -> None:
    english = english_words()
    seen = Seen()
    h.service.pictures.enabled = True

    async def say(user: Any, command: str, *args: str, **kw: Any) -> Reply:
        return seen.reply(await h.say(user, command, *args, **kw))

    await say(CAROL, "settings", "language", lang)
    for command in ("help", "settings", "games", "rating", "leaderboard", "history"):
        await say(ALICE, command)
    await say(ALICE, "help", "move")
    await say(ALICE, "help", "challenge")
    await say(ALICE, "nonsense")
    await say(ALICE, "bord")
    await say(ALICE, "piece", "rook")
    await say(ALICE, "piece", "fox", "wa")
    await say(ALICE, "piece", "wooden falcon")
    await say(ALICE, "piece", "eagle")
    await say(ALICE, "piece", "сокол", "wa")
    await say(ALICE, "piece")
    await say(ALICE, "cheatsheet")
    await say(ALICE, "cheatsheet", "wa")
    await say(ALICE, "challenge", "chess")
    await say(ALICE, "challenge", "shogi", "99d", target=BOB)
    await say(ALICE, "challenge", target=ALICE)
    await say(ALICE, "play", "level", "12")
    await say(ALICE, "challenge", "shogi", "sente", "3d", target=BOB)
    await say(BOB, "accept")
    await say(ALICE, "move")
    await say(BOB, "move", "3c3d")
    await say(ALICE, "move", "7g7f")
    await say(ALICE, "move", "3c3d")
    await say(BOB, "move", "8b8h")
    await say(BOB, "move", "hello")
    await say(BOB, "moves", "12a")
    await say(BOB, "moves", "5e")
    await say(BOB, "moves", "2b")
    await say(BOB, "move", "3c3d")
    await say(ALICE, "board")
    await say(ALICE, "games")
    await say(ALICE, "draw")
    await say(BOB, "draw", "decline")
    await say(ALICE, "takeback")
    await say(BOB, "takeback", "decline")
    await say(ALICE, "impasse")
    await say(ALICE, "abort")
    await say(ALICE, "export", "kif")
    await say(ALICE, "export", "kifu")
    await say(ALICE, "export", "gif")
    await say(ALICE, "export", "pdf")
    await say(ALICE, "resign")
    await say(ALICE, "resign", "yes")
    await say(ALICE, "rating", "@bob")
    await say(ALICE, "history")
    seen.texts += [reply.text for _, reply in h.outbox.sent]
    game = await h.store.get_game(1)
    assert game is not None and game.termination == "resignation"
    # the deadline reminder, in the chat's language
    await h.say(ALICE, "challenge", "shogi", "sente", "1d", target=BOB)
    await h.say(BOB, "accept")
    await h.clock.advance(23.5 * 3600)
    seen.texts += [reply.text for _, reply in h.outbox.sent]
    said = [t for t in seen.texts if leftovers(t, english)]
    assert said == [], [(t, leftovers(t, english)) for t in said]
    assert len(drawn) > 50
    on_images = [t for t in drawn if leftovers(t, english)]
    assert on_images == [], on_images
    assert set("".join(drawn)) <= label_chars()  # the fonts draw every letter


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
async def test_a_finished_game_and_its_replay_have_no_english(
    h: Harness, drawn: list[str], lang: str
) -> None:
    english = english_words()
    h.service.pictures.enabled = True
    await h.say(CAROL, "settings", "language", lang)
    await h.say(ALICE, "challenge", "shogi", "sente", "1d", target=BOB)
    await h.say(BOB, "accept")
    game = await h.game(1)
    sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # a mate in one by a drop
    await h.store.update_game(replace(await h.game(game.id), start_sfen=sfen))
    h.service.games.positions.forget(game.id)
    drawn.clear()
    mate = await h.say(ALICE, "move", "G*5b")
    gif = await h.say(ALICE, "export", "gif", str(game.id))
    texts = [mate.text, gif.text, *(b.label for row in mate.buttons for b in row)]
    assert [t for t in texts if leftovers(t, english)] == []
    assert drawn and [t for t in drawn if leftovers(t, english)] == []
    assert text("board.result.checkmate", lang, winner="Alice") in drawn


def test_the_scanner_finds_english() -> None:
    english = english_words()
    assert leftovers("Ход не сделан: your crane king on 6k cannot move to 6i", english)
    assert leftovers("на одну клетку · one step", english) == ["one", "step"]
    assert leftovers("/board 12 · 7g7f · Alice", english) == []


def test_a_japanese_chat_names_squares_in_japanese() -> None:
    pos = Position.start(load_variant("shogi"))
    with pytest.raises(RulesError) as caught:
        parse_move(pos, "8h2b")
    said = present.rules_problem(caught.value, pos, "ja", "japanese")
    assert "８八" in said and "２二" in said and "７七" in said and "8h" not in said, said
    assert "8h" in present.rules_problem(caught.value, pos, "ja", "western")


async def test_a_chat_turned_japanese_writes_moves_in_japanese(h: Harness) -> None:
    changed = await h.say(CAROL, "settings", "language", "ja")
    assert changed.text == "設定を変更しました：language ja、notation japanese。"
    await h.say(ALICE, "challenge", "shogi", "sente", "1d", target=BOB)
    await h.say(BOB, "accept")
    played = await h.say(ALICE, "move", "7g7f")
    assert played.text.startswith("Alice：７六歩")
    moves = await h.say(BOB, "moves", "3c")
    assert moves.text == "Bob の３三の歩兵（後手）の動ける先：３四歩。"
    await h.say(CAROL, "settings", "language", "en")
    kept = await h.say(CAROL, "settings", "language", "ja", "notation", "usi")
    assert kept.text == "設定を変更しました：language ja、notation usi。"


# Messages that name what only exists in English: the labels of Discord's developer portal
# (for whoever runs the bot) and the slash command's option names
QUOTES_ENGLISH = {
    "discord.intent_missing": {"message", "content", "intent", "privileged", "gateway", "intents"}
}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_no_template_of_the_language_has_english_words(lang: str) -> None:
    """Every message and every plural form, also those the scripted game does not reach."""
    english = english_words() - {"opponent", "utf"}  # an option's name; UTF-8
    for key, template in CATALOGUE[lang].items():
        found = {w.lower() for w in leftovers(_literal(template), english)}
        assert found <= QUOTES_ENGLISH.get(key, set()), (key, found)
    for key, forms in PLURAL_CATALOGUE[lang].items():
        for form in forms.values():
            assert leftovers(_literal(form), english) == [], (key, form)


async def test_the_notation_follows_the_language_until_a_chat_chooses_one(h: Harness) -> None:
    await h.say(CAROL, "settings", "language", "ja")
    back = await h.say(CAROL, "settings", "language", "en")
    assert back.text == "Settings changed: language en, notation western.", back.text
    assert (await h.store.get_settings(MAIN)).notation == "western"
    await h.say(CAROL, "settings", "language", "ru")  # Western already: nothing more changes
    assert (await h.store.get_settings(MAIN)).notation == "western"
    await h.say(CAROL, "settings", "notation", "usi")
    assert (await h.store.get_settings(MAIN)).notation_chosen
    chosen = await h.say(CAROL, "settings", "language", "ja")
    assert chosen.text == "設定を変更しました：language ja。", chosen.text
    await h.say(CAROL, "settings", "notation", "japanese")
    await h.say(CAROL, "settings", "language", "en")  # Japanese notation was chosen: it stays
    assert (await h.store.get_settings(MAIN)).notation == "japanese"
