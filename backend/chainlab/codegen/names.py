"""Model text in generated C and CMake: names are checked, everything else is escaped.

The IR schema already restricts names to the language's identifiers; a plan built some other way (or an IR
that skipped validation) must still not put code into the project, so the generator refuses any name that is
not an identifier (dotted, for the sub-boxes and buffers it derives), maps what it derives itself (thread and
signal names) to identifiers, and escapes free text (the model's file path) in comments and strings.
"""

from __future__ import annotations

import re

from chainlab.errors import ModelError

# a model name, or one derived from it ("f6.0", "f8.o")
_NAME = re.compile(r"[_A-Za-z][_A-Za-z0-9]*(\.[_A-Za-z0-9]+)*")


def checked_name(name: str, what: str) -> str:
    """name unchanged when it is an identifier (dots allowed); otherwise ModelError naming it."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ModelError(f"{what} name {name!r} is not an identifier: it cannot go into generated C", element=str(name))
    return name


def c_name(name: str) -> str:
    """A name ("f6.0", "f8.o", "thread0:f8.0") as the tail of a C identifier ("f6_0", "f8_o", "thread0_f8_0")."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in name)


def c_string(text: str) -> str:
    """A C string literal: quotes, backslashes, control and non-ASCII characters escaped (octal)."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in '"\\?':  # '?' too: no trigraph can form
            out.append("\\" + ch)
        elif 32 <= byte < 127:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def c_comment(text: str) -> str:
    """Text safe inside /* ... */ and on one line: no comment delimiters, controls or non-ASCII."""
    text = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in str(text))
    return text.replace("*/", "*?/").replace("/*", "/?*")


def cmake_comment(text: str) -> str:
    """Text safe in a CMake `#` comment: one line."""
    return "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in str(text))
