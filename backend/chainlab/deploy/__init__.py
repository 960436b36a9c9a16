"""Target plumbing: how a run reaches a target (a Transport: this machine or SSH), its host keys, the preflight
checklist and the names that may reach it. Running a chain there is chainlab.run's."""

from chainlab.deploy.transport import Completed, LocalTransport, RemoteProcess, Transport, TransportError, command_text

__all__ = ["Completed", "LocalTransport", "RemoteProcess", "Transport", "TransportError", "command_text"]
