"""Errors the backend reports to users: always a message naming the element and its place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SourceLoc:
    """Where a model element was written (1-based line and column), as carried by the IR."""

    file: str
    line: int
    column: int

    @classmethod
    def from_ir(cls, loc: Mapping[str, Any] | None) -> SourceLoc | None:
        if not loc:
            return None
        return cls(str(loc.get("file", "?")), int(loc.get("line", 0)), int(loc.get("column", 0)))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class ChainlabError(Exception):
    """Base of all errors that are the user's to fix (bad model, refused request)."""

    code = "chainlab-error"

    def __init__(self, message: str, loc: SourceLoc | Mapping[str, Any] | None = None, element: str | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc if isinstance(loc, SourceLoc) or loc is None else SourceLoc.from_ir(loc)
        self.element = element

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        what = f"{self.element}: " if self.element else ""
        return f"{where}error: {what}{self.message}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.element:
            data["element"] = self.element
        if self.loc:
            data["loc"] = {"file": self.loc.file, "line": self.loc.line, "column": self.loc.column}
        return data


class ModelError(ChainlabError):
    """The model (IR) is invalid for the requested analysis."""

    code = "model-error"


class TooExpensiveError(ChainlabError):
    """The exact analysis would exceed the configured cost limit; carries proposals."""

    code = "too-expensive"

    def __init__(
        self,
        message: str,
        loc: SourceLoc | Mapping[str, Any] | None = None,
        element: str | None = None,
        proposals: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message, loc, element)
        self.proposals = proposals or []

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["proposals"] = self.proposals
        return data


class RunError(ChainlabError):
    """A run on a target that could not go on (a failed build there, a target that lacks essentials, a lost
    connection); what was measured before is kept."""

    code = "deploy-failed"


class FileSystemError(ChainlabError):
    """A file or directory could not be read or written: its path and the system's reason, in one line."""

    code = "file-system"

    def __init__(self, error: OSError, what: str = "") -> None:
        reason = error.strerror or str(error) or type(error).__name__
        where = f"{error.filename}: " if error.filename is not None else ""  # a failed write may name no file
        super().__init__(f"{what + ' ' if what else ''}{where}{reason}")
