"""How long-running work reports how far it is: a callable taking a fraction in [0, 1] and a short message."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

ProgressFn: TypeAlias = Callable[[float, str], None]
