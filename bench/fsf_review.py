"""Where Komabot lost its games against another engine: the logged games scored by a referee.

Reads the ``--log`` files of ``bench/match.py`` (one game a line: moves, colours, result) and
has a referee engine (Fairy-Stockfish by default, at a fixed node budget: the same scores
however loaded the machine) score every position with ``engine.analysis.analyse_game``.  Each
of Komabot's moves loses the win chance the referee saw before it less what it saw after
(percentage points, ``engine.analysis``'s definitions).  The moves that lost at least
``--threshold`` points are scored again at ``--confirm-nodes`` (a cheap scan first, then a
deeper look at the few candidates), and those still above the threshold are listed with:

- the phase: ``opening`` up to ply ``OPENING_PLIES``; after it, what the referee's reply
  does: ``check`` (it checks Komabot's king), ``drop at king`` (a drop within two squares of
  it), ``capture`` (it takes a piece) or ``quiet``;
- what Komabot's own search thinks there at ``--komabot-nodes`` (level 8, in this process):
  its depth, score and move.

    .venv/bin/python bench/fsf_review.py /work/runs/fsf5.jsonl --lost-only \\
        --nodes 20000 --confirm-nodes 150000 --komabot-nodes 45000
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.match import FAIRY_STOCKFISH  # noqa: E402
from bench.match_log import LoggedGame, read_games  # noqa: E402
from engine.analysis import Budget, MoveReview, analyse_game, win_chance  # noqa: E402
from engine.analysis_usi import UsiEvaluator  # noqa: E402
from engine.api import Engine  # noqa: E402
from engine.levels import HIGHEST  # noqa: E402
from engine.search import Limits  # noqa: E402
from engine.usi_client import EngineSpec  # noqa: E402
from rules import SENTE, Position, load_variant  # noqa: E402

OPENING_PLIES = 30
STAGES = ((30, "plies 1-30"), (80, "plies 31-80"), (10_000, "plies 81-"))
NEAR_KING = 2  # squares (king steps) from Komabot's king that count as "at" it
REFEREE_OPTIONS = (("Threads", "1"), ("USI_Hash", "64"))


@dataclass(frozen=True)
class Finding:
    """One of Komabot's moves that lost at least the threshold, confirmed at depth."""

    game: LoggedGame
    ply: int  # 1 for the game's first move
    played: str
    best: str | None  # the referee's move in its place
    before: int  # the referee's scores, Komabot's view, before and after the move
    after: int
    loss: float
    phase: str
    komabot_move: str | None  # Komabot's own search at the position, at its node budget
    komabot_score: str
    komabot_depth: int

    def line(self) -> str:
        return (
            f"{self.game.source} ply {self.ply:3} {self.played:6} (referee {self.best or '-':6}) "
            f"{self.before:6} -> {self.after:6} lost {self.loss:4.0f}  {self.phase:13} "
            f"Komabot: {self.komabot_move or '-'} {self.komabot_score} depth {self.komabot_depth}"
        )


def phase(pos: Position, reply: str | None, ply: int, own: int) -> str:
    """The kind of mistake, from ``pos`` (after Komabot's move) and the referee's reply."""
    if ply <= OPENING_PLIES:
        return "opening"
    if reply is None or reply in ("resign", "win"):
        return "quiet"
    move = pos.parse_usi(reply)
    king = pos.kings[own]
    capture = not move.is_drop and pos.board[move.to_sq] != 0
    pos.push(move)
    checks = pos.is_check()
    pos.pop()
    if checks:
        return "check"
    files = pos.variant.files
    near = max(abs(move.to_sq // files - king // files), abs(move.to_sq % files - king % files))
    if move.is_drop and king >= 0 and near <= NEAR_KING:
        return "drop at king"
    return "capture" if capture else "quiet"


def _own_view(score: int, own: int) -> int:
    return score if own == SENTE else -score


class Reviewer:
    """The referee at two budgets and Komabot's own engine; close it when done."""

    def __init__(
        self, referee: EngineSpec, variant: str, nodes: int, confirm_nodes: int, komabot_nodes: int
    ) -> None:
        self.variant = load_variant(variant)
        self.scan = UsiEvaluator(referee, Budget(nodes=nodes), variant)
        self.confirm = UsiEvaluator(referee, Budget(nodes=confirm_nodes), variant)
        self.engine = Engine(self.variant)
        self.komabot_nodes = komabot_nodes

    def close(self) -> None:
        self.scan.close()
        self.confirm.close()

    def review(
        self, game: LoggedGame, threshold: float
    ) -> tuple[list[Finding], list[int], dict[str, float]]:
        """Komabot's confirmed mistakes in ``game``, the scan's scores (Komabot's view) and the
        win chance its moves lost by stage of the game (the scan's figures, every move)."""
        start = Position.start(self.variant).sfen()
        analysis = analyse_game(self.variant.id, start, game.moves, self.scan)
        own = SENTE if game.komabot_sente() else SENTE ^ 1
        scores = [_own_view(s, own) for s in analysis.scores]
        findings = []
        stages = dict.fromkeys((name for _, name in STAGES), 0.0)
        for review in analysis.reviews:
            if review.side != own:
                continue
            stages[next(name for last, name in STAGES if review.ply <= last)] += review.loss
            if review.loss >= threshold:
                finding = self._confirm(game, review, own, threshold)
                if finding is not None:
                    findings.append(finding)
        return findings, scores, stages

    def _confirm(
        self, game: LoggedGame, review: MoveReview, own: int, threshold: float
    ) -> Finding | None:
        pos = Position.start(self.variant)
        for usi in game.moves[: review.ply - 1]:
            pos.push_usi(usi)
        history = game.moves[: review.ply - 1]
        start = Position.start(self.variant).sfen()
        self.confirm.new_game()
        before_verdict = self.confirm.evaluate(pos, start, history)
        if before_verdict.best_move == review.played:
            return None
        found = self.engine.think(
            pos, level=HIGHEST, limits=Limits(nodes=self.komabot_nodes), seed=0
        )
        pos.push_usi(review.played)
        after_verdict = self.confirm.evaluate(pos, start, game.moves[: review.ply])
        before = before_verdict.score
        after = -after_verdict.score
        loss = 100.0 * (win_chance(before) - win_chance(after))
        if loss < threshold:
            return None
        if found.score_cp is not None:
            komabot_score = f"cp {found.score_cp}"
        else:
            komabot_score = f"mate {found.mate_plies}"
        return Finding(
            game=game,
            ply=review.ply,
            played=review.played,
            best=before_verdict.best_move,
            before=before,
            after=after,
            loss=loss,
            phase=phase(pos, after_verdict.best_move, review.ply, own),
            komabot_move=found.best_move,
            komabot_score=komabot_score,
            komabot_depth=found.depth,
        )


def report(games: Sequence[LoggedGame], findings: Sequence[Finding], stages: Counter[str]) -> str:
    """The findings, one a line, their counts by phase (all, and in the games lost), and the
    win chance Komabot's moves lost by stage of the game, in all the games."""
    lines = [f.line() for f in findings]
    all_phases = Counter(f.phase for f in findings)
    lost = Counter(f.phase for f in findings if f.game.komabot_result() == 0.0)
    lines.append("")
    lines.append(f"{len(games)} games, {len(findings)} mistakes by Komabot; by phase (in lost):")
    for name, count in all_phases.most_common():
        lines.append(f"  {name:13} {count:3} ({lost[name]})")
    lines.append("win-chance points lost by Komabot's moves (the scan), by stage:")
    for _, name in STAGES:
        lines.append(
            f"  {name:13} {stages[name]:6.0f} ({stages[name] / max(1, len(games)):.0f} a game)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("logs", nargs="+", type=Path, help="bench/match.py --log files")
    p.add_argument("--referee", default=FAIRY_STOCKFISH, help="a USI engine's command")
    p.add_argument("--nodes", type=int, default=20_000, help="the referee's scan (20000)")
    p.add_argument("--confirm-nodes", type=int, default=150_000, help="its second look (150000)")
    p.add_argument("--komabot-nodes", type=int, default=45_000, help="Komabot's search (45000)")
    p.add_argument("--threshold", type=float, default=20.0, help="win-chance points lost (20)")
    p.add_argument("--lost-only", action="store_true", help="only the games Komabot lost")
    p.add_argument("--out", type=Path, help="also write the findings as JSON lines")
    args = p.parse_args(argv)
    missing = [str(path) for path in args.logs if not path.is_file()]
    if missing:
        p.error(f"no such log file: {', '.join(missing)}")
    games = [g for g in read_games(args.logs) if g.komabot_sente() is not None]
    if args.lost_only:
        games = [g for g in games if g.komabot_result() == 0.0]
    spec = EngineSpec(tuple(shlex.split(args.referee)), REFEREE_OPTIONS, timeout=120.0)
    findings: list[Finding] = []
    stages: Counter[str] = Counter()
    variants = {g.variant for g in games} or {"shogi"}
    if len(variants) > 1:
        p.error(f"the logs mix variants: {', '.join(sorted(variants))}")
    reviewer = Reviewer(spec, variants.pop(), args.nodes, args.confirm_nodes, args.komabot_nodes)
    try:
        for game in games:
            found, scores, lost = reviewer.review(game, args.threshold)
            findings += found
            stages.update(lost)
            for finding in found:
                print(finding.line(), flush=True)
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as out:
                    for f in found:
                        row = {k: v for k, v in vars(f).items() if k != "game"}
                        out.write(json.dumps({"game": f.game.source, **row}) + "\n")
                    row = {"game": game.source, "scores": scores, "stages": lost}
                    out.write(json.dumps(row) + "\n")
    finally:
        reviewer.close()
    print()
    print(report(games, findings, stages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
