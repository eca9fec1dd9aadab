"""Timing of the claims that hold long engine work: a bot's turn and an analysis.

A process that takes such work claims it for ``LEASE`` seconds and renews the claim every
``HEARTBEAT`` seconds while the engine thinks, however long that takes.  A process that dies
stops renewing; another process, looking every ``PICKUP_EVERY`` seconds for work nobody holds,
takes it up once the claim has run out.
"""

from __future__ import annotations

LEASE = 15.0  # seconds a claim lasts unless its process renews it
HEARTBEAT = 4.0  # seconds between renewals while the engine works
PICKUP_EVERY = 5.0  # seconds between looks for work nobody holds (a process died)
