"""``scripts/i18n``: check the ``.po`` files, keep translations in step with English, start a
language, bring in keys from the former dict catalogues.  ``scripts/i18n --help`` says how."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from bot.core.i18n import checks, pofiles, sync

DICT_MODULE = "bot/core/messages.py"  # EN, EN_PLURAL; the others: bot/core/messages_<lang>.py


def check(folder: Path) -> int:
    catalogs = pofiles.read_all(folder)
    found = checks.problems(catalogs)
    for line in checks.notes(catalogs):
        print("note:", line)
    msgfmt = shutil.which("msgfmt")
    for lang in catalogs:  # GNU gettext's own reading, where it is installed
        if msgfmt:
            run = [msgfmt, "--check", "-o", "/dev/null", str(folder / f"{lang}.po")]
            done = subprocess.run(run, capture_output=True, text=True, check=False)
            if done.returncode:
                found.append(f"{lang}.po: msgfmt --check: {done.stderr.strip()}")
    for line in found:
        print("error:", line)
    print(f"{len(catalogs)} languages, {len(found)} errors" + ("" if msgfmt else " (no msgfmt)"))
    return 1 if found else 0


def update(folder: Path) -> int:
    catalogs = pofiles.read_all(folder)
    source = catalogs.pop(pofiles.SOURCE)
    for lang, catalog in catalogs.items():
        report = sync.update(catalog, source)
        pofiles.write(catalog, folder / f"{lang}.po")
        for what, keys in report.items():
            if keys:
                print(f"{lang}.po {what}: {', '.join(keys)}")
    return 0


def new(folder: Path, lang: str) -> int:
    path = folder / f"{lang}.po"
    if path.exists():
        print(f"{path} exists already")
        return 1
    catalog = sync.new_catalog(lang, f"Komabot's messages in {lang}.")
    sync.update(catalog, pofiles.read(folder / f"{pofiles.SOURCE}.po"))
    pofiles.write(catalog, path)
    print(f"wrote {path}: translate it (docs/translators.md)")
    return 0


def dict_source(rev: str | None, path: str) -> str | None:
    """A dict catalogue module's text, from the work tree or a git revision (None: none)."""
    if rev is None:
        file = Path(path)
        return file.read_text(encoding="utf-8") if file.exists() else None
    done = subprocess.run(
        ["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def dict_tables(rev: str | None, lang: str) -> sync.DictCatalogue | None:
    path = DICT_MODULE if lang == pofiles.SOURCE else DICT_MODULE.replace(".py", f"_{lang}.py")
    source = dict_source(rev, path)
    return None if source is None else sync.parse_dict_module(source, lang)


def say(lang: str, what: str, keys: list[str]) -> None:
    if keys:
        print(f"{lang}.po {what}: {', '.join(keys)}")


def import_dicts(folder: Path, rev: str | None, base: str | None) -> int:
    """Add the keys of the dict catalogues that the ``.po`` files lack (English first); with
    ``base``, also take the texts changed between ``base`` and ``rev``."""
    catalogs = pofiles.read_all(folder)
    theirs = {lang: dict_tables(rev, lang) for lang in catalogs}
    english = theirs[pofiles.SOURCE]
    if english is None:
        print(f"no {DICT_MODULE} at {rev or 'the work tree'}")
        return 1
    before = {lang: dict_tables(base, lang) for lang in catalogs} if base else {}
    source = catalogs[pofiles.SOURCE]
    say("en", "added", sync.add_english(source, english, only_new=True))
    old_english = before.get(pofiles.SOURCE)
    if old_english is not None:
        report = sync.take_changes(source, old_english, english)
        say("en", "English taken from the dicts", report["taken"])
        say("en", "changed on both sides (edit by hand)", report["conflict"])
    pofiles.write(source, folder / f"{pofiles.SOURCE}.po")
    for lang, catalog in catalogs.items():
        tables = theirs[lang]
        if lang == pofiles.SOURCE or tables is None:
            continue
        say(lang, "added", sync.add_translation(catalog, source, tables, only_new=True))
        old = before.get(lang)
        if old is not None:
            report = sync.take_changes(catalog, old, tables, source)
            say(lang, "translations taken from the dicts", report["taken"])
            say(lang, "changed on both sides (edit by hand)", report["conflict"])
        pofiles.write(catalog, folder / f"{lang}.po")
    return update(folder)  # translations of English changed meanwhile: fuzzy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/i18n", description=__doc__)
    parser.add_argument("--dir", type=Path, default=None, help="folder of the .po files")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="find what a translator must fix (exit 1 if anything)")
    sub.add_parser("update", help="mark translations of changed English fuzzy, add new keys")
    start = sub.add_parser("new", help="start a language: write LANG.po to translate")
    start.add_argument("lang", help="the language's code, like de or pt_BR")
    imp = sub.add_parser("import-dicts", help="add keys from the former Python dict catalogues")
    imp.add_argument("--rev", help="read them from this git revision (default: the work tree)")
    imp.add_argument(
        "--base",
        help="the revision both sides started from: also take the texts changed since then",
    )
    args = parser.parse_args(argv)
    folder = args.dir or pofiles.po_dir()
    if args.command == "check":
        return check(folder)
    if args.command == "update":
        return update(folder)
    if args.command == "new":
        return new(folder, args.lang)
    return import_dicts(folder, args.rev, args.base)


if __name__ == "__main__":
    sys.exit(main())
