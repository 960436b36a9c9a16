from __future__ import annotations

from collections.abc import Iterator

import pytest
from lab import Lab, lab_host


@pytest.fixture(scope="module")
def lab() -> Iterator[Lab]:
    with lab_host() as host:
        yield host
