"""One Polish word per thing (issue 38 play-through 46, findings 20, 22, 30): the prestige
tokens are "żetony prestiżu" on the web page as in Discord, the lobby is "lobby" (never
"poczekalnia"), and no preposition is cut from its noun by a colon ("za: jedwab")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.catalog import default_catalog
from bot.games import presentation
from bot.web.seats import seat_rows
from bot.web.texts import web_catalog

ROOT = Path(__file__).resolve().parents[2]
#: Every Polish text of the bot: its catalog, the games' texts, the web page's.
POLISH = sorted(
    [
        ROOT / "bot/catalog/pl.json",
        ROOT / "bot/web/locale/pl.json",
        *(ROOT / "bot/games").glob("*/locale/pl.json"),
    ]
)
#: A Polish preposition right before a colon: the noun it governs is missing.
PREPOSITION_COLON = re.compile(r"\b(za|na|do|od|dla|po|przez|przy|o|w|z|ze|we)\s*:", re.I)


def _texts() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in POLISH:
        found |= json.loads(path.read_text(encoding="utf-8"))
    return found


def test_the_prestige_tokens_have_one_polish_name_on_the_web_and_in_discord() -> None:
    """QA: Discord "+1 żeton prestiżu", "4 PP za żetony prestiżu"; the web's table "Żetony
    punktów prestiżu"."""
    discord = default_catalog().text("yamatai.score.pp_tokens", "pl", count=4)
    assert "żetony prestiżu" in discord
    view = {"players": [{"name": "Hana", "pp_tokens": 3}]}
    rows = dict(seat_rows("yamatai", view, 0, web_catalog(), "pl"))  # as the page has it
    [label] = [name for name, values in rows.items() if values == ("3",)]
    assert label.lower() == "żetony prestiżu", label


def test_the_lobby_is_lobby_in_every_polish_text() -> None:
    """QA: /help "`/new` otwórz lobby" but the rematch answer "Poczekalnia rewanżu jest
    otwarta" (docs/glossary/pl.md: "lobby")."""
    texts = _texts()
    said = [key for key, text in texts.items() if "poczekalni" in text.lower()]
    assert said == []
    catalog = default_catalog()
    for key in ("rematch.opened", "rematch.exists"):
        assert "Lobby rewanżu" in catalog.text(key, "pl", link="<link>"), key


def test_no_polish_preposition_is_followed_by_a_colon() -> None:
    """QA: "Zwerbuj specjalistę Kachiko za: jedwab i jedwab" (now counted, D273)."""
    bad = {key: text for key, text in _texts().items() if PREPOSITION_COLON.search(text)}
    assert bad == {}
    catalog = default_catalog()
    label = presentation("yamatai").panel_label(
        lambda k, **p: catalog.text(k, "pl", **p), {}, "recruit Kachiko silk silk"
    )
    assert label == "Zwerbuj specjalistę Kachiko za żetony kultury: jedwab \u00d72", label
