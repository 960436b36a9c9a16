"""The reserved words of the printers are the grammar's keywords that its Name rule does not accept."""

from __future__ import annotations

import re
from pathlib import Path

from chainlab.interchange.dsl_words import RESERVED

GRAMMAR = Path(__file__).resolve().parents[3] / "language" / "src" / "dsl" / "chain.langium"
WORD = r"'([A-Za-z][A-Za-z0-9_]*)'"


def test_the_reserved_words_are_the_grammars_keywords_that_are_no_names() -> None:
    grammar = re.sub(r"//.*", "", GRAMMAR.read_text())
    # Name is an ID or one of the keywords its NameKeyword rule lists
    name_rule = re.search(r"^NameKeyword returns string:(.*?);", grammar, re.S | re.M)
    assert name_rule is not None
    keywords = set(re.findall(WORD, grammar))
    assert set(re.findall(WORD, name_rule.group(1))) - keywords == set()
    assert keywords - set(re.findall(WORD, name_rule.group(1))) == RESERVED
