"""Fixtures for every test folder: the throw-away PostgreSQL server (started once a session).

Tests run the pure-Python sources even where compiled modules are built (rules/native.py): they
patch module attributes, which compiled code does not see.  tests/test_native.py checks the
compiled modules, each in a process of its own.
"""

from __future__ import annotations

import os

os.environ["KOMABOT_NATIVE"] = "0"  # before anything imports rules: see the docstring
from collections.abc import Iterator

import pytest

from tests.postgres_server import NOT_INSTALLED, REQUIRE_VARIABLE, PostgresServer, find_binaries


def _throwaway_server(may_require: bool) -> Iterator[PostgresServer]:
    """A server started now, stopped and deleted after the ``yield``.  Skips the test where
    PostgreSQL is not installed, or (``may_require``) fails it with KOMABOT_REQUIRE_POSTGRES=1."""
    binaries = find_binaries()
    if binaries is None:
        if may_require and os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_VARIABLE}=1, but {NOT_INSTALLED}", pytrace=False)
        pytest.skip(NOT_INSTALLED)
    server = PostgresServer.start(binaries)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session, stopped and deleted at its end.  Skips the test
    where PostgreSQL is not installed, and fails it instead with KOMABOT_REQUIRE_POSTGRES=1."""
    yield from _throwaway_server(may_require=True)


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of the test's own, to stop and start (an outage; the session's is shared)."""
    yield from _throwaway_server(may_require=False)
