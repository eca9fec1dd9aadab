"""``scripts/i18n``: check the ``.po`` files, keep translations in step with English, start a
language, bring in keys from the former dict catalogues.  ``scripts/i18n --help`` says how."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from bot.core.i18n import checks, pofiles, sync

DICT_MODULES = "bot/core/messages.py"  # EN, EN_PLURAL; the others: bot/core/messages_<lang>.py


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


def import_dicts(folder: Path, rev: str | None) -> int:
    """Add the keys of the dict catalogues that the ``.po`` files lack (English first)."""
    catalogs = pofiles.read_all(folder)
    english_source = dict_source(rev, DICT_MODULES)
    if english_source is None:
        print(f"no {DICT_MODULES} at {rev or 'the work tree'}")
        return 1
    source = catalogs[pofiles.SOURCE]
    english = sync.parse_dict_module(english_source, pofiles.SOURCE)
    added = sync.add_english(source, english, only_new=True)
    have = {pofiles.key_of(m): m.id for m in pofiles.entries(source)}
    changed = [k for k, t in english.plain.items() if k not in added and have.get(k) != t]
    pofiles.write(source, folder / f"{pofiles.SOURCE}.po")
    print(f"en.po: added {', '.join(added) or 'nothing'}")
    if changed:
        print(f"en.po: English differs from the dicts (edit en.po by hand): {', '.join(changed)}")
    for lang, catalog in catalogs.items():
        if lang == pofiles.SOURCE:
            continue
        text = dict_source(rev, DICT_MODULES.replace(".py", f"_{lang}.py"))
        if text is None:
            continue
        tables = sync.parse_dict_module(text, lang)
        added = sync.add_translation(catalog, source, tables, only_new=True)
        pofiles.write(catalog, folder / f"{lang}.po")
        print(f"{lang}.po: added {', '.join(added) or 'nothing'}")
    return 0


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
    args = parser.parse_args(argv)
    folder = args.dir or pofiles.po_dir()
    if args.command == "check":
        return check(folder)
    if args.command == "update":
        return update(folder)
    if args.command == "new":
        return new(folder, args.lang)
    return import_dicts(folder, args.rev)


if __name__ == "__main__":
    sys.exit(main())
