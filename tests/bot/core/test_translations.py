"""What a native speaker's review of the translations asked for (issue 25, "Translations"):
the Polish rules' terms, templates that stay grammatical whatever fills them, one word per
concept, each language's quotes and lists, and labels on pictures drawn whole."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.core import present
from bot.core.i18n.pofiles import entries, key_of, po_dir, read, texts
from bot.core.messages import CATALOGUE, LANGUAGES, PLURAL_CATALOGUE, listing, text
from render import render_board
from render.cheatsheet import cheatsheet_image
from render.diagram import diagram_image
from render.options import BoardOptions
from rules import Position, available_variants, load_variant
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness

VARIANTS = Path(__file__).resolve().parents[3] / "data" / "variants"


def templates(lang: str) -> Iterator[tuple[str, str]]:
    """Every (key, template) of ``lang``, counted forms included."""
    yield from CATALOGUE[lang].items()
    for key, forms in PLURAL_CATALOGUE[lang].items():
        for form in forms.values():
            yield key, form


def variant_names(lang: str) -> list[str]:
    """Every piece and variant name ``lang`` has in ``data/variants``."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            names = node.get("names")
            if isinstance(names, dict) and lang in names:
                found.append(names[lang])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in VARIANTS.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        walk(data)
        found += [v for k, v in data.get("variant", {}).get("names", {}).items() if k == lang]
    return found


# --- every language --------------------------------------------------------------------------


def test_no_template_prints_python_quotes() -> None:
    """``{x!r}`` wrote Python's 'x' in every language: each language quotes for itself."""
    for po in po_dir().glob("*.po"):
        for message in entries(read(po)):
            for template in (*texts(message.id), *texts(message.string)):
                assert "!r}" not in template, (po.name, key_of(message))


@pytest.mark.parametrize(
    ("lang", "quoted"),
    [("en", "'hello'"), ("ru", "«hello»"), ("pl", "„hello”"), ("ja", "「hello」")],
)
def test_each_language_quotes_what_the_player_wrote_its_own_way(lang: str, quoted: str) -> None:
    assert quoted in text("game.bad_number", lang, text="hello")
    assert quoted in text("challenge.twice", lang, word="hello", other="x", what="y")


@pytest.mark.parametrize(("lang", "stalemate"), [("ru", "пат"), ("pl", "pat"), ("ja", "手詰まり")])
def test_no_legal_moves_is_named_as_players_say_it(lang: str, stalemate: str) -> None:
    assert stalemate in text("result.no_legal_moves", lang).lower()
    assert stalemate in text("board.result.no_legal_moves", lang, winner="x").lower()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_catalogue_says_which_terms_it_uses(lang: str) -> None:
    header = read(po_dir() / f"{lang}.po").header_comment
    chosen = {"ru": ("превращение", "сторона", "допустимый"), "pl": ("figura", "niewoli")}
    chosen["ja"] = ("手詰まり", "受ける", "断る", "先後ランダム")
    assert len(header.splitlines()) > 8, header
    for word in chosen[lang]:
        assert word in header, (lang, word)


# --- Polish: the terms of the Polish rules (shared/seeds) --------------------------------------

# the words the Polish rules do not use, each with the one they use instead
NOT_POLISH_RULES = {
    r"\bbier(?:k|ek|ce)\w*": "figura",
    r"\bpion(?:ek|k)\w*": "pion",
    r"\bskocz(?:ek|k)\w*": "konik",
    r"\bw rę(?:ce|ku)\b|\bz ręki\b": "w niewoli",
    r"\bzrzu\w*": "przywrócić do gry / powrót",
    r"\bpo skosie\b|\bskos\w*": "po ukosie",
    r"\brz[ąę]d(?:y|ów|ach|zie)?\b(?<!z rzędu)": "wiersz",
    r"\blegaln\w*|\bprawidłow\w*": "dozwolony",
}


def not_polish_rules(said: str) -> list[str]:
    said = said.replace("z rzędu", "")  # "in a row" (3 wygrane z rzędu), not a board's row
    return [m.group(0) for p in NOT_POLISH_RULES for m in re.finditer(p, said, re.IGNORECASE)]


def test_the_scanner_finds_words_outside_the_polish_rules() -> None:
    assert not_polish_rules("Bierka w ręce, zrzut po skosie; ostatnie rzędy") == [
        "Bierka",
        "w ręce",
        "zrzut",
        "po skosie",
        "rzędy",
    ]
    assert not_polish_rules("3 wygrane z rzędu; figura w niewoli, ostatni wiersz") == []


def test_polish_templates_and_names_use_the_polish_rules_terms() -> None:
    for key, template in templates("pl"):
        assert not_polish_rules(template) == [], (key, template)
    names = variant_names("pl")
    assert "pion" in names and "konik" in names and "promowany konik" in names
    assert [n for n in names if not_polish_rules(n)] == []


async def test_a_polish_chat_meets_only_the_polish_rules_terms(
    h: Harness, drawn: list[str]
) -> None:
    h.service.render_images = True
    seen: list[str] = []

    async def say(user: Any, command: str, *args: str, **kw: Any) -> None:
        reply = await h.say(user, command, *args, **kw)
        seen.extend([reply.text, reply.text_board or ""])
        seen.extend(b.label for row in reply.buttons for b in row)

    await say(CAROL, "settings", "language", "pl")
    for command in ("help", "cheatsheet"):
        await say(ALICE, command)
    await say(ALICE, "cheatsheet", "wa-drops")
    for piece in ("pion", "konik", "lanca", "goniec", "srebrny generał"):
        await say(ALICE, "piece", piece)
    await say(ALICE, "help", "moves")
    await say(ALICE, "challenge", "wa-drops", "random", "3d", target=BOB)
    await say(ALICE, "cancel")
    await say(ALICE, "challenge", "shogi", "sente", "1d", target=BOB)
    await say(BOB, "accept")
    await say(ALICE, "move", "7g7f")
    await say(BOB, "move", "3c3d")
    await say(ALICE, "move", "8h2b+")
    await say(BOB, "move", "3a2b")
    await say(ALICE, "move", "B*1a")  # a bishop in hand, dropped where it cannot move? (it can)
    await say(BOB, "moves", "2b")
    await say(BOB, "move", "P*3c")  # nifu in the 3rd column
    await say(BOB, "move", "R*5e")  # not in hand
    await say(BOB, "board")
    seen += [reply.text for _, reply in h.outbox.sent]
    assert drawn
    for said in [*seen, *drawn]:
        assert not_polish_rules(said) == [], said
    everything = "\n".join(seen)
    assert "w niewoli" in everything and "figur" in everything


def test_polish_templates_read_as_sentences() -> None:
    card = text(
        "challenge.card",
        "pl",
        challenge=3,
        challenger="alice",
        challenged="bob",
        variant="Shogi",
        color=text("color.random", "pl"),
        time="3 dni na ruch",
        expires="jutro",
    )
    assert "Kolor gracza alice: losowy" in card and "gra kolorem" not in card
    nifu = text("rules.nifu", "pl", piece="pion", other="5g")
    assert nifu.startswith("w tej kolumnie") and "na tej kolumnie" not in nifu
    waiting = text("draw.already", "pl", opponent="bob")
    assert "odpowiedź gracza bob" in waiting and "odpowiedź: bob" not in waiting
    sheets = "/cheatsheet shogi lub /cheatsheet wa"
    for key in ("piece.not_found", "piece.which"):
        filled = text(key, "pl", problem="x", sheets=sheets, query="q", names="a, b")
        assert "pokaże" not in filled and f"Wszystkie figury: {sheets}." in filled


def test_polish_uses_one_word_per_concept() -> None:
    for key, template in templates("pl"):
        assert not re.search(r"\blegaln|\bprawidłow", template, re.I), (key, template)
    # "ranking" is a player's number only; the table of the best is "najlepsi gracze"
    assert "Ranking" not in text("leaderboard.title", "pl", variant="v", where="w", page=1, pages=1)


# --- Russian ---------------------------------------------------------------------------------


def test_russian_templates_need_no_gender() -> None:
    for key, template in templates("ru"):
        assert "(а)" not in template, (key, template)
    bot = text("bot.name", "ru", level=1)
    assert bot == "Komabot (уровень 1)"
    assert text("move.played", "ru", mover=bot, move="P-7f") == "Ход Komabot (уровень 1): P-7f."
    assert text("challenge.closed.declined", "ru", name="alice", challenge=3) == (
        "Вызов #3 отклонён игроком alice."
    )


def test_russian_templates_read_as_sentences() -> None:
    card = text(
        "challenge.card",
        "ru",
        challenge=3,
        challenger="alice",
        challenged="bob",
        variant="Сёги",
        color=text("color.random", "ru"),
        time="3 дня на ход",
        expires="завтра",
    )
    assert "Сторона alice: по жребию" in card and "играет за" not in card
    twice = text(
        "challenge.twice",
        "ru",
        word="rated",
        other="casual",
        what=text("challenge.what.rated", "ru"),
    )
    assert twice == (
        "«rated» и «casual» задают одно и то же (рейтинговая или товарищеская); выберите одно."
    )
    assert text("move.ambiguous", "ru", text="Gx") == (
        "«Gx» может означать несколько ходов; выберите один:"
    )


def test_russian_uses_one_word_per_concept() -> None:
    """превращение (not переворот), сторона (not цвет), допустимый (not возможный)."""
    for key, template in templates("ru"):
        low = template.lower()
        assert not re.search(r"перев[её]рн|переворот|перевернут", low), (key, template)
        assert not re.search(r"\bцвет", low), (key, template)
        assert not re.search(r"возможн\w* ход|легальн", low), (key, template)
    for name in variant_names("ru"):
        assert "перевёрн" not in name, name


# --- Japanese --------------------------------------------------------------------------------


def test_japanese_lists_and_quotes_are_japanese() -> None:
    assert listing(["a", "b", "c"], "ja") == "a、b、c"
    assert listing(["a", "b"], "en") == "a, b"
    assert text("settings.changed", "ja", changes=["language ja", "notation usi"]) == (
        "設定を変更しました：language ja、notation usi。"
    )
    for key, template in templates("ja"):
        assert "'" not in template and '"' not in template, (key, template)
        literal = re.sub(r"\{[^}]*\}", "", template)
        assert not re.search(r"[^\x00-\x7f], |, [^\x00-\x7f]", literal), (key, template)


async def test_a_japanese_chat_lists_with_the_japanese_comma(h: Harness) -> None:
    await h.say(CAROL, "settings", "language", "ja")
    reply = await h.say(ALICE, "settings", "language", "xx")
    assert "en、ja、pl、ru" in reply.text, reply.text


def test_japanese_names_people_without_honorifics_the_bot_would_get_too() -> None:
    """さん would follow the bot's name too; only the reminder, always to a person, has it."""
    for key, template in templates("ja"):
        if key != "clock.reminder":
            assert "さん" not in template, (key, template)
    for key, template in templates("ja"):
        assert "知り合い" not in template and "振り駒" not in template, (key, template)


def test_japanese_templates_read_as_sentences() -> None:
    card = text(
        "challenge.card",
        "ja",
        challenge=3,
        challenger="alice",
        challenged="bob",
        variant="将棋",
        color=text("color.random", "ja"),
        time="1手3日",
        expires="明日",
    )
    assert "alice：先後ランダム" in card and "は手番は" not in card
    zone = text("rules.promotion_outside_zone", "ja", depth=3, origin="7g", square="7f")
    assert "移動元か移動先" in zone  # a move inside the zone promotes too, not only in or out


def test_japanese_uses_one_word_per_concept() -> None:
    """受ける for accepting, 断る for declining (not 承諾, 受諾, 拒否, 辞退)."""
    for key, template in templates("ja"):
        for other in ("承諾", "受諾", "拒否", "辞退"):
            assert other not in template, (key, template)


# --- labels on pictures: drawn whole, smaller if need be -------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_piece_diagrams_and_cheat_sheets_draw_every_label_whole(
    lang: str, drawn: list[str]
) -> None:
    words = present.diagram_words(lang)
    for variant_id in available_variants():
        variant = load_variant(variant_id)
        cheatsheet_image(variant, words=words)
        for piece in variant.pieces:
            if not piece.promoted:
                diagram_image(variant, piece.kind, words=words)
    assert len(drawn) > 100
    assert [t for t in drawn if "…" in t] == []
    if lang == "ru":  # wider than its panel at the usual size: drawn smaller, whole
        assert "превращённая: скользящая ласточка" in drawn
        assert "превращённая: трудолюбивый вол" in drawn


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
def test_the_bots_name_is_drawn_whole_beside_the_hand(
    lang: str, variant_id: str, drawn: list[str]
) -> None:
    pos = Position.start(load_variant(variant_id))
    bot = text("bot.name", lang, level=8)
    render_board(pos, BoardOptions(sente_name=bot, gote_name="alice"))
    assert bot in drawn, drawn


def test_a_very_long_name_is_still_shortened(drawn: list[str]) -> None:
    pos = Position.start(load_variant("shogi"))
    render_board(pos, BoardOptions(sente_name="x" * 300, gote_name="alice"))
    assert any(t.endswith("…") and t.startswith("xxx") for t in drawn), drawn
