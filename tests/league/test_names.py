"""League names (pure): what is refused, and keys that make look-alikes one name."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.league.names import cleaned, invisible, name_key, refused_character
from bot.names import league_name


@given(st.text(max_size=80))
def test_a_key_is_its_own_key_and_holds_nothing_invisible(text: str) -> None:
    """Keys are stable (a stored key compares like the name it came from) and visible."""
    key = name_key(text)
    assert name_key(key) == key
    assert not any(invisible(c) for c in key)
    assert key == " ".join(key.split())


@given(st.text(max_size=80))
def test_cleaning_leaves_nothing_a_name_may_not_hold(text: str) -> None:
    """What migration 0013 keeps of a stored name is a name the bot would accept."""
    assert refused_character(cleaned(text)) is None


@given(st.text(max_size=64))
def test_an_escaped_name_reads_as_the_name(text: str) -> None:
    """Escaping only adds backslashes (taking them away gives the name back), and leaves no
    markdown character unescaped."""
    shown = league_name(text).replace("@\u200b", "@")
    assert re.sub(r"\\(.)", r"\1", shown, flags=re.DOTALL) == text
    assert not re.search(r"(?<!\\)[*_`|\[\]<]", shown.replace("\\\\", ""))
