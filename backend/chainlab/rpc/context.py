"""What a request brings besides its params: for now, where its progress goes."""

from __future__ import annotations

from dataclasses import dataclass

from chainlab.progress import ProgressFn


@dataclass(frozen=True)
class RequestContext:
    """progress: sends a `progress` notification with the request's token; None when the client gave no token."""

    progress: ProgressFn | None = None

    def report(self, fraction: float, message: str = "") -> None:
        """Progress of the request, dropped when the client does not follow it."""
        if self.progress is not None:
            self.progress(fraction, message)
