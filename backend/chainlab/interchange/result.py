"""What every model importer returns: the model as .chain text and what the text cannot say by itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ImportResult:
    """One imported model.

    Attributes
    ----------
    text : str
        The model as .chain text (it passes ``chainlab check``).
    format : str
        The format read: ``sdf3``, ``preesm`` or ``amalthea``.
    notes : list of str
        What was expanded, assumed or left out; each is also a comment in ``text``.
    """

    text: str
    format: str
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "format": self.format, "notes": list(self.notes)}
