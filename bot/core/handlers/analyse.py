"""``/analyse`` (``/analyze``): a finished game analysed by the engine, as a graph and a text.

The reply comes at once, as a card saying how far the analysis is ("move 12 of 84"), edited as
it goes (``Replies.edit_card``); the graph and the text then follow as a message of their own.
The engine work is :class:`bot.core.analyses.Analyses`'s (positions in the engine workers, one
analysis per chat, results kept in the database: a second ``/analyse`` of the game answers at
once with both, even after a restart; an analysis a restart cut short is run again and its card
edited to the end).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.core import present
from bot.core.analyses import Analyses, AnalysisBusy
from bot.core.api import Attachment, ChatKey, Reply
from bot.core.args import parse_number, shown
from bot.core.context import Context, UserError
from bot.core.games import Games
from bot.core.messages import text
from bot.core.opponent.engine_runner import EngineUnavailable
from bot.core.people import People
from bot.core.pictures import Pictures
from bot.core.replies import Replies
from bot.store.interface import Store
from bot.store.models import AnalysisRequest, ChatSettings, GameRow
from engine.analysis import Budget, GameAnalysis, MoveReview, PlayerSummary
from engine.usi_client import UsiEngineError
from render.evaluation_graph import GraphWords, Mark, render_evaluation_graph
from rules import Position, RulesError, load_variant

log = logging.getLogger("komabot.service")
STEPS = 10  # progress edits in an analysis at most (besides the first reply)
CLASS_KEYS = (  # by Judgement.severity
    "analysis.class.good",
    "analysis.class.inaccuracy",
    "analysis.class.mistake",
    "analysis.class.blunder",
)


@dataclass(eq=False)
class Analyse:
    """Picks the game, refuses what may not be analysed, starts and reports analyses."""

    store: Store
    games: Games
    people: People
    replies: Replies
    pictures: Pictures
    analyses: Analyses

    async def cmd_analyse(self, ctx: Context) -> Reply:
        game = await self.finished_game(ctx)
        found = await self.analyses.kept(game)
        if found is not None:
            return await self.result(game, found, ctx.settings)
        card = f"analysis:{game.id}"
        try:
            await self.analyses.claim(ctx.chat, game, card)
        except AnalysisBusy:
            raise UserError("analysis.busy") from None
        self.analyses.start(ctx.chat, self.run(ctx.chat, ctx.settings, game, card))
        total = len(game.moves)
        return Reply(ctx.t("analysis.progress", game=game.id, done=0, total=total), card=card)

    def start(self) -> None:
        """At start-up: take up the analyses a restart cut short (see ``Analyses``)."""
        self.analyses.resume_from_now_on(self.resume)

    async def resume(self, request: AnalysisRequest) -> None:
        """Run a request taken up after a restart: its card edited from the start again."""
        game = await self.store.get_game(request.game_id)
        if game is None or game.active:
            return  # gone, or (against every rule) in progress again: nothing to answer
        settings = await self.store.get_settings(request.chat)
        await self.run(request.chat, settings, game, request.card)

    async def finished_game(self, ctx: Context) -> GameRow:
        """The game named (``12``, ``#12``), or the asker's last one in this chat; a game in
        progress is refused: no engine help during a game."""
        args = ctx.args
        if len(args) > 1:
            raise UserError("game.bad_number", text=shown(" ".join(args)))
        if args:
            number = parse_number(args[0])
            if number is None:
                raise UserError("game.bad_number", text=shown(args[0]))
            game = await self.games.by_number(ctx, number)
        else:
            found = await self.store.last_game(ctx.chat, ctx.user)
            if found is None:
                raise UserError("analysis.none")
            game = found
        if game.active:
            raise UserError("analysis.in_progress", game=game.id)
        if not game.moves:
            raise UserError("analysis.no_moves", game=game.id)
        return game

    async def run(self, chat: ChatKey, settings: ChatSettings, game: GameRow, card: str) -> None:
        """Analyse ``game`` for ``chat``: the card edited as it goes, then the result."""
        loop = asyncio.get_running_loop()
        lang = settings.language
        steps: asyncio.Queue[int] = asyncio.Queue()
        total = len(game.moves)
        shown_step = [0]

        def progress(done: int, positions: int) -> None:  # on the analysis thread
            step = STEPS * done // positions
            if step > shown_step[0]:
                shown_step[0] = step
                loop.call_soon_threadsafe(steps.put_nowait, min(done, total))

        async def edit(key: str, **params: object) -> None:
            said = text(key, lang, game=game.id, **params)
            await self.replies.edit_card(chat, card, Reply(said, lang=lang))

        work = asyncio.ensure_future(self.analyses.analyse(game, progress))
        try:
            while not work.done():
                step = asyncio.ensure_future(steps.get())
                await asyncio.wait((work, step), return_when=asyncio.FIRST_COMPLETED)
                if not step.done():
                    step.cancel()
                    continue
                if step.result() < total:
                    await edit("analysis.progress", done=step.result(), total=total)
        finally:
            if not work.done():  # the service stops: so does the analysis
                work.cancel()
        try:
            analysis = work.result()
        except (RulesError, UsiEngineError, EngineUnavailable, OSError) as exc:
            await edit("analysis.failed", problem=str(exc))  # a damaged record, the engine
            return
        except Exception:
            log.exception("analysis of game %s failed", game.id)
            await edit("analysis.broken")
            return
        await edit("analysis.done")
        await self.replies.send(chat, await self.result(game, analysis, settings))

    async def result(self, game: GameRow, analysis: GameAnalysis, settings: ChatSettings) -> Reply:
        """The graph and the text of ``analysis`` in the chat's language and notation."""
        lang = settings.language
        names = await self.people.names(game, lang)
        t = text
        engine = t(
            "analysis.engine",
            lang,
            engine=analysis.engine,
            budget=budget_words(analysis.budget, lang),
        )
        words = GraphWords(
            title=t("analysis.graph_title", lang, game=game.id, engine=engine),
            sente=f"☗ {names[0]}",
            gote=f"☖ {names[1]}",
            result=present.result_caption(game, names, lang),
            inaccuracy=t(CLASS_KEYS[1], lang),
            mistake=t(CLASS_KEYS[2], lang),
            blunder=t(CLASS_KEYS[3], lang),
        )
        marks = [
            Mark(r.ply, r.judgement.severity) for r in analysis.reviews if r.judgement.severity
        ]
        png = await self.pictures.draw(render_evaluation_graph, analysis.scores, marks, words)
        lines = [
            t("analysis.header", lang, game=game.id, sente=names[0], gote=names[1], engine=engine)
        ]
        for player in analysis.players:
            lines.append(player_line(player, names[player.side], lang))
            lines += [worst_line(game, review, settings) for review in player.worst]
        worst = max(
            (r for p in analysis.players for r in p.worst),
            key=lambda r: (r.loss, -r.ply),
            default=None,
        )
        if worst is not None:  # where to look first: the costliest move's position
            lines.append(
                t("analysis.see_board", lang, game=game.id, ply=worst.ply, before=worst.ply - 1)
            )
        image = Attachment(png, f"analysis-{game.id}.png", "image/png")
        return Reply("\n".join(lines), image=image, lang=lang)


def budget_words(budget: Budget, lang: str) -> str:
    """``300 ms per move`` / ``2000 nodes per move`` in ``lang``."""
    if budget.movetime_ms is not None:
        return text("analysis.budget_ms", lang, ms=budget.movetime_ms)
    return text("analysis.budget_nodes", lang, nodes=budget.nodes)


def player_line(player: PlayerSummary, name: str, lang: str) -> str:
    color = present.color_name(player.side, lang)
    mark = "☗☖"[player.side]
    if player.accuracy is None:
        return text("analysis.player_no_moves", lang, mark=mark, color=color, name=name)
    return text(
        "analysis.player",
        lang,
        mark=mark,
        color=color,
        name=name,
        accuracy=f"{player.accuracy:.1f}",
        inaccuracies=player.inaccuracies,
        mistakes=player.mistakes,
        blunders=player.blunders,
    )


def worst_line(game: GameRow, review: MoveReview, settings: ChatSettings) -> str:
    """One of a player's worst moves: the move, its class and loss, the better move."""
    lang, notation = settings.language, settings.notation
    pos = Position.from_sfen(load_variant(game.variant), game.start_sfen)
    for move in game.moves[: review.ply - 1]:
        pos.push_usi(move)
    played = present.format_move(pos, pos.parse_usi(review.played), notation)
    better = text("analysis.no_better", lang)
    if review.best:
        try:
            better = present.format_move(pos, pos.parse_usi(review.best), notation)
        except RulesError:  # an external engine's move Komabot cannot read: shown as it came
            better = review.best
    return text(
        "analysis.worst",
        lang,
        ply=review.ply,
        played=played,
        judgement=text(CLASS_KEYS[review.judgement.severity], lang),
        loss=f"{review.loss:.1f}",
        better=better,
    )
