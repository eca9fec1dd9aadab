"""A rating per level from the games of a round robin: the Bradley-Terry (logistic Elo)
model fitted by maximum likelihood to every pair's points, with a 95% interval per level
from the curvature of the likelihood (the inverse of the Fisher information), and for each
step from one level to the next a 95% interval from the profile likelihood (the steps the
likelihood-ratio test does not reject), which stays honest where one level beat the other in
nearly every game: there the curvature is nearly flat and its interval spans everything, while
the profile's lower end says how much stronger the level at least is.

``results[(i, j)]``: level i's points (1 a win, 0.5 a draw) and games against level j; both
``(i, j)`` and ``(j, i)`` may be given (they are the same games seen from either side, and
only ``(i, j)`` with ``i`` first in ``levels`` is read when both are).  The first level of
``levels`` is the anchor, rated 0.  A small prior, one draw between each pair of neighbours,
keeps a perfect score finite (it pulls the ratings a little together).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from bench.match_log import read_games

Results = dict[tuple[int, int], tuple[float, int]]
SCALE = math.log(10) / 400  # Elo points to the logistic model's natural unit
Z95 = 1.96
CHI2_95 = 3.841  # the chi-squared distribution's 95% point at one degree of freedom
STEP_LIMIT = 4000.0
"""How far (Elo) the profile interval of a step is followed before it is called unbounded."""


def add_game(results: Results, level: int, other: int, points: float) -> None:
    """Count one game of ``level`` against ``other`` in which ``level`` scored ``points``,
    under the pair with the lower level first (a log may have either level as its ``a``: the
    games of both orders are different games, which must not be read as one side's view of the
    other's)."""
    if level > other:
        level, other, points = other, level, 1.0 - points
    old_pts, old_n = results.get((level, other), (0.0, 0))
    results[(level, other)] = (old_pts + points, old_n + 1)


_LEVEL_LABEL = re.compile(r"^Komabot L([0-9]+)$")


def results_from_logs(paths: Iterable[Path]) -> tuple[set[str], Results]:
    """The variants and results of the level games in ``bench/match.py --log`` files (one
    JSON object a line); aborted games and games of other players are left out."""
    variants: set[str] = set()
    results: Results = {}
    for game in read_games(paths):
        a, b = _LEVEL_LABEL.match(game.a), _LEVEL_LABEL.match(game.b)
        if a is None or b is None or game.result is None:
            continue
        variants.add(game.variant)
        add_game(results, int(a.group(1)), int(b.group(1)), game.result)
    return variants, results


def levels_played(levels: Sequence[int], results: Results) -> list[int]:
    """Those of ``levels`` that played another level in ``results``: a log of a few levels'
    games rates only those (the others would show as empty rows, and a level against itself
    says nothing of its rating)."""
    played = {level for pair in results if pair[0] != pair[1] for level in pair}
    return [level for level in levels if level in played]


def _games(levels: Sequence[int], results: Results) -> list[tuple[int, int, float, int]]:
    """Each pair's games once: (i, j, i's points, games), ``i`` before ``j`` in ``levels``
    where both sides were given."""
    rank = {level: k for k, level in enumerate(levels)}
    out = []
    for (i, j), (pts, n) in results.items():
        if i not in rank or j not in rank or i == j:
            continue
        if rank[i] > rank[j] and (j, i) in results:
            continue  # the same games, read from the other side
        out.append((i, j, pts, n))
    return out


def games_between(levels: Sequence[int], results: Results) -> int:
    """How many games of ``results`` were played between two of ``levels`` (each once)."""
    return sum(n for *_, n in _games(levels, results))


def _pairs(levels: Sequence[int], results: Results) -> Results:
    """Points and games of each ordered pair, both ways, with the prior added."""
    out: Results = {}
    games = [(i, j, pts, n) for i, j, pts, n in _games(levels, results)]
    games += [(x, y, 0.5, 1) for x, y in itertools.pairwise(levels)]
    for i, j, pts, n in games:
        for key, points in (((i, j), pts), ((j, i), n - pts)):
            old_pts, old_n = out.get(key, (0.0, 0))
            out[key] = (old_pts + points, old_n + n)
    return out


def _expected(mine: float, theirs: float) -> float:
    return 1 / (1 + 10 ** ((theirs - mine) / 400))


def round_robin_elo(levels: Sequence[int], results: Results) -> dict[int, float]:
    """Elo per level by maximum likelihood, ``levels[0]`` at 0."""
    return _fit(levels, _opponents(levels, _pairs(levels, results)))


Opponents = dict[int, list[tuple[int, float, int]]]  # level: (other level, points, games)


def _opponents(levels: Sequence[int], pairs: Results) -> Opponents:
    out: Opponents = {level: [] for level in levels}
    for (p, q), (pts, n) in pairs.items():
        out[p].append((q, pts, n))
    return out


def _fit(
    levels: Sequence[int],
    opponents: Opponents,
    tie: tuple[int, int, float] | None = None,
    start: dict[int, float] | None = None,
) -> dict[int, float]:
    """The ratings of most likelihood, ``levels[0]`` at 0; with ``tie = (a, b, d)`` the most
    likely with level ``b`` held at level ``a`` plus ``d`` (the two move as one)."""
    rating = dict(start) if start else dict.fromkeys(levels, 0.0)
    a, b, d = tie if tie else (None, None, 0.0)
    if b is not None:
        rating[b] = rating[a] + d
    for _ in range(5000):
        change = 0.0
        for i in levels:
            if i == b:
                continue
            expected = actual = 0.0
            games = 0
            for who in (i, b) if i == a else (i,):
                mine = rating[who]
                for q, pts, n in opponents[who]:
                    expected += n * _expected(mine, rating[q])
                    actual += pts
                    games += n
            if games:
                step = 400 * (actual - expected) / games
                rating[i] += step
                change = max(change, abs(step))
                if i == a:
                    rating[b] = rating[a] + d
        base = rating[levels[0]]
        for i in levels:
            rating[i] -= base
        if change < 0.001:
            break
    return rating


def _log_likelihood(opponents: Opponents, rating: dict[int, float]) -> float:
    """Of every game (each seen from both sides, one side's points each time), prior included."""
    total = 0.0
    for p, games in opponents.items():
        for q, pts, _n in games:
            if pts:
                total += pts * math.log(_expected(rating[p], rating[q]))
    return total


def step_interval(
    levels: Sequence[int], results: Results, before: int, level: int
) -> tuple[float, float]:
    """The 95% profile-likelihood interval of ``level``'s rating less ``before``'s: the
    differences whose best fit is within ``CHI2_95 / 2`` of the likelihood's maximum.  An end
    beyond ``STEP_LIMIT`` Elo of the estimate is given as infinite."""
    opponents = _opponents(levels, _pairs(levels, results))
    best = _fit(levels, opponents)
    top = _log_likelihood(opponents, best)
    estimate = best[level] - best[before]

    def rejected(d: float, start: dict[int, float]) -> tuple[bool, dict[int, float]]:
        fit = _fit(levels, opponents, (before, level, d), start)
        return 2 * (top - _log_likelihood(opponents, fit)) > CHI2_95, fit

    ends = []
    for sign in (-1, 1):
        inside, start, width = 0.0, best, 50.0
        while True:  # outwards until rejected, then halve the gap
            out, fit = rejected(estimate + sign * width, start)
            if out:
                break
            inside, start = width, fit
            if width >= STEP_LIMIT:
                break
            width *= 2
        if not out:
            ends.append(sign * math.inf)
            continue
        outside = width
        while outside - inside > 1:
            middle = (inside + outside) / 2
            out, fit = rejected(estimate + sign * middle, start)
            if out:
                outside = middle
            else:
                inside, start = middle, fit
        ends.append(estimate + sign * (inside + outside) / 2)
    return ends[0], ends[1]


def covariance(levels: Sequence[int], results: Results) -> dict[tuple[int, int], float]:
    """The covariance (Elo squared) of the fitted ratings relative to the anchor
    ``levels[0]`` (which has none): the inverse of the Fisher information of the model."""
    rating = round_robin_elo(levels, results)
    pairs = _pairs(levels, results)
    free = list(levels[1:])
    index = {level: k for k, level in enumerate(free)}
    size = len(free)
    info = [[0.0] * size for _ in range(size)]
    for (p, q), (_pts, n) in pairs.items():
        e = _expected(rating[p], rating[q])
        w = n * e * (1 - e) * SCALE * SCALE / 2  # each game is counted from both sides
        for a, b, sign in ((p, p, 1), (q, q, 1), (p, q, -1), (q, p, -1)):
            if a in index and b in index:
                info[index[a]][index[b]] += sign * w
    inverse = _inverse(info)
    out = {(x, y): 0.0 for x in levels for y in levels}
    for x in free:
        for y in free:
            out[(x, y)] = inverse[index[x]][index[y]]
    return out


def elo_interval(cov: dict[tuple[int, int], float], x: int, y: int) -> float:
    """Half the width of the 95% interval of rating ``x`` less rating ``y``."""
    variance = cov[(x, x)] + cov[(y, y)] - 2 * cov[(x, y)]
    return Z95 * math.sqrt(max(0.0, variance))


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive-definite matrix (Gauss-Jordan)."""
    size = len(matrix)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(work[r][col]))
        work[col], work[pivot] = work[pivot], work[col]
        head = work[col][col]
        if head == 0:
            raise ValueError("the games do not connect every level to the anchor")
        work[col] = [x / head for x in work[col]]
        for r in range(size):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [x - factor * y for x, y in zip(work[r], work[col], strict=True)]
    return [row[size:] for row in work]


def ratings_table(levels: Sequence[int], results: Results) -> str:
    """The Markdown table per level: points, games, Elo with its 95% interval, and the step
    from the level before with its profile-likelihood 95% interval."""
    rating = round_robin_elo(levels, results)
    cov = covariance(levels, results)
    anchor = levels[0]
    lines = [
        f"| level | points | games | Elo (level {anchor} = 0) | step from the level before "
        "(95% interval) |",
        "|---|---|---|---|---|",
    ]
    seen = _played(levels, results)
    for before, level in zip([None, *levels], levels, strict=False):
        pts, n = seen[level]
        elo = f"{round(rating[level]):+d} ± {elo_interval(cov, level, anchor):.0f}"
        step = ""
        if before is not None:
            gap = rating[level] - rating[before]
            low, high = step_interval(levels, results, before, level)
            step = f"{round(gap):+d} ({_elo(low)} to {_elo(high)})"
        lines.append(f"| {level} | {pts:g} | {n} | {elo} | {step} |")
    return "\n".join(lines)


def _elo(value: float) -> str:
    return f"{value:+,.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def _played(levels: Sequence[int], results: Results) -> dict[int, tuple[float, int]]:
    """Each level's own points and games (the prior left out)."""
    out = {level: (0.0, 0) for level in levels}
    for i, j, pts, n in _games(levels, results):
        for who, points in ((i, pts), (j, n - pts)):
            old_pts, old_n = out[who]
            out[who] = (old_pts + points, old_n + n)
    return out


# --- how each level searched ---------------------------------------------------------------

SearchStats = dict[int, tuple[list[int], list[int]]]  # level: (depth, nodes) of each move


def add_search(stats: SearchStats, level: int, depths: Iterable[int], nodes: Iterable[int]) -> None:
    """Count the moves of ``level`` in one game: the depth each reached and its nodes."""
    old_depths, old_nodes = stats.setdefault(level, ([], []))
    old_depths.extend(depths)
    old_nodes.extend(nodes)


def search_from_logs(paths: Iterable[Path]) -> SearchStats:
    """Each level's depths and nodes a move in the level games of ``--log`` files (aborted
    games too: their moves were searched)."""
    stats: SearchStats = {}
    for game in read_games(paths):
        for side, label in (("a", game.a), ("b", game.b)):
            found = _LEVEL_LABEL.match(label)
            if found is None or side not in game.depths:
                continue
            add_search(stats, int(found.group(1)), game.depths[side], game.nodes[side])
    return stats


def search_table(levels: Sequence[int], stats: SearchStats) -> str:
    """The Markdown table per level: moves searched, their average and median depth and
    their average nodes."""
    lines = [
        "| level | moves | average depth | median depth | average nodes a move |",
        "|---|---|---|---|---|",
    ]
    for level in levels:
        depths, nodes = stats.get(level, ([], []))
        if not depths:
            lines.append(f"| {level} | 0 | - | - | - |")
            continue
        median = sorted(depths)[len(depths) // 2]
        lines.append(
            f"| {level} | {len(depths)} | {sum(depths) / len(depths):.1f} | {median} | "
            f"{sum(nodes) / max(1, len(nodes)):,.0f} |"
        )
    return "\n".join(lines)
