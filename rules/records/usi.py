"""USI records: ``position sfen <start> moves <usi>...``, with ``#`` comment lines naming the
variant, the players and the result (``# result: resignation sente``).  A move list may close
with an ending word as engines and GUIs write it (``resign``, ``win``, ``draw``, ``timeout``,
``break``, ``rep_draw``, ``rep_win``, ``rep_lose``); the comment, when there is one, wins."""

from __future__ import annotations

import re

from rules.errors import RulesError
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.records.record import GameRecord, RecordError, read_result_words, result_words
from rules.variant import load_variant


def write_usi(record: GameRecord) -> str:
    lines = [f"position sfen {record.start_sfen} moves {' '.join(record.moves)}".rstrip()]
    lines.append(f"# variant: {record.variant}")
    if record.sente:
        lines.append(f"# sente: {' '.join(record.sente.split())}")
    if record.gote:
        lines.append(f"# gote: {' '.join(record.gote.split())}")
    if record.result is not None:
        lines.append(f"# result: {result_words(record.result)}")
    return "\n".join(lines) + "\n"


def looks_like_usi(text: str) -> bool:
    return bool(re.search(r"^\s*(?:position\s|sfen\s|startpos\b)", text, re.M))


def read_usi(text: str) -> GameRecord:
    """A validated record from ``position ...`` text; RecordError names the problem."""
    comments: dict[str, str] = {}
    comment_lines: dict[str, int] = {}
    command: tuple[int, str] | None = None
    for no, raw in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        line = raw.strip()
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            comments[key.strip().lower()] = value.strip()
            comment_lines[key.strip().lower()] = no
        elif line:
            if command is not None:
                raise RecordError(f"line {no}: only one 'position' line is read", line=no)
            command = (no, line)
    if command is None:
        raise RecordError("no 'position sfen ... moves ...' line found")
    no, line = command
    words = line.split()
    if words and words[0] == "position":
        words = words[1:]
    if "moves" in words:
        at = words.index("moves")
        setup, moves = words[:at], words[at + 1 :]
    else:
        setup, moves = words, []
    if setup == ["startpos"]:
        sfen = None
    elif setup and setup[0] == "sfen" and len(setup) in (4, 5):
        sfen = " ".join(setup[1:])
    else:
        raise RecordError(
            f"line {no}: expected 'position sfen <board> <side> <hand> <number> moves ...' "
            "or 'position startpos moves ...'",
            line=no,
        )
    variant_id = comments.get("variant") or _guess_variant(sfen, moves)
    try:
        variant = load_variant(variant_id)
    except RulesError as exc:
        at = comment_lines.get("variant", no)
        raise RecordError(f"line {at}: {exc.message}", code=exc.code, line=at) from None
    try:
        pos = Position.from_sfen(variant, sfen) if sfen else Position.start(variant)
    except RulesError as exc:
        raise RecordError(f"line {no}: {exc.message}", line=no) from None
    start = pos.sfen()
    closing = moves.pop() if moves and moves[-1].lower() in _ENDINGS else None
    for ply, text_move in enumerate(moves, start=1):
        try:
            pos.push_usi(text_move)
        except RulesError as exc:
            if text_move.lower() in _ENDINGS:
                raise RecordError(
                    f"line {no}: move {ply} ({text_move}) ends the game, but moves follow it",
                    code="bad_record_move",
                    line=no,
                ) from None
            raise RecordError(
                f"line {no}: move {ply} ({text_move}): {exc.message}",
                code="bad_record_move",
                line=no,
            ) from None
    result = None
    if comments.get("result"):
        result = read_result_words(comments["result"], comment_lines["result"])
    elif closing is not None:
        termination, mover_wins = _ENDINGS[closing.lower()]
        winner = None if mover_wins is None else pos.side if mover_wins else pos.side ^ 1
        result = Outcome(termination, winner)
    return GameRecord(
        variant=variant.id,
        start_sfen=start,
        moves=tuple(moves),
        sente=comments.get("sente", ""),
        gote=comments.get("gote", ""),
        result=result,
    )


# Words that close a USI move list, as engines and GUIs write them (the ``bestmove`` answers and
# the repetition verdicts of ``sennichite``): the ending, and whether the side to move won
# (None: nobody did).
_ENDINGS: dict[str, tuple[Termination, bool | None]] = {
    "resign": (Termination.RESIGNATION, False),
    "win": (Termination.IMPASSE, True),
    "draw": (Termination.AGREED_DRAW, None),
    "timeout": (Termination.TIMEOUT, False),
    "break": (Termination.ABORTED, None),
    "rep_draw": (Termination.REPETITION, None),
    "rep_win": (Termination.PERPETUAL_CHECK, True),
    "rep_lose": (Termination.PERPETUAL_CHECK, False),
}


def _guess_variant(sfen: str | None, moves: list[str]) -> str:
    if sfen is None or sfen.split()[0].count("/") == 8:
        return "shogi"
    drops = "*" in " ".join(moves) or (len(sfen.split()) > 2 and sfen.split()[2] != "-")
    return "wa-drops" if drops else "wa"
