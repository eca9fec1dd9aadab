"""Typed errors of the rules core.

Every error is a ``ValueError`` subclass with a ``code`` (stable, for message catalogues) and
``params`` (the facts: squares, pieces) beside an English message for people.
"""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Base class of every error the rules core raises on bad input."""

    code: str = "rules_error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params


class VariantFileError(RulesError):
    """A variant file is missing, unreadable, or has a bad key."""

    code = "bad_variant_file"


class InvalidSetupError(RulesError):
    """A position (SFEN) is malformed or impossible."""

    code = "bad_sfen"


class InvalidMoveError(RulesError):
    """A move text cannot be read at all."""

    code = "malformed_move"


class IllegalMoveError(RulesError):
    """A well-formed move that the rules forbid here; ``code`` says why."""

    code = "illegal_move"


class AmbiguousMoveError(RulesError):
    """A move text that fits more than one legal move; ``params['candidates']`` lists them."""

    code = "ambiguous_move"


class IllegalDeclarationError(RulesError):
    """An impasse declaration that does not meet the rule; ``params['failed']`` lists why."""

    code = "invalid_impasse"
