"""Komabot as the opponent: its turns in games against it."""
