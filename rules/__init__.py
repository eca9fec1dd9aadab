"""Komabot's rules core: variants as data, positions, legal moves, notation, records.

Pure Python; imports nothing from ``render`` or ``bot`` and no chat, image or database library.
"""

# First: the compiled hot modules, when built from these sources (rules/native.py), must be
# set up before any of them loads.
from rules import native  # noqa: F401
from rules.errors import (
    AmbiguousMoveError,
    IllegalDeclarationError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSetupError,
    RulesError,
    VariantFileError,
)
from rules.move import Move, move_to_usi, parse_usi
from rules.outcome import Outcome, Termination, declare_impasse, impasse_report
from rules.position import Position
from rules.tables import GOTE, SENTE
from rules.variant import PieceType, Variant, available_variants, load_variant

__all__ = [
    "GOTE",
    "SENTE",
    "AmbiguousMoveError",
    "IllegalDeclarationError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidSetupError",
    "Move",
    "Outcome",
    "PieceType",
    "Position",
    "RulesError",
    "Termination",
    "Variant",
    "VariantFileError",
    "available_variants",
    "declare_impasse",
    "impasse_report",
    "load_variant",
    "move_to_usi",
    "parse_usi",
]
