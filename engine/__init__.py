"""Komabot's engine: search and evaluation for every variant file, and USI both ways.

Imports only ``rules`` and the standard library.  Start with :func:`engine.api.think` (one
move, picklable in and out) or :class:`engine.api.Engine` (keeps its table between moves);
``engine.usi`` speaks USI to a GUI, ``engine.usi_client`` drives an external USI engine.
"""

import rules  # noqa: F401 - first: sets up the compiled modules (rules/native.py), if built
from engine.api import DEFAULT_MOVETIME_MS, Engine, Result, position_after, think
from engine.levels import HIGHEST, LEVELS, LOWEST, Level
from engine.search import Limits, Progress, StopSignal

__all__ = [
    "DEFAULT_MOVETIME_MS",
    "HIGHEST",
    "LEVELS",
    "LOWEST",
    "Engine",
    "Level",
    "Limits",
    "Progress",
    "Result",
    "StopSignal",
    "position_after",
    "think",
]
