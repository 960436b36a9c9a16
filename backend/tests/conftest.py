"""What every backend test starts from."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chainlab.run import interrupt


@pytest.fixture(autouse=True)
def backend_not_ending() -> Iterator[None]:
    """Each test starts as a new backend does: nothing stopped. A server that an earlier test served in-process
    ended as the real one ends (its input gone: nothing runs any more in that process) and leaves it so."""
    interrupt.start_serving()
    yield
