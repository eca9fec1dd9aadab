"""A move as a player types it, read in a position: the legal move it means, or a refusal
that says why (with buttons for the moves an ambiguous text may mean)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import present
from bot.core.api import Button
from bot.core.context import Buttons, Context, UserError
from rules import AmbiguousMoveError, IllegalMoveError, Move, Position, RulesError


def button_rows(buttons: Sequence[Button], per_row: int = 5) -> Buttons:
    return tuple(tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row))


def read_move(ctx: Context, pos: Position, move_text: str, action: str) -> Move:
    """The legal move ``move_text`` means in ``pos``; refused with why (or with buttons for
    the moves it may mean, each sending ``action`` with the move's USI in place of ``{}``)."""
    try:
        return present.parse_move(pos, move_text)
    except AmbiguousMoveError as exc:
        candidates: list[Move] = list(exc.params.get("candidates", ()))
        buttons = [
            Button(
                present.format_move(pos, m, ctx.settings.notation),
                action.format(pos.usi(m)),
                "primary",
            )
            for m in candidates[:25]
        ]
        key = "move.promotion_choice" if exc.code == "promotion_choice" else "move.ambiguous"
        raise UserError(key, buttons=button_rows(buttons), text=move_text) from None
    except IllegalMoveError as exc:
        problem = present.rules_problem(exc, pos, ctx.lang, ctx.settings.notation)
        raise UserError("move.illegal", problem=problem) from None
    except RulesError as exc:
        raise UserError(
            "move.malformed",
            problem=present.rules_problem(exc, pos, ctx.lang, ctx.settings.notation),
        ) from None
