"""Rows the store keeps: users, challenges, games, timers and chat settings (frozen values)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.chat import ChatKey as ChatKey

ENGINE_PLAYER = "engine:komabot"
"""The player key of Komabot itself in a game against the bot (``sente`` or ``gote``); such a
game also has its ``engine_level``.  Not a platform user: it has no deadline, no reminders and
no mentions, and ratings will tell its games apart by it."""
MIN_RATED_MOVES = 4  # a game changes ratings only with at least two moves by each side
ENGINE_SCORES_KEPT = 8  # the engine's latest scores a game keeps (its resign decision reads 3)


class GameStatus(Enum):
    ACTIVE = "active"
    FINISHED = "finished"


class ChallengeStatus(Enum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TimerKind(Enum):
    REMINDER = "reminder"
    DEADLINE = "deadline"
    CHALLENGE_EXPIRY = "challenge_expiry"


@dataclass(frozen=True)
class UserRow:
    """A person as last seen: ``key`` is ``platform:id``."""

    key: str
    platform: str
    user_id: str
    name: str


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    chat: ChatKey
    challenger: str  # user key
    challenged: str | None  # user key; None for an open challenge
    variant: str
    color: str  # "random", "sente" or "gote": the challenger's colour
    time_per_move: int | None  # seconds; None: no clock
    status: ChallengeStatus
    created_at: float
    expires_at: float
    game_id: int | None = None
    rated: bool = True  # its game counts for ratings (``casual``: it does not)
    handicap: str | None = None  # a handicap's id (its variant's); ``color`` says who gives it
    main_time: int | None = None  # seconds of main time each; time_per_move is then byoyomi


@dataclass(frozen=True)
class GameRow:
    """One game: the start position and every move in USI; the position is rebuilt from them.

    ``version`` grows by one with every change; an update names the version it read.
    """

    id: int
    chat: ChatKey
    variant: str
    start_sfen: str
    moves: tuple[str, ...]
    version: int
    sente: str  # user key
    gote: str
    status: GameStatus
    termination: str | None  # rules.Termination value once finished
    winner: int | None  # SENTE, GOTE or None (draw, aborted)
    time_per_move: int | None  # seconds a move; with main_time: the byoyomi
    deadline: float | None
    draw_offer: int | None  # colour that offers a draw
    takeback_offer: int | None  # colour that asks for a takeback
    created_at: float
    updated_at: float
    finished_at: float | None = None
    challenge_id: int | None = None
    engine_level: int | None = None  # a game against the bot: its level (1-8); else None
    engine_scores: tuple[int, ...] = ()  # the engine's scores for its latest moves, oldest first
    rated: bool = False  # counts for ratings (two people, from a challenge); see rateable
    main_time: int | None = None  # seconds of main time each side starts with (byoyomi after)
    time_left: tuple[float, float] | None = None  # main time left to sente, gote (last move)

    @property
    def rateable(self) -> bool:
        """Finished in a way that changes ratings: rated, not aborted, and with at least two
        moves by each side (a game against the bot or against oneself never is)."""
        return (
            self.rated
            and self.status is GameStatus.FINISHED
            and self.termination != "aborted"
            and len(self.moves) >= MIN_RATED_MOVES
            and self.engine_level is None
            and ENGINE_PLAYER not in (self.sente, self.gote)
            and self.sente != self.gote  # a game against oneself proves nothing
        )

    @property
    def active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    @property
    def engine_color(self) -> int | None:
        """The bot's side in a game against it (0 sente, 1 gote), else None."""
        if self.engine_level is None:
            return None
        if self.sente == ENGINE_PLAYER:
            return 0
        return 1 if self.gote == ENGINE_PLAYER else None

    @property
    def side_to_move(self) -> int:
        """0 or 1: whose turn it is, from the start position's side and the moves played."""
        first = 1 if self.start_sfen.split()[1:2] == ["w"] else 0
        return (first + len(self.moves)) % 2

    def player_color(self, user_key: str) -> int | None:
        """0 (sente), 1 (gote) or None for someone who does not play this game."""
        if user_key == self.sente:
            return 0
        if user_key == self.gote:
            return 1
        return None

    def player(self, color: int) -> str:
        return self.sente if color == 0 else self.gote


@dataclass(frozen=True)
class NewTimer:
    """A timer to schedule: fires once at ``due_at``."""

    kind: TimerKind
    due_at: float
    game_id: int | None = None
    challenge_id: int | None = None
    game_version: int | None = None  # the game version it belongs to (stale when it changed)
    offset: int = 0  # for reminders: seconds before the deadline


@dataclass(frozen=True)
class TimerRow:
    id: int
    kind: TimerKind
    due_at: float
    game_id: int | None
    challenge_id: int | None
    game_version: int | None
    offset: int
    fired_at: float | None
    attempts: int = 0  # failed tries to fire it (each one postpones it, see next_attempt_at)
    next_attempt_at: float | None = None  # after a failure: not tried again before this


class NoticeState(Enum):
    """Where a queued message stands."""

    PENDING = "pending"  # to deliver (maybe claimed by a process right now, see NoticeRow)
    DELIVERED = "delivered"  # the platform accepted it
    DROPPED = "dropped"  # moot by the time it could go out (the game moved on)
    FAILED = "failed"  # refused for good, or still failing when the retries ran out


@dataclass(frozen=True)
class NewNotice:
    """A message the service sends on its own (a reminder, a time-out notice), to deliver at
    least once.

    It is queued in the same transaction as what it reports and stays pending until the
    platform accepted it; ``payload`` is the message as the core serialised it.  ``key`` is
    the same on every attempt, for platforms that drop a repeated send (Discord's nonce).
    When ``chat`` refuses it, it goes to ``fallback`` (same platform) as ``fallback_payload``.
    """

    kind: str  # "reminder", "timeout"
    chat: ChatKey
    payload: str
    key: str
    created_at: float
    game_id: int | None = None
    game_deadline: float | None = None  # deliver only while the game's deadline is this one
    fallback: ChatKey | None = None
    fallback_payload: str | None = None


@dataclass(frozen=True)
class NoticeRow:
    """A queued message; while ``claimed_by`` holds it (until ``claimed_until``) no other
    process tries it."""

    id: int
    kind: str
    chat: ChatKey
    payload: str
    key: str
    created_at: float
    game_id: int | None
    game_deadline: float | None
    fallback: ChatKey | None
    fallback_payload: str | None
    state: NoticeState
    attempts: int  # claims so far (a claim that ended in a crash counts too)
    next_attempt_at: float
    claimed_by: str | None
    claimed_until: float | None
    last_error: str | None
    done_at: float | None


@dataclass(frozen=True)
class ChatSettings:
    """Per-chat choices: how moves are written, how pieces look, which way the board faces,
    whether a bare move typed in the chat is played and whether each game gets a thread.
    A notation never chosen follows the language (:func:`language_notation`)."""

    notation: str = "western"  # "western", "japanese" or "usi"
    piece_style: str = "kanji"  # "kanji" or "international"
    perspective: str = "mover"  # "mover" (the player to move at the bottom) or "sente"
    language: str = "en"
    bare_moves: bool = False  # a message that is only a move plays it (Discord text chats)
    threads: bool = False  # open a thread for each challenge and its game (Discord channels)
    notation_chosen: bool = False  # set by /settings notation; else it follows the language


class ReminderRoute(Enum):
    """Where a player's reminders and time-out notices go."""

    CHAT = "chat"  # the game's chat
    DM = "dm"  # a direct message (private chat) with the bot


@dataclass(frozen=True)
class RatingRow:
    """A player's Glicko-2 rating in one variant, in one community (``ChatKey.community_id``:
    a Discord server, a Telegram group, a chat) or over the whole platform (``community``
    empty)."""

    platform: str
    community: str
    player: str  # user key
    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    draws: int
    last_played: float | None


@dataclass(frozen=True)
class RatingChange:
    """What one finished game did to one player's rating in the game's community."""

    game_id: int
    player: str
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float


def language_notation(language: str) -> str:
    """The notation a chat in ``language`` writes moves in until it chooses one: Japanese
    players read Japanese notation, everyone else Western."""
    return "japanese" if language == "ja" else "western"


@dataclass(frozen=True)
class AnalysisRow:
    """A finished game's analysis as kept: at ``budget`` (``ms:300``, ``nodes:2000``) by the
    engine ``engine_key`` (``builtin`` or a USI command line) called ``engine``; ``scores[i]``
    is sente's score after ``i`` moves, ``best_moves[i]`` the engine's move there (None: the
    side to move had none)."""

    game_id: int
    budget: str
    engine_key: str
    engine: str
    scores: tuple[int, ...]
    best_moves: tuple[str | None, ...]
    created_at: float


@dataclass(frozen=True)
class AnalysisRequest:
    """An analysis a chat waits for: ``game_id``'s, reported on the card ``card``."""

    chat: ChatKey
    game_id: int
    card: str
    requested_at: float


@dataclass(frozen=True)
class PuzzleSession:
    """A player's mate problem in progress: ``moves`` played so far (theirs and the
    defence's, USI), whether a wrong move was played (``failed``), how many hints they
    asked and where the latest was; where it was asked (``platform``, ``community``: its
    rating's, ``chat_id``)."""

    player: str  # user key
    platform: str
    community: str
    chat_id: str
    puzzle_id: str
    moves: tuple[str, ...]
    failed: bool
    hints: int
    hint_ply: int  # how many moves were played when the latest hint was asked (-1: none)
    started_at: float
    updated_at: float
    daily_day: str = ""  # the day (YYYY-MM-DD) of the chat's daily puzzle this is, or ""


@dataclass(frozen=True)
class PuzzleRating:
    """A player's puzzle rating in one community (Glicko-2, apart from game ratings)."""

    platform: str
    community: str
    player: str  # user key
    rating: float
    deviation: float
    volatility: float
    attempts: int
    updated_at: float


@dataclass(frozen=True)
class PuzzleOutcome:
    """What finishing a puzzle did: the score (1 solved, 0.5 solved with a hint, 0 failed)
    and the player's puzzle rating before and after."""

    puzzle_id: str
    score: float
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float


@dataclass(frozen=True)
class DailyPuzzleChat:
    """A chat that gets a puzzle a day at ``minute`` (after midnight UTC); ``next_at`` is when
    the next one is posted (Unix time)."""

    chat: ChatKey
    minute: int
    next_at: float


@dataclass(frozen=True)
class DailySolve:
    """A daily puzzle solved: how many have solved it so far, and the solver's streak of
    consecutive days."""

    solvers: int
    streak: int
