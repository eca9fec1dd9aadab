"""The message catalogue: every key the code uses exists, and every template formats."""

from __future__ import annotations

import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from bot.core.commands import COMMANDS
from bot.core.messages import CATALOGUE, EN, LANGUAGES, locale, text

BOT = Path(__file__).resolve().parents[3] / "bot"
CORE = BOT / "core"
# t("key", ...), text("key", ...), UserError("key", ...)
USE = re.compile(r"""(?:\bt|\btext|UserError)\(\s*(?:f?)["']([a-z_]+(?:\.[a-z_{}.]+)+)["']""")


def used_keys() -> set[str]:
    keys = set()
    for path in CORE.rglob("*.py"):
        keys |= set(USE.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_key_used_in_the_code_exists() -> None:
    keys = used_keys()
    assert len(keys) > 100
    for key in keys:
        if "{" in key:  # f-string keys: every expansion the code can make
            prefix = key.split("{")[0]
            assert any(k.startswith(prefix) for k in EN), key
        else:
            assert key in EN, key


def test_every_message_is_used() -> None:
    source = "".join(  # the service and the front ends
        p.read_text(encoding="utf-8")
        for p in BOT.rglob("*.py")
        if not p.name.startswith("messages")
    )
    # rules.<code>[.<reason>]: present.rules_key names them from the error (see the test below)
    # choice.<argument>.<value>: the Discord front end names an option's choices by them;
    # syntax.<placeholder>: Command.syntax_in
    # slash.command.<command>, slash.option.<argument>: Discord's localized names (see below)
    prefixes = [k.split("{")[0] for k in used_keys() if "{" in k]
    prefixes += ["rules.", "choice.", "syntax.", "slash."]
    unused = [
        k for k in EN if f'"{k}"' not in source and not any(k.startswith(p) for p in prefixes)
    ]
    assert unused == []


def test_dynamic_keys_cover_their_values() -> None:
    from rules import Termination

    for term in Termination:
        assert f"result.{term.value}" in EN
    for c in COMMANDS:
        assert c.summary() and f"cmd.{c.name}" in EN
    for status in ("accepted", "declined", "cancelled", "expired", "open"):
        assert f"challenge.status.{status}" in EN
    from bot.discord_front.commands import build_group

    slash = build_group(None, None)  # type: ignore[arg-type]  # only its names are read
    names = {f"slash.command.{c.name}" for c in slash.commands}
    for c in slash.commands:
        assert EN[f"slash.command.{c.name}"] == c.name  # English: the canonical name
        for p in c.parameters:  # type: ignore[union-attr]
            assert EN[f"slash.option.{p.name}"] == p.name
            names.add(f"slash.option.{p.name}")
    assert {k for k in EN if k.startswith("slash.")} == names  # and no name for nothing
    from engine.levels import LEVELS

    for lang, table in CATALOGUE.items():  # what to expect of each level, in every language
        assert {f"bot.level.{n}" for n in LEVELS} <= set(table), lang
    assert {k for k in EN if k.startswith("bot.level.")} == {f"bot.level.{n}" for n in LEVELS}


def test_templates_format_and_languages_share_keys() -> None:
    for key, template in EN.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        text(key, "en", **{f.split("!")[0]: "x" for f in fields})
    for lang, table in CATALOGUE.items():
        assert set(table) <= set(EN), lang
    assert text("games.here", "xx") == EN["games.here"]  # unknown language: English


def placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_is_complete_with_the_same_placeholders(lang: str) -> None:
    table = CATALOGUE[lang]
    assert set(table) == set(EN)
    for key, template in EN.items():
        assert placeholders(table[key]) == placeholders(template), key
        assert table[key].strip(), key
    assert text("games.here", "ru") == "этот чат"


def test_every_language_has_every_plural_form_its_rules_need() -> None:
    from bot.core.messages import EN_PLURAL, PLURAL_CATALOGUE, plural_categories

    assert set(PLURAL_CATALOGUE) == set(CATALOGUE)
    for lang, table in PLURAL_CATALOGUE.items():
        assert set(table) == set(EN_PLURAL), lang
        needed = plural_categories(lang)  # the categories whole numbers fall into
        assert needed <= locale(lang).plural_form.tags | {"other"}
        for key, forms in table.items():
            assert set(forms) == needed, (lang, key)  # every form the language needs, no more
            for form in forms.values():
                assert placeholders(form) == placeholders(EN_PLURAL[key]["other"]), (lang, key)
    assert not set(EN_PLURAL) & set(EN)  # a key is counted or plain, not both


@pytest.mark.parametrize(
    ("n", "days", "hours"),
    [
        (1, "1 день", "1 час"),
        (2, "2 дня", "2 часа"),
        (5, "5 дней", "5 часов"),
        (11, "11 дней", "11 часов"),
        (21, "21 день", "21 час"),
        (22, "22 дня", "22 часа"),
    ],
)
def test_russian_plural_forms_follow_babel(n: int, days: str, hours: str) -> None:
    from bot.core.messages import plural

    assert plural("unit.d", "ru", n) == days
    assert plural("unit.h", "ru", n) == hours


def test_deadlines_and_durations_in_russian() -> None:
    from bot.core import present

    wednesday = 1795609500.0  # Wed 25 Nov 2026 12:25 UTC
    now = wednesday - (2 * 86400 + 23 * 3600)
    assert present.format_deadline(wednesday, now, "ru") == (
        "срок ср, 25 нояб. 12:25 UTC (через 2 дня 23 часа)"
    )
    assert present.format_deadline(wednesday, now, "en") == (
        "deadline Wed, Nov 25 12:25 UTC (in 2d 23h)"
    )
    assert present.format_delta(5 * 86400 + 5 * 3600, "ru") == "5 дней 5 часов"
    assert present.format_delta(21 * 60, "ru") == "21 минуту"
    assert present.format_time_control(3 * 86400, "ru") == "3 дня на ход"
    assert present.format_time_control(3 * 86400, "en") == "3d per move"


def test_times_kept_per_minute_read_as_babel_writes_each_one() -> None:
    """format_when keeps what it wrote per minute (per second when precise): any moment of
    any language still reads as Babel writes that very moment, seconds dropped unless
    precise, whichever moment of its minute came first."""
    import datetime as dt
    import random

    from babel.dates import format_datetime, format_skeleton

    from bot.core import present
    from bot.core.messages import locale, plural_category

    rng = random.Random(26)
    for _ in range(400):
        ts = rng.uniform(1.7e9, 1.9e9)
        lang, precise = rng.choice(LANGUAGES), rng.random() < 0.5
        when = dt.datetime.fromtimestamp(ts, dt.UTC)
        clock = "HH:mm:ss" if precise else "HH:mm"
        expected = (
            f"{format_skeleton('MMMEd', when, locale=locale(lang))} "
            f"{format_datetime(when, clock, tzinfo=dt.UTC, locale=locale(lang))} UTC"
        )
        later = ts - ts % 60 + 59.9 if not precise else ts - ts % 1 + 0.99
        assert present.format_when(later, lang, precise=precise) == expected
        assert present.format_when(ts, lang, precise=precise) == expected
        n = rng.randrange(200)
        assert plural_category(lang, n) == locale(lang).plural_form(n)


def test_discord_deadlines_are_timestamps_its_clients_write_out() -> None:
    from bot.core import present

    deadline = 1795609500.0
    for lang in LANGUAGES:
        said = present.format_deadline(deadline, deadline - 3600, lang, "discord")
        assert "<t:1795609500:f>" in said and "<t:1795609500:R>" in said, said
        assert "UTC" not in said
    assert present.format_deadline(deadline, deadline - 3600, "ru", "discord") == (
        "срок <t:1795609500:f> (<t:1795609500:R>)"
    )
    assert present.format_when(deadline, "ja", "telegram") == "11月25日(水) 12:25 UTC"


RULES = BOT.parent / "rules"
# errors of files, records and SFEN the players never see as a chat reply
INTERNAL_CODES = {
    "bad_betza",
    "bad_sfen",
    "bad_variant_file",
    "bad_handicap",  # a variant file's handicap, refused at load (as bad_variant_file)
    "unknown_variant",
    "nothing_to_undo",
    "invalid_impasse",
    "bad_number",
    "ambiguous_move",
    "promotion_choice",
    "ambiguous_piece",
    "rules_error",
    # records: imported by the command line only; /export checks the format first
    "bad_record",
    "bad_record_board",
    "bad_record_encoding",
    "bad_record_move",
    "empty_record",
    "format_not_for_variant",
    "record_too_large",
    "unknown_format",
}


def test_every_rules_error_a_player_can_meet_has_a_message() -> None:
    """Each code and reason the rules core raises (``code="..."``, ``reason="..."``, an
    explanation's code) has its catalogue entry, and each entry names a real one."""
    source = "".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    raised = set(re.findall(r'code(?:: str)? ?= ?"([a-z_]+)"', source))
    raised |= set(re.findall(r'_error\(\s*(?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"', source))
    reasons = set(
        re.findall(r'reason=(?:"([a-z_]+)"|"[a-z_]+" if [^\n]* else "([a-z_]+)")', source)
    )
    rules_keys = {k for k in EN if k.startswith("rules.")}
    codes = {k.split(".")[1] for k in rules_keys}
    missing = raised - INTERNAL_CODES - codes
    assert missing == set(), missing
    for key in rules_keys - {"rules.examples", "rules.examples.drop"}:
        parts = key.split(".")
        assert parts[1] in raised, key
        if len(parts) == 3:
            assert f'"{parts[2]}"' in source, key
    assert reasons


def test_every_choice_name_is_a_choice_of_a_command() -> None:
    offered = {(a.name, c) for command in COMMANDS for a in command.arguments for c in a.choices}
    named = {tuple(k.split(".", 2)[1:]) for k in EN if k.startswith("choice.")}
    assert named <= offered, named - offered
    for command in COMMANDS:
        for argument in command.arguments:
            assert argument.key in EN, argument.key


# --- the .po files -------------------------------------------------------------------------

PO_DIR = BOT / "core" / "i18n"


@pytest.fixture
def po_copy(tmp_path: Path) -> Path:
    """A copy of the .po files to break on purpose."""
    for po in PO_DIR.glob("*.po"):
        (tmp_path / po.name).write_bytes(po.read_bytes())
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    content = path.read_text(encoding="utf-8")
    assert content.count(old) == 1, old
    path.write_text(content.replace(old, new), encoding="utf-8")


def po_problems(folder: Path) -> list[str]:
    from bot.core.i18n.checks import problems
    from bot.core.i18n.pofiles import read_all

    return problems(read_all(folder))


def test_the_po_files_pass_every_check() -> None:
    assert po_problems(PO_DIR) == []
    assert sorted(p.stem for p in PO_DIR.glob("*.po")) == sorted(LANGUAGES)
    assert LANGUAGES[0] == "en"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt not installed")
def test_gnu_msgfmt_reads_every_file_strictly() -> None:
    for po in PO_DIR.glob("*.po"):
        done = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True
        )
        assert done.returncode == 0, (po.name, done.stderr)
        assert "warning" not in done.stderr, (po.name, done.stderr)


def test_a_translation_with_other_placeholders_fails(po_copy: Path) -> None:
    edit(po_copy / "ru.po", 'msgstr "Партии #{game} нет."', 'msgstr "Партии #{number} нет."')
    assert po_problems(po_copy) == [
        "ru.po game.not_found: placeholders ['number'] differ from English ['game']"
    ]


def test_a_missing_plural_form_fails(po_copy: Path) -> None:
    edit(po_copy / "pl.po", 'msgstr[2] "{n} dni"', 'msgstr[2] ""')
    assert po_problems(po_copy) == ["pl.po unit.d: plural form 2 is missing"]


def test_a_plural_form_with_a_wrong_placeholder_fails(po_copy: Path) -> None:
    edit(po_copy / "pl.po", 'msgstr[1] "{n} dni"', 'msgstr[1] "{count} dni"')
    assert po_problems(po_copy) == [
        "pl.po unit.d form 1: placeholders ['count'] differ from English ['n']"
    ]


def test_a_changed_english_text_is_caught_until_its_translations_are_marked_fuzzy(
    po_copy: Path,
) -> None:
    """en.po changes a line: every translation of it is stale, and the check fails; the update
    marks them fuzzy (the bot says English meanwhile); a translator's review makes them count."""
    from bot.core.i18n import sync
    from bot.core.i18n.pofiles import read, read_all, write
    from bot.core.i18n.tables import load

    old, new = "There is no game #{game}.", "No game has the number #{game}."
    edit(po_copy / "en.po", f'msgid "{old}"', f'msgid "{new}"')
    found = po_problems(po_copy)
    assert len(found) == 3
    for lang, line in zip(("ja", "pl", "ru"), found, strict=True):
        assert line.startswith(f"{lang}.po game.not_found: the English text changed"), line

    catalogs = read_all(po_copy)
    for lang in ("ja", "pl", "ru"):
        report = sync.update(catalogs[lang], catalogs["en"])
        assert report == {"fuzzy": ["game.not_found"], "new": [], "removed": []}
        write(catalogs[lang], po_copy / f"{lang}.po")
    assert po_problems(po_copy) == []
    ru = read(po_copy / "ru.po")
    entry = ru.get(new, context="game.not_found")
    assert entry is not None and entry.fuzzy and entry.previous_id == [old]
    assert '#| msgid "There is no game #{game}."' in (po_copy / "ru.po").read_text("utf-8")
    tables = load(po_copy)
    assert "game.not_found" not in tables.plain["ru"]  # fuzzy: English at run time
    assert tables.plain["en"]["game.not_found"] == new

    # the translator reviews it: the fuzzy mark goes, and the translation is used again
    edit(
        po_copy / "ru.po",
        f'#, fuzzy, python-brace-format\n#| msgid "{old}"\n',
        "#, python-brace-format\n",
    )
    assert po_problems(po_copy) == []
    assert load(po_copy).plain["ru"]["game.not_found"] == "Партии #{game} нет."


def test_an_english_text_changed_without_the_update_fails_even_for_one_language(
    po_copy: Path,
) -> None:
    """A translator who updated ru.po's msgid by hand but not ja.po's: only ja.po is stale."""
    from bot.core.i18n import sync
    from bot.core.i18n.pofiles import read_all, write

    edit(po_copy / "en.po", 'msgid "Show the board"', 'msgid "Show the game\'s board"')
    catalogs = read_all(po_copy)
    for lang in ("pl", "ru"):
        sync.update(catalogs[lang], catalogs["en"])
        write(catalogs[lang], po_copy / f"{lang}.po")
    assert [p.split(":")[0] for p in po_problems(po_copy)] == ["ja.po cmd.board"]


def test_update_adds_new_keys_and_removes_old_ones(po_copy: Path) -> None:
    from bot.core.i18n import sync
    from bot.core.i18n.pofiles import read_all

    edit(po_copy / "en.po", 'msgctxt "cmd.board"', 'msgctxt "cmd.board_image"')
    catalogs = read_all(po_copy)
    report = sync.update(catalogs["ru"], catalogs["en"])
    assert report == {"fuzzy": [], "new": ["cmd.board_image"], "removed": ["cmd.board"]}


def test_the_plural_forms_of_each_file_map_to_cldr_categories_as_documented() -> None:
    """The .po files number their forms by their Plural-Forms header; the bot picks a form by
    Babel's CLDR category.  The mapping is fixed per language, and for every whole number the
    form the bot picks is the one GNU gettext's own expression picks."""
    import gettext

    from bot.core.i18n.plurals import category_indices
    from bot.core.i18n.pofiles import read_all
    from bot.core.messages import plural

    catalogs = read_all(PO_DIR)
    expected = {
        "en": {"one": 0, "other": 1},
        "ja": {"other": 0},
        "pl": {"one": 0, "few": 1, "many": 2},
        "ru": {"one": 0, "few": 1, "many": 2},
    }
    for lang, catalog in catalogs.items():
        assert category_indices(lang, catalog.plural_expr, catalog.num_plurals) == expected[lang]
        index_of = gettext.c2py(catalog.plural_expr)
        for message in catalog:
            if not isinstance(message.id, tuple):
                continue
            forms = message.id if lang == "en" else message.string
            for n in range(0, 2500):
                said = plural(message.context, lang, n)
                assert said == forms[index_of(n)].format(n=n), (lang, message.context, n)


def test_a_plural_forms_header_that_disagrees_with_cldr_is_refused(po_copy: Path) -> None:
    edit(
        po_copy / "ru.po",
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "\n'
        '"n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
    )
    found = po_problems(po_copy)
    assert found[0].startswith("ru.po: the Plural-Forms header does not fit the language")


def test_a_new_language_is_one_file(po_copy: Path) -> None:
    """``scripts/i18n new de`` writes de.po; until translated the bot speaks English there and
    the check lists every message to translate."""
    from bot.core.i18n.__main__ import main
    from bot.core.i18n.pofiles import languages
    from bot.core.i18n.tables import load

    assert main(["--dir", str(po_copy), "new", "de"]) == 0
    assert "de" in languages(po_copy)
    tables = load(po_copy)
    assert tables.plain["de"] == {} and tables.categories["de"] == {"one", "other"}
    found = [p for p in po_problems(po_copy) if p.startswith("de.po")]
    assert len(found) == len(EN) + len(tables.counted["en"])
    edit(
        po_copy / "de.po",
        'msgid "Show the board"\nmsgstr ""',
        'msgid "Show the board"\nmsgstr "Das Brett zeigen"',
    )
    assert load(po_copy).plain["de"] == {"cmd.board": "Das Brett zeigen"}


def test_keys_added_to_the_former_dict_catalogues_can_be_imported(po_copy: Path) -> None:
    """The lead's merge of a branch that still added keys to the Python dicts."""
    from bot.core.i18n import sync
    from bot.core.i18n.pofiles import read_all, write
    from bot.core.i18n.tables import load

    english = (
        "EN: dict[str, str] = {\n    # a new area\n"
        '    "games.none_yet": "No game yet: {hint}",\n}\n'
        'EN_PLURAL = {"unit.w": {"one": "{n}w", "other": "{n}w"}}\n'
    )
    russian = (
        'RU: dict[str, str] = {"games.none_yet": "Партий пока нет: {hint}"}\n'
        'RU_PLURAL = {"unit.w": {"one": "{n} неделя", "few": "{n} недели", '
        '"many": "{n} недель", "other": "{n} недели"}}\n'
    )
    catalogs = read_all(po_copy)
    assert sync.add_english(
        catalogs["en"], sync.parse_dict_module(english, "en"), only_new=True
    ) == ["games.none_yet", "unit.w"]
    tables = sync.parse_dict_module(russian, "ru")
    assert sync.add_translation(catalogs["ru"], catalogs["en"], tables, only_new=True) == [
        "games.none_yet",
        "unit.w",
    ]
    for lang in ("en", "ru"):
        write(catalogs[lang], po_copy / f"{lang}.po")
    assert "#. a new area" in (po_copy / "en.po").read_text("utf-8")
    loaded = load(po_copy)
    assert loaded.plain["ru"]["games.none_yet"] == "Партий пока нет: {hint}"
    assert loaded.counted["ru"]["unit.w"]["few"] == "{n} недели"
    # ja and pl lack them: the check says so
    assert {p.split(":")[0] for p in po_problems(po_copy)} == {
        f"{lang}.po {key}" for lang in ("ja", "pl") for key in ("games.none_yet", "unit.w")
    }


def test_the_po_files_are_package_data() -> None:
    """An installed package has them: pyproject's package-data takes every .po file."""
    import fnmatch
    import tomllib

    config = tomllib.loads((BOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot.core.i18n"]
    for po in PO_DIR.glob("*.po"):
        assert any(fnmatch.fnmatch(po.name, p) for p in patterns), po.name
    assert (PO_DIR / "__init__.py").exists()  # a package, so setuptools ships it


def test_discord_shows_each_language_to_its_locales() -> None:
    from bot.discord_front.commands import LOCALES, discord_locales

    assert sorted(LOCALES.values()) == sorted(lang for lang in LANGUAGES if lang != "en")
    found = {locale.value: lang for locale, lang in discord_locales(("en", "es", "pt_BR")).items()}
    assert found == {"es-ES": "es", "es-419": "es", "pt-BR": "pt_BR"}


def commit_dicts(repo: Path, tables: dict[str, dict[str, str]], message: str) -> str:
    """Commit dict catalogue modules (``bot/core/messages.py``, ``messages_<lang>.py``)."""
    for lang, table in tables.items():
        name = "messages.py" if lang == "en" else f"messages_{lang}.py"
        path = repo / "bot" / "core" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{lang.upper()}: dict[str, str] = {table!r}\n", encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", message], check=True, capture_output=True)
    done = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_a_branch_that_changed_the_dict_catalogues_is_merged_into_the_po_files(
    po_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scripts/i18n import-dicts --rev BRANCH --base MERGE_BASE``: keys the branch added are
    added, English it changed is taken (with the translations it updated; the others become
    fuzzy), and what both sides changed is left for a person."""
    from bot.core.i18n.__main__ import main
    from bot.core.i18n.pofiles import read_all
    from bot.core.i18n.tables import load

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    base_en = {
        "game.not_found": "There is no game #{game}.",
        "game.bad_number": "{text!r} is not a game number (like 12 or #12).",  # ours changed
    }
    base_ru = {"game.not_found": "Партии #{game} нет.", "game.bad_number": "x"}
    base = commit_dicts(repo, {"en": base_en, "ru": base_ru}, "base")
    theirs_en = {
        "game.not_found": "No game has the number #{game}.",
        "game.bad_number": "{text!r} is no game number.",
        "games.new_key": "A new message about {what}.",
    }
    theirs_ru = {
        "game.not_found": "Партии с номером #{game} нет.",
        "game.bad_number": "x",
        "games.new_key": "Новое сообщение о {what}.",
    }
    theirs = commit_dicts(repo, {"en": theirs_en, "ru": theirs_ru}, "theirs")
    monkeypatch.chdir(repo)
    assert main(["--dir", str(po_copy), "import-dicts", "--rev", theirs, "--base", base]) == 0

    tables = load(po_copy)
    assert tables.plain["en"]["game.not_found"] == "No game has the number #{game}."
    assert tables.plain["ru"]["game.not_found"] == "Партии с номером #{game} нет."  # updated
    assert tables.plain["en"]["games.new_key"] == "A new message about {what}."
    assert tables.plain["ru"]["games.new_key"] == "Новое сообщение о {what}."
    assert "game.not_found" not in tables.plain["ja"]  # not updated there: fuzzy, English
    catalogs = read_all(po_copy)
    fuzzy = catalogs["ja"].get("No game has the number #{game}.", context="game.not_found")
    assert fuzzy is not None and fuzzy.fuzzy
    # both sides changed it: ours stays
    assert (
        tables.plain["en"]["game.bad_number"] == "'{text}' is not a game number (like 12 or #12)."
    )
    assert po_problems(po_copy) == [  # what is left to do: translate the new key
        "ja.po games.new_key: not translated yet",
        "pl.po games.new_key: not translated yet",
    ]


def test_the_tables_are_cached_between_processes_by_the_files_bytes(
    po_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first load reads the files and keeps the tables in __pycache__; the next takes them
    from there without Babel; an edited file is read again and the old cache goes."""
    from bot.core.i18n import tables

    fresh = tables.load(po_copy)
    assert tables.load_cached(po_copy) == fresh
    (first,) = (po_copy / "__pycache__").glob("tables-*.marshal")

    def no_reading(folder: Path | None = None) -> tables.Tables:
        raise AssertionError("the .po files were read again")

    with monkeypatch.context() as patched:
        patched.setattr(tables, "load", no_reading)
        assert tables.load_cached(po_copy) == fresh

    edit(po_copy / "ru.po", 'msgstr "Партии #{game} нет."', 'msgstr "Нет партии #{game}."')
    edited = tables.load_cached(po_copy)
    assert edited.plain["ru"]["game.not_found"] == "Нет партии #{game}."
    assert edited == tables.load(po_copy) != fresh
    (second,) = (po_copy / "__pycache__").glob("tables-*.marshal")
    assert second != first


def test_a_broken_or_unwritable_cache_only_costs_the_reading(po_copy: Path) -> None:
    from bot.core.i18n import tables

    fresh = tables.load(po_copy)
    tables.load_cached(po_copy)
    (cached,) = (po_copy / "__pycache__").glob("tables-*.marshal")
    for garbage in (b"", b"\x00\x01garbage", cached.read_bytes()[:-7]):
        cached.write_bytes(garbage)
        assert tables.load_cached(po_copy) == fresh
        assert cached.read_bytes() != garbage  # written again whole
    shutil.rmtree(po_copy / "__pycache__")
    (po_copy / "__pycache__").write_text("a file where the folder would go")
    assert tables.load_cached(po_copy) == fresh
