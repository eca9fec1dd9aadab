"""``/puzzle``: mate problems in the chat, one at a time per player.

``/puzzle [variant]`` gives the asker a puzzle near their puzzle rating (the variant named, else
the chat's latest game's, else Standard Shogi); they answer with ``/puzzle MOVE``, or ``/move``
(and bare moves) when they have no game to move in here: :meth:`Puzzles.takes_move` decides.
Each right move gets the defence's longest reply until the mate; a wrong move is told what was
wrong and the puzzle then counts as failed (they may go on trying).  ``/puzzle hint`` names the
piece to move, a second hint its square; ``/puzzle solution`` shows the rest of the mate and ends
the puzzle as failed.  A finished puzzle moves the player's puzzle rating and the puzzle's own
(Glicko-2): solved 1, solved after a hint 0.5, failed 0.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.core import present
from bot.core.api import Attachment, Reply
from bot.core.args import shown
from bot.core.context import Context, UserError
from bot.core.games import reads_as_move
from bot.core.handlers.daily_puzzle import DailyPuzzle
from bot.core.messages import plural
from bot.core.move_reading import read_move
from bot.core.pictures import Pictures
from bot.core.present.puzzles import (
    attacker_of,
    hands_line,
    moves_text,
    puzzle_image,
    puzzle_names,
    puzzle_text_board,
    task_line,
)
from bot.core.puzzle_book import PuzzleBook, level_of, seed_rating
from bot.core.puzzle_judge import Judgement, Verdict, judge, mating_line
from bot.core.rating_lines import change_words
from bot.core.words import PUZZLE_WORDS, variant_of
from bot.glicko2 import Rating
from bot.store.interface import Store
from bot.store.models import PuzzleOutcome, PuzzleSession
from puzzles.puzzle import Puzzle
from rules import Move, Position, load_variant

HINTED_SCORE = 0.5  # a puzzle solved after a hint
WRONG_VERDICTS = {
    Verdict.NOT_CHECK: "puzzle.wrong.not_check",
    Verdict.ESCAPES: "puzzle.wrong.escapes",
    Verdict.REFUTED: "puzzle.wrong.refuted",
    Verdict.HOLDS: "puzzle.wrong.holds",
}


def position_of(puzzle: Puzzle, moves: tuple[str, ...]) -> Position:
    """The puzzle's position after ``moves`` (USI, each checked legal)."""
    pos = Position.from_sfen(load_variant(puzzle.variant), puzzle.sfen)
    for usi in moves:
        pos.push_usi(usi)
    return pos


def read_line(pos: Position, moves: Sequence[str]) -> list[Move]:
    """``moves`` (USI, legal one after the other from ``pos``, which is not changed)."""
    work = pos.copy()
    return [work.push_usi(usi) for usi in moves]


@dataclass(eq=False)
class Puzzles:
    """Puzzle sessions over the store, the collections and the board pictures."""

    store: Store
    book: PuzzleBook
    pictures: Pictures
    rng: random.Random
    daily: DailyPuzzle

    async def cmd_puzzle(self, ctx: Context) -> Reply:
        words = " ".join(ctx.args).split()  # a slash option may hold several words
        session = await self.store.puzzle_session(ctx.user)
        if not words:
            if session is None:
                return await self.start(ctx, await self.variant_here(ctx))
            return await self.show(ctx, session, ctx.t("puzzle.again"))
        action = PUZZLE_WORDS.get(words[0].lower())
        if action == "daily" and len(words) == 1:
            return await self.start_daily(ctx, session)
        variant = variant_of(words[0])
        if variant is not None and len(words) == 1:
            if session is not None:
                raise UserError("puzzle.in_progress", puzzle=session.puzzle_id)
            return await self.start(ctx, variant)
        if session is None:
            key = "puzzle.none" if action is not None else "puzzle.bad_arg"
            raise UserError(key, text=shown(words[0]))
        if action == "hint" and len(words) == 1:
            return await self.hint(ctx, session)
        if action == "solution" and len(words) == 1:
            return await self.solution(ctx, session)
        if action == "move":
            words = words[1:]
        if not words:
            raise UserError("puzzle.move_missing")
        return await self.play(ctx, session, " ".join(words))

    async def takes_move(self, ctx: Context) -> bool:
        """Whether a ``/move`` (or a bare move) goes to the author's puzzle: they have one in
        progress, the command names no game (``#12``) and they have no game in progress to
        move in here (in a private chat with the bot: none anywhere)."""
        if ctx.args and ctx.args[-1].startswith("#"):
            return False
        if await self.store.puzzle_session(ctx.user) is None:
            return False
        if await self.store.active_game(ctx.chat, ctx.user) is not None:
            return False
        if ctx.request.options.get("chat") == "private":
            return await self.store.count_active_games_of(ctx.user) == 0
        return True

    async def cmd_move(self, ctx: Context) -> Reply:
        """``/move`` taken by the puzzle (see :meth:`takes_move`)."""
        session = await self.store.puzzle_session(ctx.user)
        if session is None:  # finished meanwhile
            raise UserError("puzzle.none", text="")
        if not ctx.args:
            raise UserError("puzzle.move_missing")
        return await self.play(ctx, session, " ".join(ctx.args))

    async def reads_as_move(self, ctx: Context) -> bool:
        """Whether the author has a puzzle in which ``ctx.args`` reads as a move."""
        session = await self.store.puzzle_session(ctx.user)
        puzzle = self.book.get(session.puzzle_id) if session else None
        if session is None or puzzle is None:
            return False
        from_here = position_of(puzzle, session.moves)
        return reads_as_move(from_here, " ".join(ctx.args))

    async def variant_here(self, ctx: Context) -> str:
        return await self.store.latest_variant(ctx.chat) or "shogi"

    # --- giving a puzzle ----------------------------------------------------------------

    async def start(self, ctx: Context, variant: str) -> Reply:
        chat = ctx.chat
        mine = await self.store.puzzle_rating(chat.platform, chat.community_id, ctx.user)
        rating = Rating() if mine is None else Rating(mine.rating, mine.deviation)
        done = await self.store.puzzles_done(ctx.user)
        ratings = await self.store.puzzle_difficulties()
        level = level_of(rating.rating, rating.deviation)
        puzzle = self.book.pick(variant, level, done, ratings, self.rng)
        if puzzle is None:
            raise UserError(
                "puzzle.none_in_variant", variant=present.variant_name(variant, ctx.lang)
            )
        session = PuzzleSession(
            ctx.user, chat.platform, chat.community_id, chat.chat_id, puzzle.id, (), False, 0, -1,
            ctx.now, ctx.now,
        )  # fmt: skip
        if not await self.store.start_puzzle(session):  # another request started one first
            session = await self.store.puzzle_session(ctx.user) or session
            return await self.show(ctx, session, ctx.t("puzzle.again"))
        return await self.show(ctx, session, "")

    async def start_daily(self, ctx: Context, session: PuzzleSession | None) -> Reply:
        """``/puzzle daily``: the chat's puzzle of the day, as the asker's puzzle."""
        day, puzzle_id = await self.daily.todays(ctx)
        solvers = await self.daily.solvers_line(ctx, day)
        if session is not None:
            if session.daily_day != day or session.puzzle_id != puzzle_id:
                raise UserError("puzzle.in_progress", puzzle=session.puzzle_id)
            return await self.show(ctx, session, solvers)
        if puzzle_id in await self.store.puzzles_done(ctx.user):  # rated once, not again
            raise UserError("puzzle.daily.done", puzzle=puzzle_id, solvers=solvers)
        chat = ctx.chat
        session = PuzzleSession(
            ctx.user, chat.platform, chat.community_id, chat.chat_id, puzzle_id, (), False, 0, -1,
            ctx.now, ctx.now, daily_day=day,
        )  # fmt: skip
        if not await self.store.start_puzzle(session):
            raise UserError("puzzle.changed")
        return await self.show(ctx, session, solvers)

    async def show(self, ctx: Context, session: PuzzleSession, first: str) -> Reply:
        """The puzzle as it stands: its task, the hands, the SFEN, how to answer, the board."""
        puzzle = self.puzzle_of(session)
        pos = position_of(puzzle, session.moves)
        ratings = await self.store.puzzle_difficulties()
        rating = round(ratings.get(puzzle.id, seed_rating(puzzle))[0])
        lines = [first] if first else []
        lines.append(
            ctx.t(
                "puzzle.header",
                puzzle=puzzle.id,
                variant=present.variant_name(puzzle.variant, ctx.lang),
                rating=rating,
            )
        )
        lines.append(task_line(puzzle, ctx.lang))
        if session.moves:
            start = position_of(puzzle, ())
            played = moves_text(start, read_line(start, session.moves), ctx.settings.notation)
            lines.append(ctx.t("puzzle.so_far", moves=played))
            lines.append(plural("puzzle.left", ctx.lang, puzzle.mate_in - len(session.moves)))
        lines.append(hands_line(pos, ctx.lang))
        lines.append(ctx.t("board.sfen", sfen=pos.sfen()))
        lines.append(ctx.t("puzzle.how"))
        return await self.board_reply(ctx, puzzle, pos, lines)

    # --- answering ----------------------------------------------------------------------

    async def play(self, ctx: Context, session: PuzzleSession, move_text: str) -> Reply:
        puzzle = self.puzzle_of(session)
        pos = position_of(puzzle, session.moves)
        move = read_move(ctx, pos, move_text, "puzzle move {}")
        shown_move = present.format_move(pos, move, ctx.settings.notation)
        left = puzzle.mate_in - len(session.moves)
        judgement = await asyncio.to_thread(judge, pos, move, left)
        if judgement.verdict is Verdict.SOLVED:
            pos.make_unchecked(move)
            score = 0.0 if session.failed else HINTED_SCORE if session.hints else 1.0
            outcome = await self.finish(ctx, session, puzzle, score)
            key = "puzzle.solved"
            if session.failed:
                key = "puzzle.solved.failed"
            elif session.hints:
                key = "puzzle.solved.hinted"
            lines = [
                ctx.t("puzzle.mate", move=shown_move),
                ctx.t(key),
                self.rating_line(ctx, outcome),
            ]
            if session.daily_day and not session.failed:
                lines.append(await self.daily.solved_line(ctx, session, puzzle))
            return await self.board_reply(ctx, puzzle, pos, lines, move)
        if judgement.verdict is Verdict.RIGHT:
            assert judgement.reply is not None
            return await self.right(ctx, session, puzzle, pos, move, judgement.reply)
        return await self.wrong(ctx, session, puzzle, pos, move, judgement)

    async def right(
        self,
        ctx: Context,
        session: PuzzleSession,
        puzzle: Puzzle,
        pos: Position,
        move: Move,
        reply: Move,
    ) -> Reply:
        shown_move = present.format_move(pos, move, ctx.settings.notation)
        pos.make_unchecked(move)
        shown_reply = present.format_move(pos, reply, ctx.settings.notation)
        moves = (*session.moves, pos.usi(move), pos.usi(reply))
        pos.make_unchecked(reply)
        new = replace(session, moves=moves, updated_at=ctx.now)
        if not await self.store.update_puzzle(new, session.moves):
            raise UserError("puzzle.changed")
        lines = [
            ctx.t("puzzle.right", move=shown_move, reply=shown_reply),
            plural("puzzle.left", ctx.lang, puzzle.mate_in - len(moves)),
        ]
        return await self.board_reply(ctx, puzzle, pos, lines, reply)

    async def wrong(
        self,
        ctx: Context,
        session: PuzzleSession,
        puzzle: Puzzle,
        pos: Position,
        move: Move,
        judgement: Judgement,
    ) -> Reply:
        notation = ctx.settings.notation
        shown_move = present.format_move(pos, move, notation)
        reply = judgement.reply
        after = pos.copy()
        after.make_unchecked(move)
        shown_reply = present.format_move(after, reply, notation) if reply else ""
        lines = [ctx.t(WRONG_VERDICTS[judgement.verdict], move=shown_move, reply=shown_reply)]
        if not session.failed:
            failed = replace(session, failed=True, updated_at=ctx.now)
            if not await self.store.update_puzzle(failed, session.moves):
                raise UserError("puzzle.changed")
            lines.append(ctx.t("puzzle.counts_failed"))
        lines.append(ctx.t("puzzle.try_again"))
        if reply is None:
            return Reply("\n".join(lines))
        after.make_unchecked(reply)  # where the refutation leaves the king
        return await self.board_reply(ctx, puzzle, after, lines, reply)

    async def hint(self, ctx: Context, session: PuzzleSession) -> Reply:
        puzzle = self.puzzle_of(session)
        pos = position_of(puzzle, session.moves)
        line = await asyncio.to_thread(mating_line, pos, puzzle.mate_in - len(session.moves))
        if not line:
            raise UserError("puzzle.no_hint")
        first = line[0]
        ply = len(session.moves)
        again = session.hint_ply == ply  # a second hint here names the square too
        hinted = replace(session, hints=session.hints + 1, hint_ply=ply, updated_at=ctx.now)
        if not await self.store.update_puzzle(hinted, session.moves):
            raise UserError("puzzle.changed")
        notation = ctx.settings.notation
        piece = pos.variant.piece(first.drop or abs(pos.piece_at(first.from_sq)))
        name = present.piece_name(pos, piece.letter, ctx.lang)
        to = present.square_name(pos.variant, first.to_sq, notation)
        if first.drop:
            key = "puzzle.hint.drop_square" if again else "puzzle.hint.drop"
            said = ctx.t(key, piece=name, square=to)
        else:
            frm = present.square_name(pos.variant, first.from_sq, notation)
            key = "puzzle.hint.square" if again else "puzzle.hint.piece"
            said = ctx.t(key, piece=name, origin=frm, square=to)
        more = ctx.t("puzzle.hint.counts") if session.hints == 0 and not session.failed else ""
        return Reply("\n".join(x for x in (said, more) if x))

    async def solution(self, ctx: Context, session: PuzzleSession) -> Reply:
        if self.book.get(session.puzzle_id) is None:  # left the collection: put aside, unrated
            if not await self.store.abandon_puzzle(session):
                raise UserError("puzzle.changed")
            return Reply(ctx.t("puzzle.gone_ended", puzzle=session.puzzle_id))
        puzzle = self.puzzle_of(session)
        pos = position_of(puzzle, session.moves)
        line = await asyncio.to_thread(mating_line, pos, puzzle.mate_in - len(session.moves))
        if not line:  # beyond the node limit: the collection's own line, when still on it
            if tuple(puzzle.solution[: len(session.moves)]) != session.moves:
                raise UserError("puzzle.no_hint")
            line = read_line(pos, puzzle.solution[len(session.moves) :])
        outcome = await self.finish(ctx, session, puzzle, 0.0)
        said = ctx.t("puzzle.solution", moves=moves_text(pos, line, ctx.settings.notation))
        for move in line:
            pos.make_unchecked(move)
        lines = [said, self.rating_line(ctx, outcome)]
        return await self.board_reply(ctx, puzzle, pos, lines, line[-1])

    # --- shared parts -------------------------------------------------------------------

    def puzzle_of(self, session: PuzzleSession) -> Puzzle:
        puzzle = self.book.get(session.puzzle_id)
        if puzzle is None:
            raise UserError("puzzle.gone", puzzle=session.puzzle_id)
        return puzzle

    async def finish(
        self, ctx: Context, session: PuzzleSession, puzzle: Puzzle, score: float
    ) -> PuzzleOutcome:
        outcome = await self.store.finish_puzzle(session, score, seed_rating(puzzle), ctx.now)
        if outcome is None:
            raise UserError("puzzle.changed")
        return outcome

    def rating_line(self, ctx: Context, outcome: PuzzleOutcome) -> str:
        return ctx.t("puzzle.rating", **change_words(outcome))

    async def board_reply(
        self,
        ctx: Context,
        puzzle: Puzzle,
        pos: Position,
        lines: list[str],
        last: Move | None = None,
    ) -> Reply:
        """``lines`` with the board (attacker at the bottom; ``last`` marked) as an image when
        pictures are on, and as text."""
        attacker = attacker_of(puzzle)
        pair = puzzle_names(puzzle, ctx.request.user.name, ctx.lang)
        marks = tuple(s for s in ((last.from_sq, last.to_sq) if last else ()) if s >= 0)
        image: Attachment | None = None
        if self.pictures.enabled:
            image = await self.pictures.draw(
                puzzle_image, pos.copy(), ctx.settings, pair, attacker, marks
            )
        board = puzzle_text_board(pos, ctx.settings, pair, attacker, frozenset(marks))
        return Reply("\n".join(lines), image=image, text_board=board)
