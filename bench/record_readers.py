"""Do the JavaScript shogi readers read Komabot's records as Komabot meant them?

Installs tsshogi and json-kifu-format (versions pinned below) with npm into the git-ignored
folder ``.cache/record-readers``, exports every game of ``tests/rules/records/endings.py`` (every
kind of move, every way a game ends) and its handicap games (each handicap's start, a
rook-handicap game) as KIF (Shift-JIS), KIFU (UTF-8) and CSA, has
``bench/record_readers.mjs`` read each file with both readers, and compares the moves (all of
them, each replayed for legality) and the ending each reader saw with what Komabot wrote.
Prints a table and exits non-zero on any disagreement. Needs ``node`` and ``npm`` (and the
npm registry, the first time). Run by hand; the tests stay offline:

    .venv/bin/python bench/record_readers.py

The Python readers (cshogi, python-shogi) are checked by tests/rules/records/test_readers_agree.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules import GOTE, SENTE, Outcome, Termination  # noqa: E402
from rules.records import export_record  # noqa: E402
from tests.rules.records.endings import CASES, HANDICAP_CASES, Case  # noqa: E402

CACHE = ROOT / ".cache" / "record-readers"
PINS = {"tsshogi": "2.2.0", "json-kifu-format": "5.5.0"}
FORMATS = {"kif": "shift_jis", "kifu": "utf-8", "csa": "utf-8"}
READERS = ("tsshogi", "json-kifu-format")
SIDES = {"sente": SENTE, "gote": GOTE}
GAMES = [*CASES, *HANDICAP_CASES]

NO_WORD = "the reader has no word for this ending"
READER_BUG = "reader bug: tsshogi <= 2.2.0 swaps %+ILLEGAL_ACTION and %-ILLEGAL_ACTION"
# What a reader reads where it cannot read Komabot's ending as meant, and why. No word:
# json-kifu-format's KIF grammar knows no 入玉勝ち and no draw by agreement (it keeps the game
# and drops the ending); tsshogi's KIF reader has no word for a draw by agreement and keeps
# Komabot's 引き分け as a named special move; a resignation or time-out on the opponent's turn
# has no word in either format, so Komabot writes 中断 / %CHUDAN with the winner in the summary
# line and a comment. Reader bug: CSA says %+ILLEGAL_ACTION is sente's foul (gote wins), as
# cshogi, python-shogi and json-kifu-format read it; tsshogi 2.2.0 reads it the other way round
# (fixed upstream in sunfish-shogi/tsshogi#136, not yet released): Komabot keeps the CSA form.
KNOWN: dict[tuple[str, str, str], tuple[str, str]] = {
    ("json-kifu-format", "kif", "impasse_win"): ("unknown", NO_WORD),
    ("json-kifu-format", "kif", "agreed_draw"): ("unknown", NO_WORD),
    ("tsshogi", "kif", "agreed_draw"): ("named 引き分け", NO_WORD),
    **{
        (reader, fmt, name): ("interrupted", NO_WORD)
        for reader in READERS
        for fmt in ("kif", "csa")
        for name in ("resignation_out_of_turn", "timeout_out_of_turn")
    },
    ("tsshogi", "csa", "perpetual_check"): ("sente wins", READER_BUG),
    ("tsshogi", "csa", "illegal_move_by_last_mover"): ("gote wins", READER_BUG),
}
# Special moves: the side to move lost / won, a draw, an interruption (tsshogi, then JKF words).
TO_MOVE_LOST = {"resign", "mate", "timeout", "foulLose", "TORYO", "TSUMI", "TIME_UP"}
TO_MOVE_LOST |= {"ILLEGAL_MOVE"}
TO_MOVE_WON = {"foulWin", "enteringOfKing", "KACHI"}
DRAWS = {"repetitionDraw", "impass", "draw", "SENNICHITE", "JISHOGI", "HIKIWAKE"}
INTERRUPTED = {"interrupt", "CHUDAN"}


@dataclass(frozen=True)
class Row:
    case: str
    fmt: str
    reader: str
    verdict: str  # "ok", "known: <why>" or what disagreed

    @property
    def agrees(self) -> bool:
        return self.verdict == "ok" or self.verdict.startswith("known")


def install() -> Path:
    """The node_modules folder holding the pinned readers (installed if missing)."""
    modules = CACHE / "node_modules"
    wanted = [f"{name}@{version}" for name, version in PINS.items()]
    if all(_installed(modules, name) == version for name, version in PINS.items()):
        return modules
    CACHE.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("record_readers: npm is not on PATH")
    cmd = [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", *wanted]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return modules


def _installed(modules: Path, name: str) -> str | None:
    package = modules / name / "package.json"
    if not package.exists():
        return None
    return str(json.loads(package.read_text())["version"])


def write_games(folder: Path) -> list[dict[str, str]]:
    folder.mkdir(parents=True, exist_ok=True)
    manifest = []
    for case in GAMES:
        for fmt, encoding in FORMATS.items():
            path = folder / f"{case.name}.{fmt}"
            path.write_bytes(export_record(case.record, fmt))
            manifest.append({"case": case.name, "format": fmt, "encoding": encoding})
            manifest[-1]["path"] = str(path)
    return manifest


def ending(result: Outcome | None) -> str:
    """How Komabot's result should read: ``sente wins``, ``draw``, ``interrupted``, ``none``."""
    if result is None:
        return "none"
    if result.termination is Termination.ABORTED:
        return "interrupted"
    if result.winner is None:
        return "draw"
    return f"{('sente', 'gote')[result.winner]} wins"


def seen_ending(special: str, to_move: str) -> str:
    """How a reader's special move reads, given the side to move where it stands."""
    side = SIDES[to_move]
    if special in TO_MOVE_LOST:
        return f"{('sente', 'gote')[side ^ 1]} wins"
    if special in TO_MOVE_WON:
        return f"{to_move} wins"
    if special in ("+ILLEGAL_ACTION", "-ILLEGAL_ACTION"):
        return "gote wins" if special[0] == "+" else "sente wins"
    if special in DRAWS:
        return "draw"
    if special in INTERRUPTED:
        return "interrupted"
    if special.startswith("any:"):
        return "named " + special[4:]
    return special  # "none" or "unknown"


def judge(case: Case, seen: dict[str, Any]) -> str:
    if "error" in seen:
        return f"ERROR {seen['error']}"
    record = case.record
    problems = []
    if str(seen["sfen"]).split()[:3] != record.start_sfen.split()[:3]:
        problems.append(f"start {seen['sfen']}")
    moves = list(seen["moves"])
    if moves != list(record.moves):
        pairs = zip(moves, record.moves, strict=False)
        at = next(
            (i for i, (a, b) in enumerate(pairs) if a != b), min(len(moves), len(record.moves))
        )
        problems.append(f"moves differ from ply {at + 1}")
    if not seen["legal"]:
        problems.append("an illegal move")
    known = KNOWN.get((str(seen["reader"]), str(seen["format"]).replace("kifu", "kif"), case.name))
    expected = known[0] if known else ending(record.result)
    got = seen_ending(str(seen["special"]), str(seen["toMove"]))
    if got != expected:
        problems.append(f"ending {got!r}, expected {expected!r} ({seen['special']})")
    if problems:
        return "; ".join(problems)
    return f"known: {known[1]}" if known else "ok"


def main() -> int:
    node = shutil.which("node")
    if node is None:
        sys.exit("record_readers: node is not on PATH")
    modules = install()
    manifest = write_games(CACHE / "games")
    (CACHE / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False))
    script = ROOT / "bench" / "record_readers.mjs"
    out = subprocess.run(
        [node, str(script), str(modules), str(CACHE / "manifest.json")],
        check=True,
        capture_output=True,
        text=True,
    )
    cases = {case.name: case for case in GAMES}
    rows = [
        Row(seen["case"], seen["format"], seen["reader"], judge(cases[seen["case"]], seen))
        for seen in json.loads(out.stdout)
    ]
    print_table(rows)
    bad = [row for row in rows if not row.agrees]
    versions = ", ".join(f"{name} {version}" for name, version in PINS.items())
    print(f"\n{len(rows) - len(bad)} of {len(rows)} readings agree ({versions}).")
    for row in bad:
        print(f"DISAGREE {row.reader} {row.fmt} {row.case}: {row.verdict}")
    return 1 if bad else 0


def print_table(rows: list[Row]) -> None:
    columns = [(reader, fmt) for reader in READERS for fmt in FORMATS]
    short = {"tsshogi": "ts", "json-kifu-format": "jkf"}
    heads = [f"{short[r]} {f}" for r, f in columns]
    width = max(len(case.name) for case in GAMES)
    print(f"{'game':<{width}}  " + "  ".join(f"{h:<10}" for h in heads))
    verdicts = {(row.case, row.reader, row.fmt): row for row in rows}
    for case in GAMES:
        cells = []
        for reader, fmt in columns:
            row = verdicts[(case.name, reader, fmt)]
            cells.append(_mark(row))
        print(f"{case.name:<{width}}  " + "  ".join(f"{c:<10}" for c in cells))
    print(f"ok* = {NO_WORD} (see KNOWN); bug* = {READER_BUG}")


def _mark(row: Row) -> str:
    if row.verdict == "ok":
        return "ok"
    if row.verdict == f"known: {NO_WORD}":
        return "ok*"
    return "bug*" if row.agrees else "DIFF"


if __name__ == "__main__":
    sys.exit(main())
