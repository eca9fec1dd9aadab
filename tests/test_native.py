"""The compiled modules (scripts/build_native, rules/native.py), in a copy of the sources.

Compiled, they give exactly the pure-Python answers: the perft counts of tests/data/perft.txt,
the move, score and node count of every search in tests/engine/data/fixed_depth.json, and the
texts written from those games' positions (SFEN, BOD, KIF, CSA, moves in every notation, why a
move is illegal), which read the packed arrays of rules/arrays.py when compiled.
After an edit of any source the copy runs pure Python and says why; ``KOMABOT_NATIVE=0`` runs
pure Python silently.  Uses this checkout's build when it matches the sources, else builds one
in the copy (35 s of CPU; 2.5-3 minutes on two loaded cores); skipped without mypyc or a C compiler.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

import engine.search as engine_search
from rules import native
from tests.engine.fixed_depth import recorded
from tests.rules.test_perft import cases

ROOT = Path(__file__).resolve().parent.parent
PERFT_NODES = 200_000  # per count checked compiled: the deeper ones are the pure tests' work

# Run in the copy: which code runs, then the answers.  argv[1]: perft cases, fixed-depth rows,
# games (variant, moves) whose texts to write.
_CHILD = """
import json, pickle, sys
import engine.search as engine_search
from rules import native
import engine.search
from engine import Engine, Limits, think
from engine.analysis import evaluate_position
from rules import Position, load_variant
from rules.perft import perft

status = native.install()
perfts, rows, games = json.loads(sys.argv[1])
counts = [perft(Position.from_sfen(load_variant(v), sfen), depth) for v, sfen, depth in perfts]
answers = []
for row in rows:
    variant = load_variant(row["variant"])
    pos = Position.start(variant)
    for move in row["moves"]:
        pos.push_usi(move)
    result = Engine(variant, hash_mb=16).think(pos, limits=Limits(depth=row["depth"]))
    answers.append([result.best_move, result.score, result.nodes])
# what crosses between the bot's processes: think's answer, an analysis verdict; and a
# position with its history (a compiled class: pickled by its own __reduce__)
sent = [think("wa", depth=2), evaluate_position("shogi", "startpos", [], game="g", nodes=300)]
pickled = all(pickle.loads(pickle.dumps(answer)) == answer for answer in sent)
pos = Position.start(load_variant("wa-drops"))
for move in ("4h4g", "11c11d", "4g4f"):
    pos.push_usi(move)
back = pickle.loads(pickle.dumps(pos))
pickled = pickled and back.variant is pos.variant and back.move_stack == pos.move_stack
pickled = pickled and [back.sfen(), back.hash, back.repetitions()] == [
    pos.sfen(), pos.hash, pos.repetitions()
]
# what reads the board and hands outside the hot path (packed arrays when compiled,
# rules/arrays.py): the same texts either way
from rules import Move
from rules.explain import explain_illegal
from rules.notation import examples, parse_move
from rules.records.bod import write_bod
from rules.records.csa import write_csa
from rules.records.kif import write_kif
from rules.records.record import GameRecord
texts = []
for variant_id, moves in games:
    variant = load_variant(variant_id)
    pos = Position.start(variant)
    for move in moves:
        pos.push_usi(move)
    record = GameRecord(variant.id, variant.start_sfen, tuple(moves), "A", "B")
    shown = examples(pos)
    own = [sq for sq, v in enumerate(pos.board) if v and (v > 0) == (pos.side == 0)]
    texts += [pos.sfen(), *write_bod(pos), write_kif(record), shown]
    texts += [pos.usi(parse_move(pos, text)) for text in shown.values()]
    texts.append(str(explain_illegal(pos, Move(own[0], own[1], False, 0))))
    if variant.id == "shogi":
        texts.append(write_csa(record))
    texts += sorted(h.sfen for h in variant.handicaps.values())
print(json.dumps([status.active, engine.search.__file__, counts, answers, pickled, texts]))
"""


def _copy_sources(to: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    for folder in (*native.PACKAGES, "data", "scripts"):
        shutil.copytree(ROOT / folder, to / folder, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", to / "pyproject.toml")


def _build_in(copy: Path) -> None:
    """This checkout's build when it is of these sources, else a fresh one."""
    ours = ROOT / native.BUILD_DIR
    manifest = ours / native.MANIFEST
    if manifest.is_file() and json.loads(manifest.read_text())["sources"] == (
        native.source_hashes(copy)
    ):
        shutil.copytree(ours, copy / native.BUILD_DIR)
        return
    env = {**os.environ, "KOMABOT_VENV": str(Path(sys.prefix))}
    done = subprocess.run(
        [sys.executable, str(copy / "scripts" / "build_native")],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _run(copy: Path, native_setting: str | None, work: Any) -> tuple[list[Any], str]:
    env = {k: v for k, v in os.environ.items() if k != native.ENV_VARIABLE}
    if native_setting is not None:
        env[native.ENV_VARIABLE] = native_setting
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(work)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def _fake_build(root: Path) -> Path:
    """Sources under ``root`` and a manifest of them, without any compiled file."""
    for package in native.PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("*.pyc"))
    build = root / native.BUILD_DIR
    build.mkdir(parents=True)
    manifest = native.manifest_for(root, native.COMPILED)
    (build / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return build / native.MANIFEST


def _decided(root: Path) -> native.Status:
    """What the guard decides for ``root`` (in this process, whose modules are loaded already:
    every decision here is one that installs nothing)."""
    hooks = list(sys.meta_path)
    status = native._activate(root)
    assert sys.meta_path == hooks
    return status


def test_the_guard_says_why_a_build_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(native.ENV_VARIABLE)
    assert _decided(tmp_path) == native.Status(
        False, "not built (python3 scripts/build_native builds them)"
    )
    manifest = _fake_build(tmp_path)
    missing = _decided(tmp_path)
    assert missing.stale  # a build that is there and not used: a warning
    assert missing.reason.endswith("komabot_native__mypyc is missing from it")

    (tmp_path / "engine" / "evaluation.py").write_text("# edited\n", encoding="utf-8")
    (tmp_path / "rules" / "new_module.py").write_text("", encoding="utf-8")
    assert _decided(tmp_path).reason.endswith(
        "engine/evaluation.py and 1 more changed since it was built"
    )

    other_python = {**json.loads(manifest.read_text()), "python": "3.99.0 .so"}
    manifest.write_text(json.dumps(other_python), encoding="utf-8")
    assert _decided(tmp_path).reason.endswith("it was built for another Python")

    manifest.write_text("{not json", encoding="utf-8")
    assert "its manifest cannot be read" in _decided(tmp_path).reason

    monkeypatch.setenv(native.ENV_VARIABLE, "0")
    assert _decided(tmp_path) == native.Status(False, "turned off (KOMABOT_NATIVE=0)")


def test_this_process_runs_pure_python() -> None:
    """The suite's own process (tests/conftest.py): patches of module attributes take effect."""
    assert native.install() == native.Status(False, "turned off (KOMABOT_NATIVE=0)")
    assert engine_search.__file__.endswith("search.py")


@pytest.mark.slow
@pytest.mark.timeout(900)  # a build on two loaded cores took 3 minutes (the default is 180 s)
def test_compiled_modules_answer_as_pure_python_and_never_run_stale(tmp_path: Path) -> None:
    missing = native.missing_build_tools()
    if missing is not None:
        pytest.skip(f"{missing}: the compiled modules cannot be built here")
    copy = tmp_path / "komabot"
    _copy_sources(copy)
    _build_in(copy)
    perfts = [(v, sfen, depth, n) for v, sfen, depth, n in cases() if n <= PERFT_NODES]
    rows = recorded()
    perft_work = [p[:3] for p in perfts]
    search_work = [{"variant": r.variant, "moves": r.moves, "depth": r.depth} for r in rows]
    perft_counts = [n for *_, n in perfts]
    search_answers = [[r.best, r.score, r.nodes] for r in rows]
    games = [(r.variant, r.moves) for r in rows]
    work = [perft_work, search_work, games]
    expected = [perft_counts, search_answers]

    (active, search_file, counts, answers, pickled, texts), log = _run(copy, None, work)
    assert active, log
    assert pickled
    assert search_file.endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    assert [counts, answers] == expected
    assert "pure Python" not in log

    (active, search_file, _, _, _, pure_texts), log = _run(copy, "0", [[], [], games])
    assert not active
    assert search_file.endswith("search.py")
    assert log == ""
    assert len(texts) > 6 * len(games) and texts == pure_texts

    few = [perft_work[:4], search_work[:1], []]
    for source in ("rules/variant.py", "engine/search.py"):  # not compiled, compiled
        edited = copy / source
        before = edited.read_text()
        edited.write_text(before + "# edited after the build\n")
        (active, search_file, counts, answers, *_), log = _run(copy, None, few)
        assert not active
        assert search_file == str(copy / "engine" / "search.py")
        assert f"{source} changed since it was built" in log
        assert log.count("pure Python") == 1
        assert [counts, answers] == [perft_counts[:4], search_answers[:1]]
        edited.write_text(before)


def _build_if_needed(copy: Path, **env: str) -> str:
    """``scripts/build_native --if-needed`` (what ``scripts/run`` does) in ``copy``: its output."""
    done = subprocess.run(
        [sys.executable, str(copy / "scripts" / "build_native"), "--if-needed"],
        cwd=copy,
        env={
            **{k: v for k, v in os.environ.items() if k != native.ENV_VARIABLE},
            "KOMABOT_VENV": str(Path(sys.prefix)),
            **env,
        },
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # it never stops the bot
    return done.stdout


def test_the_run_command_says_in_one_line_why_it_runs_pure_python(tmp_path: Path) -> None:
    copy = tmp_path / "komabot"
    _copy_sources(copy)
    assert _build_if_needed(copy, CC="/nonexistent/cc") == (
        "Komabot runs as pure Python: no C compiler (install gcc or clang) to compile its hot "
        "modules.\n"
    )
    assert _build_if_needed(copy, CC="/nonexistent/cc", KOMABOT_NATIVE="0") == ""
    assert not (copy / native.BUILD_DIR).exists()
    if native.missing_compiler() is not None:
        return  # the rest needs a compiler: it is never run
    # a build of these very sources failed before: not tried again at every start
    failed = copy / "build" / "native-failed.json"
    failed.parent.mkdir()
    failed.write_text(json.dumps({"sources": native.manifest_for(copy, native.COMPILED)}))
    said = _build_if_needed(copy)
    assert said.startswith("Komabot runs as pure Python: the build of these sources failed (")
    assert said.endswith("python3 scripts/build_native tries again.\n")
    assert not (copy / native.BUILD_DIR).exists()


def test_module_constants_of_the_compiled_modules_are_final() -> None:
    """mypyc reads a module-level name that is not ``Final`` from the module's dictionary at
    every use (about four times slower in a loop) and builds a ``Final`` one into the code:
    every upper-case constant of a compiled module is ``Final``."""
    plain = []
    for name in native.COMPILED:
        path = ROOT / (name.replace(".", "/") + ".py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and not _is_type(node.value):
                names = [n for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and "Final" not in ast.unparse(node.annotation):
                names = [node.target] if isinstance(node.target, ast.Name) else []
            else:
                continue
            plain += [f"{name}.{n.id}" for n in names if n.id.lstrip("_").isupper()]
    assert plain == [], f"annotate these with typing.Final: {plain}"


def _is_type(value: ast.expr) -> bool:
    """``Ray = tuple[int, ...]``, ``P = TypeVar(...)``: a type alias or variable, not a value."""
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id == "TypeVar"
    return isinstance(value, ast.Subscript)
