"""The one reader of XML other tools wrote: a user file (regular, at most 4 MiB) parsed without a DTD, so without
entities of any kind (no expansion bombs, nothing fetched from outside), into an ElementTree whose elements know
the line and column they start at, for messages that name file, line and element."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, TreeBuilder
from xml.parsers import expat

from chainlab.errors import ChainlabError, SourceLoc
from chainlab.files import IMPORTED_MODEL, read_user_bytes


class ImportRefused(ChainlabError):
    """An imported file chainlab refuses: its message names file, line and element."""

    code = "import-error"


@dataclass
class XmlDocument:
    """A parsed XML file: its root and where each element starts (1-based line and column)."""

    path: str
    root: Element
    _starts: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)

    def loc(self, element: Element) -> SourceLoc:
        line, column = self._starts.get(id(element), (0, 0))
        return SourceLoc(self.path, line, column)

    def error(self, element: Element, message: str) -> ImportRefused:
        """An error at `element`: "FILE:LINE:COL: <tag>: message"."""
        return ImportRefused(message, self.loc(element), f"<{local_name(element.tag)}>")


def local_name(tag: str) -> str:
    """`{namespace}name` → `name` (the formats mix namespaced and plain names)."""
    return tag.rsplit("}", 1)[-1]


def read_xml(path: str | Path) -> XmlDocument:
    """Reads and parses `path`.

    Parameters
    ----------
    path
        The file to read: a regular file of at most 4 MiB (the limit of a .chain model).

    Returns
    -------
    XmlDocument
        The element tree and the start of every element.

    Raises
    ------
    chainlab.files.UserFileError
        The file is missing, not a regular file or too large.
    ImportRefused
        Not well-formed XML, or it has a DOCTYPE (a DTD can declare entities; none of the formats needs one),
        with the line and column the parser stopped at.
    """
    data = read_user_bytes(path, IMPORTED_MODEL)
    builder = TreeBuilder()
    starts: dict[int, tuple[int, int]] = {}
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse_doctype(name: str, *_: object) -> None:
        raise _Refused(f"a DOCTYPE ({name}) is not read: entities and DTDs are refused")

    def start(tag: str, attributes: dict[str, str]) -> None:
        element = builder.start(_clark(tag), {_clark(name): value for name, value in attributes.items()})
        starts[id(element)] = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    parser.StartDoctypeDeclHandler = refuse_doctype
    parser.EntityDeclHandler = lambda name, *_: refuse_doctype(name)
    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: builder.end(_clark(tag))
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    parser.ordered_attributes = False
    try:
        parser.Parse(data, True)
    except LookupError as error:  # <?xml encoding="x"?>: a codec Python does not know
        raise ImportRefused(f"not readable XML: {error}", SourceLoc(str(path), 1, 1)) from None
    except (expat.ExpatError, _Refused) as error:
        line = getattr(error, "lineno", None) or parser.CurrentLineNumber
        column = (getattr(error, "offset", None) or parser.CurrentColumnNumber) + 1
        reason = (
            f"not well-formed XML: {expat.ErrorString(error.code)}"
            if isinstance(error, expat.ExpatError)
            else str(error)
        )
        raise ImportRefused(reason, SourceLoc(str(path), line, column)) from None
    root = builder.close()
    return XmlDocument(str(path), root, starts)


class _Refused(Exception):
    pass


def _clark(tag: str) -> str:
    """expat's `namespace}name` (tags and attributes) → ElementTree's `{namespace}name`."""
    return "{" + tag if "}" in tag else tag
