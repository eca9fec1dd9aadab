"""How a piece moves, said in the chat's language: the parts come from ``rules.movement``, the
words from the catalogue's ``describe.*`` keys."""

from __future__ import annotations

from bot.core.messages import has, text
from bot.core.present.moves import or_list
from rules.betza import MoveSpec
from rules.movement import Direction, Movement, Reach, describe_moves

# an oblique jump's direction: which way along its long leg, which way across
_OBLIQUE: dict[Direction, tuple[str, str]] = {
    Direction.FORWARD: ("forward", "side"),
    Direction.BACKWARD: ("backward", "side"),
    Direction.FORWARD_LEFT: ("forward", "left"),
    Direction.FORWARD_RIGHT: ("forward", "right"),
    Direction.BACKWARD_LEFT: ("backward", "left"),
    Direction.BACKWARD_RIGHT: ("backward", "right"),
}
_PLAIN = {Reach.STEP: "describe.step", Reach.SLIDE: "describe.slide", Reach.RANGE: "describe.range"}


def moves_in_words(spec: MoveSpec, lang: str) -> str:
    """``one step forward or diagonally backward``; the movements joined by ``; ``."""
    return text("describe.parts", lang).join(
        movement_in_words(m, lang) for m in describe_moves(spec)
    )


def movement_in_words(m: Movement, lang: str) -> str:
    if not m.leaping:
        return text(_PLAIN[m.reach], lang, directions=_directions(m, lang), limit=m.limit)
    jump = _oblique_jump(m, lang) if m.oblique else _straight_jump(m, lang)
    if m.reach is Reach.SLIDE:
        return text("describe.repeat", lang, move=jump)
    if m.reach is Reach.RANGE:
        return text("describe.repeat_up_to", lang, move=jump, limit=m.limit)
    return jump


def _number(n: int, lang: str) -> str:
    return text(f"describe.n.{n}", lang) if has(f"describe.n.{n}") else str(n)


def _directions(m: Movement, lang: str) -> str:
    return or_list([text(f"describe.dir.{d.value}", lang) for d in m.directions], lang)


def _straight_jump(m: Movement, lang: str) -> str:
    return text("describe.jump", lang, n=_number(m.distance, lang), directions=_directions(m, lang))


def _oblique_jump(m: Movement, lang: str) -> str:
    """``jumps to the square two ahead and one to the side``: one phrase per way across, the
    ways along it (ahead, back) joined."""
    along_by_across: dict[str, list[str]] = {}
    for d in m.directions:
        along, across = _OBLIQUE[d]
        along_by_across.setdefault(across, []).append(text(f"describe.along.{along}", lang))
    key = "describe.knight_wide" if m.wide else "describe.knight"
    phrases = [
        text(
            key,
            lang,
            long=_number(m.distance, lang),
            short=_number(m.side, lang),
            along=or_list(alongs, lang),
            across=text(f"describe.across.{across}", lang),
        )
        for across, alongs in along_by_across.items()
    ]
    return or_list(phrases, lang)
