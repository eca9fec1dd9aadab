"""An analysis as KIF comments: the evaluation after each move, and for a move that lost win
chance its class and the engine's better move, in the words Japanese KIF readers use.

``kif_comments(analysis)`` gives ``ply -> lines`` for ``rules.records.export_file(record,
"kif" or "kifu", comments)``::

       23 ２四歩(25)
    *評価値 -412
    *悪手 勝率 -24.1%
    *最善手 ６八銀(79)

評価値 is sente's score in centipawns (a mate: ``先手の5手詰``, ``詰み`` once mated); the
classes are 疑問手 (inaccuracy), 悪手 (mistake) and 大悪手 (blunder).  Ply 0 names the engine
and its budget.
"""

from __future__ import annotations

from engine.analysis import GameAnalysis, Judgement, mate_in_plies
from rules import Position, load_variant
from rules.notation.printing import Printer

JUDGEMENT_WORDS = {
    Judgement.INACCURACY: "疑問手",
    Judgement.MISTAKE: "悪手",
    Judgement.BLUNDER: "大悪手",
}


def score_words(score: int) -> str:
    """``+123``, ``-45``, ``先手の3手詰``, ``後手の1手詰``, ``詰み``."""
    plies = mate_in_plies(score)
    if plies is None:
        return f"{score:+d}"
    if plies == 0:
        return "詰み"
    return f"{'先手' if plies > 0 else '後手'}の{abs(plies)}手詰"


def kif_comments(analysis: GameAnalysis) -> dict[int, list[str]]:
    """The comment lines for each ply of the analysed game."""
    from rules.records.kif import kif_move  # here: the bot starts without the KIF reader

    pos = Position.from_sfen(load_variant(analysis.variant), analysis.start_sfen)
    out = {0: [f"解析 {analysis.engine} ({analysis.budget.describe()})"]}
    for review in analysis.reviews:
        lines = [f"評価値 {score_words(review.after)}"]
        if review.judgement in JUDGEMENT_WORDS:
            lines.append(f"{JUDGEMENT_WORDS[review.judgement]} 勝率 -{review.loss:.1f}%")
            if review.best is not None and review.best != review.played:
                lines.append(f"最善手 {kif_move(Printer(pos), pos.parse_usi(review.best))}")
        out[review.ply] = lines
        pos.push_usi(review.played)
    return out
