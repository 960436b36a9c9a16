"""What a request brings besides its params: for now, where its progress goes."""

from __future__ import annotations

from dataclasses import dataclass

from chainlab.progress import ProgressFn
from chainlab.rpc.endpoint import REQUEST_CANCELLED, RpcError
from chainlab.run import interrupt


@dataclass(frozen=True)
class RequestContext:
    """progress: sends a `progress` notification with the request's token; None when the client gave no token."""

    progress: ProgressFn | None = None

    def report(self, fraction: float, message: str = "") -> None:
        """Progress of the request, dropped when the client does not follow it."""
        if self.progress is not None:
            self.progress(fraction, message)


def start_work() -> None:
    """A run, deployment, sweep or experiment starts: an earlier Ctrl-C does not stop it. A backend that is ending
    (its client gone, SIGTERM, SIGHUP) starts nothing, even for a request it accepted just before."""
    if not interrupt.reset():
        raise RpcError(REQUEST_CANCELLED, "the backend is ending (its client is gone or it was stopped): not started")
