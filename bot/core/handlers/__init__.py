"""Command handlers, grouped by what the player does; each is given only the collaborators it
needs, and :mod:`bot.core.service` routes every command to one of their methods."""
