"""chainlab.deploy.reach against real ports on the lab's link (10.200.x): the lab's sshd, a port that accepts and
never speaks, one that hangs up, one that speaks another protocol, one that stops after its banner, a refused one;
each failure one line with its reason, within the stated time-outs; and `trust-host` through the CLI."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import time
from pathlib import Path

import pytest
from lab import Lab
from listeners import listener
from test_deploy_cycle import chainlab, model

from chainlab.deploy.reach import BANNER_TIMEOUT_S, LOGIN_TIMEOUT_S, TCP_TIMEOUT_S, reason, server_host_key
from chainlab.deploy.transport import TransportError


def here(lab: Lab) -> str:
    """This machine's end of the lab's link (a listener there is on the lab's network, not on the lab)."""
    return lab.host.rsplit(".", 1)[0] + ".1"


def refused(host: str, port: int) -> tuple[str, float]:
    start = time.monotonic()
    with pytest.raises(TransportError) as caught:
        asyncio.run(server_host_key(host, port))
    return caught.value.message, time.monotonic() - start


def test_the_lab_sshd_gives_its_host_key(lab: Lab) -> None:
    key = asyncio.run(server_host_key(lab.host, lab.port))
    assert key is not None
    assert key.export_public_key("openssh").split()[1] == (lab.host_key.with_suffix(".pub")).read_bytes().split()[1]


@pytest.mark.parametrize(
    ("kind", "says", "within"),
    [
        ("silent", f"the port accepts TCP but does not speak SSH (no banner within {BANNER_TIMEOUT_S:g} s)", 6),
        ("closing", "the port accepts TCP but closed the connection without an SSH banner", 1),
        ("smtp", "the port does not speak SSH (it sent '220 lab ESMTP Postfix', not an SSH banner)", 1),
        ("banner", f"it sent a banner but no host key within {LOGIN_TIMEOUT_S:g} s", 11),
    ],
)
def test_a_port_that_is_not_an_sshd_is_named_as_such(kind: str, says: str, within: float, lab: Lab) -> None:
    with listener(kind, here(lab)) as port:
        message, took = refused(here(lab), port.port)
    assert message == f"cannot reach {here(lab)}:{port.port}: {says}"
    assert took < within


def _resolving_to(monkeypatch: pytest.MonkeyPatch, *addresses: tuple[str, int]) -> None:
    """The lab's name resolving to several addresses (this machine has no DNS name that does)."""

    async def getaddrinfo(self, host, port, **kw):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", a) for a in addresses]

    monkeypatch.setattr(asyncio.base_events.BaseEventLoop, "getaddrinfo", getaddrinfo)


def test_every_address_of_a_name_is_tried_in_turn(lab: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    with listener("closing", here(lab)) as port:
        pass  # closed: a refused address
    _resolving_to(monkeypatch, (here(lab), port.port), (lab.host, lab.port))
    key = asyncio.run(server_host_key("lab.example", lab.port))
    assert key is not None
    # an address given twice is tried once; every reason is named with its address
    _resolving_to(monkeypatch, (here(lab), port.port), (here(lab), port.port), (lab.host, port.port))
    message, _ = refused("lab.example", port.port)
    assert message == (
        f"cannot reach lab.example:{port.port}: {here(lab)}: Connection refused; {lab.host}: Connection refused"
    )


def test_a_refused_port_says_so(lab: Lab) -> None:
    with listener("closing", here(lab)) as port:
        pass  # closed: nothing listens on that port any more
    message, took = refused(here(lab), port.port)
    assert message == f"cannot reach {here(lab)}:{port.port}: Connection refused" and took < 1


def test_an_empty_exception_is_named_by_its_type() -> None:
    assert reason(TimeoutError()) == "TimeoutError"
    assert reason(ConnectionRefusedError(111, "Connect call failed ('10.200.1.2', 2223)")) == "Connection refused"
    assert reason(ValueError("bad banner")) == "bad banner"
    assert TCP_TIMEOUT_S + BANNER_TIMEOUT_S + LOGIN_TIMEOUT_S <= 20  # the README's bound for an ssh port


def test_trust_host_at_a_silent_port_is_one_line_after_the_banner_time_out(lab: Lab, tmp_path: Path) -> None:
    with listener("silent", here(lab)) as port:
        f = model(tmp_path, dataclasses.replace(lab, host=here(lab), port=port.port))
        start = time.monotonic()
        known_hosts = {"CHAINLAB_KNOWN_HOSTS": str(tmp_path / "known_hosts")}
        done = chainlab(["trust-host", str(f), "--target", "lab"], known_hosts, timeout=60)
        took = time.monotonic() - start
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.endswith(
        f"cannot reach {here(lab)}:{port.port}: the port accepts TCP but does not speak SSH "
        f"(no banner within {BANNER_TIMEOUT_S:g} s)"
    ), line
    assert BANNER_TIMEOUT_S <= took < BANNER_TIMEOUT_S + 20
