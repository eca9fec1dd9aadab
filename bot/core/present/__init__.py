"""How games look to people: moves in the chat's notation (:mod:`.moves`), times
(:mod:`.times`), results (:mod:`.results`), boards as images and text (:mod:`.boards`,
:mod:`.textboard`) and how a piece moves in words (:mod:`.piece_moves`).

The one place where the service calls the notation (``rules.notation``) and image
(``render``) layers; the service reads them as ``present.<name>``.
"""

from __future__ import annotations

from bot.core.present.boards import (
    board_options,
    board_text,
    coordinates,
    diagram_words,
    gote_at_bottom,
)
from bot.core.present.handicaps import game_variant_name, handicap_name, handicap_of
from bot.core.present.moves import (
    color_name,
    format_move,
    japanese_name,
    or_list,
    parse_move,
    piece_name,
    rules_key,
    rules_problem,
    square_name,
    variant_name,
)
from bot.core.present.results import (
    impasse_problems,
    result_caption,
    result_text,
)
from bot.core.present.times import (
    format_clock,
    format_deadline,
    format_delta,
    format_duration,
    format_seconds,
    format_time_control,
    format_when,
)

__all__ = [
    "board_options",
    "board_text",
    "color_name",
    "coordinates",
    "diagram_words",
    "format_clock",
    "format_deadline",
    "format_delta",
    "format_duration",
    "format_move",
    "format_seconds",
    "format_time_control",
    "format_when",
    "game_variant_name",
    "gote_at_bottom",
    "handicap_name",
    "handicap_of",
    "impasse_problems",
    "japanese_name",
    "or_list",
    "parse_move",
    "piece_name",
    "result_caption",
    "result_text",
    "rules_key",
    "rules_problem",
    "square_name",
    "variant_name",
]
