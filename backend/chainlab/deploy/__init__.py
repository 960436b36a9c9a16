"""Deploy and measure: an experiment (plan, upload, build, run scenarios, collect, report) on a target
reached through a Transport (this machine or SSH)."""

from chainlab.deploy.transport import Completed, LocalTransport, RemoteProcess, Transport, TransportError, command_text

__all__ = ["Completed", "LocalTransport", "RemoteProcess", "Transport", "TransportError", "command_text"]
