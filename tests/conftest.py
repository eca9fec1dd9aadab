"""Fixtures for every test folder: the throw-away PostgreSQL server (started once a session)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.postgres_server import NOT_INSTALLED, REQUIRE_VARIABLE, PostgresServer, find_binaries


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session, stopped and deleted at its end.  Skips the test
    where PostgreSQL is not installed, and fails it instead with KOMABOT_REQUIRE_POSTGRES=1."""
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_VARIABLE}=1, but {NOT_INSTALLED}", pytrace=False)
        pytest.skip(NOT_INSTALLED)
    server = PostgresServer.start(binaries)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of the test's own, to stop and start (an outage; the session's is shared)."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(NOT_INSTALLED)
    server = PostgresServer.start(binaries)
    try:
        yield server
    finally:
        server.stop()
