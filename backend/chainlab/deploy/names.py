"""Names and paths from the model that reach a target are checked before anything connects.

Commands are argument lists joined by shlex (transport.command_text), so a hostile string can only ever be one
argument; on top of that, names that become file or directory names on the target must be plain identifiers.
"""

from __future__ import annotations

import re
from typing import Any

from chainlab.errors import ModelError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}\Z")
_PATH = re.compile(r"[A-Za-z0-9_./~+-]{1,255}\Z")
_HOST = re.compile(r"[A-Za-z0-9.:_-]{1,253}\Z")


def check_name(value: str, what: str, loc: Any = None) -> str:
    if not _IDENT.match(value or ""):
        raise ModelError(
            f"{what} '{value}' is not a safe name for the target (letters, digits, '_' and '-' only)", loc, what
        )
    return value


def check_path(value: str, what: str, loc: Any = None) -> str:
    if not _PATH.match(value or "") or ".." in value.split("/"):
        raise ModelError(
            f"{what} '{value}' is not a safe path for the target (letters, digits and _ . / ~ + - only, no '..')",
            loc,
            what,
        )
    return value


def check_target(target: dict[str, Any]) -> None:
    """Everything of an ssh target that is used to connect or becomes a path there."""
    loc = target.get("loc")
    check_name(target["name"], "target name", loc)
    if target.get("kind") == "ssh":
        if not _HOST.match(target.get("host") or ""):
            raise ModelError(f"target {target['name']}: host '{target.get('host')}' is not a host name or address", loc)
        if target.get("user") is not None:
            check_name(target["user"], f"target {target['name']}: user", loc)
        if target.get("key"):
            check_path(target["key"], f"target {target['name']}: key", loc)
    if target.get("root"):
        check_path(target["root"], f"target {target['name']}: root", loc)
