"""Player names are shown escaped (no markdown, no mentions) and stored raw."""

from __future__ import annotations

from bot.catalog import default_catalog
from bot.cogs.info import board_caption
from bot.names import display_name, league_name, short_name
from bot.present import error_text
from bot.service import BoardResult, FinalResult, FinalScore, PlayerInfo, ServiceError, TurnReport
from bot.summary import Summary
from bot.thread.turns import turn_message
from render.text import runs

from .fakes import FakeBot, fake_interaction

EVIL = "**Eve**_`x` @everyone <@123456789012345678>"


def _plain(text: str) -> bool:
    """No raw markdown star pair or live mention left from the evil name."""
    return "**Eve**" not in text and "@everyone" not in text and "<@123456789012345678>" not in text


def test_display_name_escapes_markdown_and_mentions_but_short_name_keeps_it_raw() -> None:
    shown = display_name(EVIL)
    assert shown.startswith("\\*\\*Eve\\*\\*\\_\\`x\\`") and _plain(shown)
    assert short_name("  A\n  b  ") == "A b" and short_name("*A*_b") == "*A*_b"


def test_turn_and_final_messages_escape_names() -> None:
    eve, bo = (
        PlayerInfo(seat=0, name=EVIL, user_id=1, colour="red"),
        PlayerInfo(seat=1, name="Bo", user_id=2, colour="blue"),
    )
    final = FinalResult(
        scores=(
            FinalScore(seat=0, name=EVIL, user_id=1, total=10, rank=1, lines={"coins": 1}),
            FinalScore(seat=1, name="Bo", user_id=2, total=3, rank=2, lines={}),
        )
    )
    events = ({"type": "izanami", "seat": 0, "coins": 2}, {"type": "end_turn", "seat": 0})
    report = TurnReport(
        game_id=1,
        game="yamatai",
        thread_id=500,
        version=5,
        player=eve,
        round=1,
        actions=("end",),
        events=events,
        players=(eve, bo),
        picture=b"",
        next_player=None,
        final=final,
    )
    text = turn_message(FakeBot(), report, None)  # type: ignore[arg-type]
    assert text.startswith("**\\*\\*Eve") and _plain(text)
    lines = Summary(default_catalog(), None, "yamatai").final(final)
    assert all(_plain(line) for line in lines)


def test_board_caption_and_errors_escape_names() -> None:
    interaction = fake_interaction(FakeBot())
    board = BoardResult(
        game_id=1,
        version=2,
        picture=b"",
        round=1,
        current=PlayerInfo(seat=0, name=EVIL, user_id=1, colour="red"),
        step="fleet",
        over=False,
    )
    assert _plain(board_caption(interaction, board))
    error = ServiceError("error.not_your_turn", player=EVIL)
    assert _plain(error_text(default_catalog(), error, None))


BIDI = ("\u202e", "\u2067", "\u2066", "\u2069", "\u200f", "\u061c")


def test_direction_controls_never_reach_a_stored_name_a_message_or_a_picture() -> None:
    """Issue 35 item 9: a name's U+202E or U+2067 would reorder what follows it (D148)."""
    hostile = "Ann\u202eevil\u2067 x\u2069"
    for shown in (short_name(hostile), display_name(hostile), league_name(hostile)):
        assert not set(shown) & set(BIDI), repr(shown)
    assert short_name(hostile) == "Annevil x"
    assert short_name("\u202e\u2067") == "?"  # nothing left but controls
    drawn = "".join(chunk for chunk, _ in runs("Bo \u202eAnn\u202c 12", "bold"))
    assert not set(drawn) & set(BIDI) and "Ann" in drawn
    eve, bo = (
        PlayerInfo(seat=0, name=hostile, user_id=1, colour="red"),
        PlayerInfo(seat=1, name="Bo", user_id=2, colour="blue"),
    )
    events = ({"type": "end_turn", "seat": 0},)
    report = TurnReport(
        game_id=1,
        game="yamatai",
        thread_id=500,
        version=5,
        player=eve,
        round=1,
        actions=("end",),
        events=events,
        players=(eve, bo),
        picture=b"",
        next_player=None,
        final=None,
    )
    text = turn_message(FakeBot(), report, None)  # type: ignore[arg-type]
    assert "Annevil" in text and not set(text) & set(BIDI)
