"""The backend as a real process for the RPC tests: one per test, killed if a test leaves it running."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rpc_client import Client


@pytest.fixture()
def client() -> Iterator[Client]:
    c = Client()
    yield c
    if c.process.poll() is None:
        c.process.kill()
