"""The storage interface the game service uses; SQLite and PostgreSQL implement it.

Every method is one transaction.  Updates name the version (games) or status (challenges) they
read and raise :class:`~bot.store.errors.VersionConflict` when the row changed meanwhile, so
several processes can share one database safely.

Writes refused by the database raise :class:`~bot.store.errors.ReadOnlyStore` (it cannot be
written) or :class:`~bot.store.errors.StoreFull` (no space left), never a driver's error; the
transaction is then not applied.  Lists of rows take a ``limit`` (None: all) and have a count
beside them, so a reply can show some and say how many more there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.store.models import (
    AnalysisRequest,
    AnalysisRow,
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    DailyPuzzleChat,
    DailySolve,
    GameRow,
    NewNotice,
    NewTimer,
    NoticeRow,
    NoticeState,
    PuzzleOutcome,
    PuzzleRating,
    PuzzleSession,
    RatingChange,
    RatingRow,
    ReminderRoute,
    TimerRow,
    UserRow,
)


class Store(Protocol):
    async def close(self) -> None: ...

    # users
    async def save_user(self, user: UserRow) -> None:
        """Keep the user's display name; writes nothing when it is the stored one."""
        ...

    async def get_user(self, key: str) -> UserRow | None: ...
    async def users_named(self, platform: str, name: str, limit: int = 10) -> list[UserRow]:
        """Users of ``platform`` whose display name is ``name`` (ignoring case), at most
        ``limit``; never matched against ids (anyone may call themselves ``111``)."""
        ...

    # challenges
    async def create_challenge(
        self,
        chat: ChatKey,
        challenger: str,
        challenged: str | None,
        variant: str,
        color: str,
        time_per_move: int | None,
        now: float,
        expires_at: float,
        *,
        rated: bool = True,
        handicap: str | None = None,
        main_time: int | None = None,
    ) -> ChallengeRow:
        """Insert an open challenge (``rated``: its game counts for ratings; ``main_time``:
        each side's main time, ``time_per_move`` then the byoyomi) and its expiry timer.

        A challenger has at most one open challenge per chat, held by the database itself
        (requests racing each other included): ChallengeAlreadyOpen names the one there.
        """
        ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    async def open_challenges(
        self,
        chat: ChatKey,
        *,
        by: str | None = None,
        to: str | None = None,
        limit: int | None = None,
    ) -> list[ChallengeRow]:
        """The open challenges in ``chat`` (any thread), oldest first, at most ``limit``.

        ``by``: only those the user ``by`` made.  ``to``: only those the user ``to`` may
        accept (addressed to them, or to anyone and not their own), those addressed to them
        first."""
        ...

    async def count_open_challenges(
        self, chat: ChatKey, *, by: str | None = None, to: str | None = None
    ) -> int:
        """How many challenges :meth:`open_challenges` would list without a limit."""
        ...

    async def close_challenge(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        """Move an open challenge to ``status``; VersionConflict if it is no longer open."""
        ...

    async def accept_challenge(
        self, challenge_id: int, game: GameRow, timers: Sequence[NewTimer]
    ) -> GameRow:
        """Atomically mark the challenge accepted and insert ``game`` (its id is assigned)."""
        ...

    async def create_game(
        self, game: GameRow, timers: Sequence[NewTimer], *, free: Sequence[str]
    ) -> GameRow:
        """Insert ``game`` (its id is assigned) and its ``timers``, unless one of the players
        ``free`` already has an active game in its chat: VersionConflict then.  For games that
        start with no challenge (against the bot, who may play any number of games at once)."""
        ...

    # games
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def active_game(self, chat: ChatKey, user_key: str) -> GameRow | None: ...
    async def active_games_in_chat(
        self, chat: ChatKey, *, limit: int | None = None
    ) -> list[GameRow]: ...
    async def count_active_games_in_chat(self, chat: ChatKey) -> int: ...
    async def active_games_of(
        self, user_key: str, *, limit: int | None = None
    ) -> list[GameRow]: ...
    async def count_active_games_of(self, user_key: str) -> int: ...
    async def last_game(self, chat: ChatKey, user_key: str) -> GameRow | None: ...
    async def count_active_games(self) -> int: ...
    async def active_engine_games(self) -> list[GameRow]:
        """Every active game against the bot (``engine_level`` set), oldest first; read at
        start to resume the games where the bot is to move."""
        ...

    async def unclaimed_engine_games(self, now: float) -> list[GameRow]:
        """The active games against the bot where it is to move and that no process holds a
        live claim on at their present version (see :meth:`claim_engine_turn`), oldest
        first."""
        ...

    async def claim_engine_turn(
        self, game_id: int, version: int, owner: str, now: float, until: float
    ) -> bool:
        """Claim the bot's turn in ``game_id`` at ``version`` for ``owner`` until ``until``;
        False while another owner's claim on that version lasts.  Only the holder asks the
        engine, so one process thinks about each move; a claim that ends (its process died)
        lets another process take the turn."""
        ...

    async def renew_engine_turn(self, game_id: int, version: int, owner: str, until: float) -> bool:
        """Make ``owner``'s claim on the bot's turn in ``game_id`` at ``version`` last until
        ``until`` (the heartbeat of a process still thinking); False when the claim is no
        longer its own (it ran out and another process took the turn, or the game moved on)."""
        ...

    async def release_engine_turns(self, owner: str) -> None:
        """Give up ``owner``'s claims (at a clean shutdown: the next start takes them up)."""
        ...

    async def latest_variant(self, chat: ChatKey) -> str | None:
        """The variant of the newest game in ``chat`` (active or finished), None if none."""
        ...

    async def update_game(
        self,
        game: GameRow,
        timers: Sequence[NewTimer] | None = None,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> GameRow:
        """Write ``game`` if the stored version is still ``game.version``; return it with the
        version raised by one.  ``timers`` (when given) replace the game's pending timers;
        ``notices`` are queued for delivery in the same transaction."""
        ...

    # ratings (applied by update_game, in the transaction that finishes a rateable game)
    async def rating(
        self, platform: str, community: str, player: str, variant: str
    ) -> RatingRow | None:
        """The player's rating in ``variant`` in ``community`` (a chat id; '' for the whole
        platform); None before their first rated game there."""
        ...

    async def ratings_of(self, platform: str, community: str, player: str) -> list[RatingRow]:
        """The player's ratings in every variant they played rated in ``community``."""
        ...

    async def leaderboard(
        self, platform: str, community: str, variant: str, *, offset: int = 0, limit: int = 10
    ) -> list[RatingRow]:
        """The non-provisional ratings of ``community`` in ``variant``, best first (ties by
        player key), from place ``offset + 1`` on; read through the index ``ratings_board``."""
        ...

    async def leaderboard_size(self, platform: str, community: str, variant: str) -> int:
        """How many players the leaderboard of ``community`` in ``variant`` has."""
        ...

    async def leaderboard_place(self, platform: str, community: str, mine: RatingRow) -> int | None:
        """The place (1 first) of the rating ``mine`` on its community's leaderboard; None
        while it is provisional (not on the board)."""
        ...

    async def finished_games(
        self,
        platform: str,
        community: str,
        player: str,
        *,
        variant: str | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[GameRow]:
        """``player``'s finished games in ``community`` (only ``variant``'s when given), newest
        first, from the ``offset``-th on."""
        ...

    async def count_finished_games(self, platform: str, community: str, player: str) -> int:
        """How many finished games ``player`` has in ``community``."""
        ...

    async def player_changes(self, player: str, game_ids: Sequence[int]) -> dict[int, RatingChange]:
        """What each of ``game_ids`` did to ``player``'s rating, by game id (the games that
        changed none are left out)."""
        ...

    async def best_win(
        self, platform: str, community: str, player: str, variant: str
    ) -> RatingChange | None:
        """The opponent's side of ``player``'s rated win in ``community`` and ``variant``
        against the highest rating (as it stood before that game); None without a win."""
        ...

    async def rating_changes(self, game: GameRow) -> list[RatingChange]:
        """What the finished ``game`` did to its players' ratings in its community, sente
        first (before it is written: what it will do); [] when it changes none."""
        ...

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the games, in the order they were rated; how many
        games count."""
        ...

    # mate problems (puzzles)
    async def puzzle_session(self, player: str) -> PuzzleSession | None:
        """The player's puzzle in progress, or None."""
        ...

    async def start_puzzle(self, session: PuzzleSession) -> bool:
        """Store a new puzzle session; False (nothing written) when the player has one."""
        ...

    async def update_puzzle(self, session: PuzzleSession, moves_before: Sequence[str]) -> bool:
        """Save ``session`` (its moves, failure, hints) if its moves are still
        ``moves_before``; False when they changed meanwhile (a move raced it)."""
        ...

    async def abandon_puzzle(self, session: PuzzleSession) -> bool:
        """Delete ``session`` unrated (its puzzle left the collection), if still there with
        its moves; whether it was."""
        ...

    async def finish_puzzle(
        self,
        session: PuzzleSession,
        score: float,
        seed: tuple[float, float],
        now: float,
    ) -> PuzzleOutcome | None:
        """End ``session`` (if still there with its moves; else None): keep the player's
        result, and move the player's puzzle rating in the session's community and the
        puzzle's own rating (Glicko-2, one period each; ``seed``: the puzzle's rating and
        deviation before anyone played it) by ``score`` (1, 0.5 or 0)."""
        ...

    async def puzzle_rating(
        self, platform: str, community: str, player: str
    ) -> PuzzleRating | None:
        """The player's puzzle rating in ``community``; None before their first puzzle."""
        ...

    async def puzzles_done(self, player: str) -> frozenset[str]:
        """The ids of every puzzle the player finished (solved or not)."""
        ...

    async def puzzle_difficulties(self) -> dict[str, tuple[float, float]]:
        """Every puzzle's rating and deviation that results moved, by puzzle id."""
        ...

    async def puzzle_leaderboard(
        self, platform: str, community: str, *, offset: int = 0, limit: int = 10
    ) -> list[PuzzleRating]:
        """The non-provisional puzzle ratings of ``community``, best first (ties by player
        key), from place ``offset + 1`` on."""
        ...

    async def puzzle_leaderboard_size(self, platform: str, community: str) -> int:
        """How many players the puzzle leaderboard of ``community`` has."""
        ...

    async def puzzle_leaderboard_place(self, mine: PuzzleRating) -> int | None:
        """The place (1 first) of ``mine`` on its community's puzzle leaderboard; None while
        it is provisional."""
        ...

    # the daily puzzle
    async def set_daily_puzzle(self, chat: ChatKey, minute: int | None, next_at: float) -> None:
        """Post a puzzle in ``chat`` every day at ``minute`` after midnight UTC, the next at
        ``next_at``; ``minute`` None: no more."""
        ...

    async def daily_puzzle_chat(self, chat: ChatKey) -> DailyPuzzleChat | None: ...

    async def due_daily_puzzles(self, now: float, limit: int = 100) -> list[DailyPuzzleChat]:
        """The chats whose daily puzzle is due at ``now``, the longest due first."""
        ...

    async def next_daily_due(self) -> float | None:
        """When the next daily puzzle of any chat is due; None when no chat has one."""
        ...

    async def post_daily_puzzle(
        self,
        daily: DailyPuzzleChat,
        next_at: float,
        day: str,
        puzzle_id: str,
        notices: Sequence[NewNotice],
        now: float,
    ) -> bool:
        """Claim ``daily``'s post (its ``next_at`` becomes ``next_at``), keep ``puzzle_id`` as
        the chat's puzzle of ``day`` and queue ``notices``, in one transaction: True for the
        one caller that did; False when another process did first, the setting changed, or
        the chat has its puzzle of ``day`` already (the claim then only moves ``next_at``)."""
        ...

    async def daily_post(self, chat: ChatKey, day: str | None = None) -> tuple[str, str] | None:
        """The chat's daily puzzle of ``day`` (else its latest): (day, puzzle id), or None."""
        ...

    async def daily_posted(self, chat: ChatKey) -> frozenset[str]:
        """Every puzzle id the chat had as its daily puzzle."""
        ...

    async def daily_solvers(self, chat: ChatKey, day: str) -> int:
        """How many solved the chat's daily puzzle of ``day``."""
        ...

    async def record_daily_solve(
        self, chat: ChatKey, day: str, day_before: str, player: str, now: float
    ) -> DailySolve:
        """``player`` solved the chat's puzzle of ``day``: their streak grows when their last
        solve was of ``day_before``, else starts again at 1 (a second solve of ``day`` changes
        nothing); the solvers so far and the streak."""
        ...

    # timers
    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        """Pending timers due by ``now`` and not postponed past it, earliest first."""
        ...

    async def claim_timers(self, now: float, until: float, limit: int = 100) -> list[TimerRow]:
        """Lease up to ``limit`` of the timers :meth:`due_timers` lists to the caller until
        ``until`` (as they were before the lease): no other process gets them meanwhile, and
        when the caller dies before it fires (:meth:`mark_fired`) or postpones them, they are
        due again at ``until``."""
        ...

    async def next_due(self) -> float | None:
        """When the next pending timer is due (or, postponed, to be tried again)."""
        ...

    async def mark_fired(
        self, timer_ids: Sequence[int], now: float, notices: Sequence[NewNotice] = ()
    ) -> list[int]:
        """Mark pending timers fired; return the ids this call claimed (never claimed twice).
        ``notices`` are queued in the same transaction, when this call claimed the last id."""
        ...

    async def postpone_timer(self, timer_id: int, until: float) -> int:
        """After a failed firing: not due again before ``until``; how many failures so far."""
        ...

    # notices: messages delivered at least once (see NewNotice)
    async def queue_notices(self, notices: Sequence[NewNotice]) -> None: ...
    async def claim_notices(
        self, platforms: Sequence[str], now: float, owner: str, until: float, limit: int = 1
    ) -> list[NoticeRow]:
        """Lease up to ``limit`` pending notices for ``platforms`` that are due by ``now`` to
        ``owner`` until ``until`` (counting an attempt each); no one else gets them meanwhile,
        and a lease that ends (its holder died) makes them due again."""
        ...

    async def renew_notice(self, notice_id: int, owner: str, until: float) -> bool:
        """Extend ``owner``'s lease; False if it no longer holds it."""
        ...

    async def retry_notice(
        self, notice_id: int, owner: str, at: float, error: str, *, to_fallback: bool = False
    ) -> None:
        """Release ``owner``'s lease after a failed send; due again at ``at`` (to its fallback
        chat, which then becomes its chat, with ``to_fallback``)."""
        ...

    async def finish_notice(
        self, notice_id: int, state: NoticeState, now: float, error: str | None = None
    ) -> None:
        """Settle a pending notice: delivered, dropped (moot) or failed for good."""
        ...

    async def next_notice_due(self, platforms: Sequence[str]) -> float | None:
        """When the next pending notice for ``platforms`` may be tried (or its lease ends)."""
        ...

    async def prune_notices(self, before: float) -> int:
        """Forget notices settled before ``before``, and pending ones created before it."""
        ...

    # settings
    async def get_settings(self, chat: ChatKey) -> ChatSettings: ...
    async def save_settings(self, chat: ChatKey, settings: ChatSettings) -> None: ...

    # per-user preferences
    async def get_reminder_route(self, user_key: str) -> ReminderRoute:
        """Where the user's reminders go (the game's chat unless they chose DMs)."""
        ...

    async def set_reminder_route(self, user_key: str, route: ReminderRoute) -> None: ...

    # front-end state (see bot.core.api.StateStore)
    async def put_state(self, platform: str, kind: str, key: str, value: str) -> None:
        """Set ``value`` under ``(platform, kind, key)``, stamped with the current time."""
        ...

    async def get_state(self, platform: str, kind: str, key: str) -> str | None: ...
    async def delete_state(self, platform: str, kind: str, key: str) -> None: ...
    async def prune_state(self, platform: str, kind: str, before: float) -> int:
        """Delete the ``kind`` entries last written before ``before`` (Unix time); how many."""
        ...

    # /analyse: finished analyses kept, and the analyses chats wait for
    async def get_analysis(self, game_id: int, budget: str, engine_key: str) -> AnalysisRow | None:
        """The kept analysis of ``game_id`` at ``budget`` by ``engine_key``, if there is one."""
        ...

    async def save_analysis(self, analysis: AnalysisRow) -> None:
        """Keep ``analysis`` (replacing one of the same game, budget and engine)."""
        ...

    async def claim_analysis_request(
        self, request: AnalysisRequest, owner: str, until: float
    ) -> bool:
        """Record that ``request.chat`` waits for an analysis, held by ``owner`` until
        ``until``; False (nothing written) when the chat waits for one already."""
        ...

    async def take_analysis_requests(
        self, owner: str, now: float, until: float
    ) -> list[AnalysisRequest]:
        """Claim for ``owner`` until ``until`` every request whose claim ended by ``now`` (its
        process died, or gave it up at shutdown), oldest first."""
        ...

    async def renew_analysis_request(self, chat: ChatKey, owner: str, until: float) -> bool:
        """Make ``owner``'s claim on ``chat``'s request last until ``until``; False when it is
        no longer its own."""
        ...

    async def end_analysis_request(self, chat: ChatKey, owner: str) -> None:
        """Forget ``chat``'s request (answered), if ``owner`` holds it."""
        ...

    async def release_analysis_requests(self, owner: str) -> None:
        """Give up ``owner``'s requests at a clean shutdown: the next start takes them up."""
        ...
