"""The turn panel: choices in words, staged when large, buttons for one choice and for ending."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import ui

from bot.catalog import default_catalog
from bot.custom_ids import ROW_ID_MAX, VERSION_MAX
from bot.games import presentation
from bot.games.base import Texts
from bot.games.yamatai import PANEL_NEXT
from bot.service import PanelState, Rooms
from bot.service.panel import (
    PAGE_SIZE,
    STAGE,
    by_checksum,
    categories,
    checksum,
    next_group,
    page_of,
    stage,
)
from bot.service.pictures import PictureCache
from bot.service.results import PlayerInfo
from bot.service.tables import panel_choices
from bot.service.tables import step_of as _step
from bot.views.panel import CategorySelect, act, choice_label, panel_view
from engine import games
from engine.players import random_player
from render.extras import Extras

from .fakes import FakeBot, fake_interaction
from .support import two_player_game, with_service

LANGUAGES = ("en", "fr", "it", "pl")
pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def _panel_click(bot: FakeBot, user_id: int) -> Any:
    interaction = fake_interaction(bot, user_id=user_id)
    interaction.edits = []

    async def edit(**kwargs: Any) -> None:
        interaction.edits.append(kwargs)

    interaction.edit_original_response = edit
    return interaction


def _words(card: Any) -> str:
    """The texts of a panel's card, one a line."""
    return "\n".join(i.content for i in card.walk_children() if isinstance(i, ui.TextDisplay))


def _choices(card: Any) -> list[Any]:
    """The menus and buttons of a panel's card (its persistent items)."""
    return [i for i in card.walk_children() if isinstance(i, ui.DynamicItem)]


def _chosen(view: Any) -> str | None:
    """The group marked as chosen in a panel card's category menu."""
    for child in _choices(view):
        if isinstance(child, CategorySelect):
            return next((o.value for o in child.item.options if o.default), None)
    return None


def test_the_panel_says_what_was_played_and_keeps_the_group(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        bot = FakeBot(rooms=rooms)
        asked: list[str | None] = []
        panel = rooms.playing.panel

        async def recording_panel(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs.get("after"))
            return await panel(*args, **kwargs)

        rooms.playing.panel = recording_panel  # type: ignore[method-assign]
        for i in range(8):  # fleet, then trades and boats: each stays in its group if it can
            state = await panel(user, game_id=created.game_id, picture=False)
            action = state.actions[0]
            click = _panel_click(bot, user)
            await act(bot, click, created.game_id, state.version, action)  # type: ignore[arg-type]
            [edit] = click.edits
            assert edit["content"] is None and isinstance(edit["view"], ui.LayoutView)
            if not _choices(edit["view"]):  # the turn ended
                break
            said = _words(edit["view"])
            assert said.startswith("You took fleet ") or i > 0, said
            assert "`" not in said and asked[-1] == action
            after = await panel(user, game_id=created.game_id, picture=False)
            keys = [c.key for c in after.categories]
            group = presentation("yamatai").panel_group(action)
            if len(keys) > 1:  # the same group while it lasts, else the likely next step
                assert _chosen(edit["view"]) == next_group(keys, group, PANEL_NEXT)

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_the_harbor_group_offers_to_store_and_end_in_one_choice(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        bot = FakeBot(rooms=rooms)
        state = await rooms.playing.panel(user, game_id=created.game_id, picture=False)
        fleet = next(a for a in state.actions if a in ("fleet 1", "fleet 2", "fleet 3", "fleet 4"))
        await act(bot, _panel_click(bot, user), created.game_id, state.version, fleet)  # type: ignore[arg-type]
        state = await rooms.playing.panel(
            user, game_id=created.game_id, category="keep", picture=False
        )
        assert state.category == "keep"
        [keep, keep_and_end] = state.actions  # one boat in hand: one way to fill the harbor
        assert keep.startswith("keep ") and keep_and_end == f"{keep}; end"
        click = _panel_click(bot, user)
        await act(bot, click, created.game_id, state.version, keep_and_end)  # type: ignore[arg-type]
        [edit] = click.edits
        assert not _choices(edit["view"])  # the turn is over
        assert _words(edit["view"]).startswith("Your turn is over"), _words(edit["view"])

    asyncio.run(with_service(tmp_path, body))


def test_the_likely_next_step_is_opened() -> None:
    keys = ["trade", "place:clay", "place:wood", "sacred", "end"]
    assert next_group(keys, "place:wood", PANEL_NEXT) == "place:wood"  # still going on
    assert next_group(keys, "fleet", PANEL_NEXT) == "place:clay"  # fleet done: place boats
    assert next_group(["sacred", "end"], "keep", PANEL_NEXT) == "sacred"  # never a menu of end
    assert next_group(["end"], None, ()) == "end"


COLLECT = [f"collect {a} {b}" for a in ("A1", "A2", "B1", "B4", "C2") for b in map(str, range(9))]


def test_a_large_group_is_chosen_in_stages() -> None:
    values, prefix = stage(COLLECT)
    islands = ("A1", "A2", "B1", "B4", "C2")
    assert prefix == "collect" and values == [f"collect {a}{STAGE}" for a in islands]
    values, prefix = stage(COLLECT, "collect B4")
    assert prefix == "collect B4" and values == [f"collect B4 {b}" for b in map(str, range(9))]
    assert stage(COLLECT, "collect Z9") == stage(COLLECT)  # a stale stage starts again
    spots = [f"place clay {n}" for n in range(40)]  # one word left: pages, not stages
    assert stage(spots) == (spots, "place clay")
    few = COLLECT[:20]
    assert stage(few) == (few, "")


def test_buttons_find_their_action_by_checksum() -> None:
    assert by_checksum(COLLECT, checksum("collect B4 3")) == "collect B4 3"
    assert by_checksum(COLLECT, checksum("end")) is None


def test_choices_read_in_the_games_words() -> None:
    catalog = default_catalog()
    view = {"islands": [{"label": "A2", "token": "rice"}, {"label": "B4", "token": "tea"}]}
    yamatai, namiji = presentation("yamatai"), presentation("namiji")

    def label(shown: Any, locale: str, action: str) -> str:
        return str(shown.panel_label(lambda k, **p: catalog.text(k, locale, **p), view, action))

    assert label(yamatai, "en", "collect A2 B4") == "Collect rice on A2 and tea on B4"
    assert label(yamatai, "fr", "collect A2 B4") == "Ramasser riz sur A2 et thé sur B4"
    assert label(yamatai, "en", "place clay 12") == "Place a clay boat on spot 12"
    assert label(yamatai, "pl", "keep gold; end") == (
        "Zatrzymaj w porcie: łódź ze złotem i zakończ turę"
    )
    assert label(yamatai, "en", "recruit Riu silk silk") == "Recruit Riu with silk \u00d72"
    assert (
        label(yamatai, "en", "swap tokens A2 B4")
        == "Swap the rice token on A2 with the tea token on B4"
    )
    assert label(namiji, "it", "fish os") == "Pesca il saba arancione"
    assert label(namiji, "en", "keep r2c3") == "Put it in row 2, column 3 of your crate"


def test_powers_fleets_and_groups_read_in_the_games_words() -> None:
    """QA: notation words in group labels ("Umieść łódź: **bamboo**") and power choices."""
    catalog = default_catalog()
    yamatai: Any = presentation("yamatai")
    view = {
        "islands": [{"label": "A4", "token": "rice"}, {"label": "B2", "token": "tea"}],
        "fleet_track": [{"fleet": 7, "boats": ["stone", "bamboo"], "power": "remove"}],
    }

    def label(locale: str, action: str) -> str:
        return str(yamatai.panel_label(lambda k, **p: catalog.text(k, locale, **p), view, action))

    def group(locale: str, key: str) -> str:
        return str(yamatai.panel_group_label(lambda k, **p: catalog.text(k, locale, **p), key))

    assert group("pl", "place:bamboo") == "Umieść łódź z bambusem"
    assert group("en", "place:clay") == "Place a clay boat"
    assert group("en", "swap_tokens") == "Power: swap 2 culture tokens"
    assert group("fr", "raijin") == "Pouvoir\u00a0: Raijin (2 bateaux contre un bateau d'or)"
    assert label("en", "fleet 7") == (
        "Take fleet 7: a stone boat and a bamboo boat · remove up to 2 boats"
    )
    assert label("en", "swap tokens A4 B2") == "Swap the rice token on A4 with the tea token on B2"
    assert label("en", "remove 7 15") == "Remove the boats on spots 7 and 15"
    assert label("pl", "remove 7") == "Usuń łódź z pola 7"
    assert label("en", "slide 12 13") == "Slide the boat on spot 12 to spot 13"
    assert label("en", "sacred C4") == "Place a sacred ground on C4"
    assert label("en", "reserve B07") == "Reserve building\u00a07"  # the picture's "#07"
    assert label("en", "look") == "Look at the top 3 building tiles"
    assert label("en", "arrange B03 B11 / B07") == (
        "Put back: trading post\u00a03 and building\u00a011 on top, building\u00a07 at the bottom"
    )
    assert label("en", "arrange / B07") == "Put back: none on top, building\u00a07 at the bottom"
    assert label("en", "swap boats 12 30") == "Swap the boats on spots 12 and 30"
    assert label("en", "raijin clay clay") == "Raijin: give 2 clay boats for a gold boat"
    assert label("it", "nakatsu wood stone") == (
        "Nakatsu: dai una nave d'oro per una nave di legno e una nave di pietra"
    )
    assert label("en", "michimata silk") == "Michimata: discard a silk token for a gold boat"
    assert (
        label("fr", "hetsuka tea")
        == "Hetsuka\u00a0: défausser un jeton Culture thé contre 4 pièces"
    )
    assert label("en", "kachiko C4") == "Kachiko: pay 2 coins, remove the sacred ground on C4"
    assert label("en", "ebisu B2") == "Ebisu: also take the tea token on B2"
    assert label("en", "keep clay clay; end") == (
        "Keep 2 clay boats in your harbor and end the turn"
    )


def test_the_neutral_boat_is_named_in_the_step_and_the_choices() -> None:
    """FR rulebook, 2 players: the leader moves the neutral boat; the panel must say so."""
    catalog = default_catalog()
    namiji: Any = presentation("namiji")
    match = games.new("namiji", ["Ann", "Bo"], seed=5)
    seen = 0
    while (seat := match.current_seat) is not None:
        view = match.view(seat)
        moving = view["phase"] == "move"
        neutral = moving and view["boats"][view["boat_to_act"]]["seat"] is None
        if moving:
            step = catalog.text(_step(match) or "", "en")
            action = match.legal_actions()[0]
            shown = namiji.panel_label(lambda k, **p: catalog.text(k, "en", **p), view, action)
            assert ("the neutral boat" in step) == neutral, step
            assert shown.startswith("Move the neutral boat" if neutral else "Sail"), shown
            seen += neutral
        match.play(random_player(view, seat), seat=seat)
    assert seen > 3


def _panel_states(match: Any, seat: int) -> list[PanelState]:
    """Every panel a player can open at this point: each group, each stage, each page."""
    shown = presentation(match.game_key)
    legal = panel_choices(match)
    groups = tuple(c for c in categories(legal, shown.panel_group) if c.key != "end")
    ending = [a for a in legal if shown.panel_group(a) == "end"]
    states, todo = [], [(g.key, "") for g in groups]
    while todo:
        group, prefix = todo.pop()
        values, prefix = stage([a for a in legal if shown.panel_group(a) == group], prefix)
        todo += [(group, v.removesuffix(STAGE)) for v in values if v.endswith(STAGE)]
        pages = max(1, -(-len(values) // PAGE_SIZE))
        for page in range(pages):
            states.append(
                PanelState(
                    game_id=ROW_ID_MAX,  # the largest ids an id may carry
                    game=match.game_key,
                    version=VERSION_MAX,
                    step="",
                    player=PlayerInfo(seat=seat, name="Ann", user_id=1, colour="red"),
                    categories=groups,
                    category=group,
                    page=page,
                    pages=pages,
                    actions=tuple(page_of(values, page)[0]),
                    can_undo=True,
                    prefix=prefix,
                    end=ending[0] if ending else None,
                    view=match.view(seat),
                )
            )
    return states


def _texts(locale: str) -> Texts:
    """Catalog texts in one language."""
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, locale, **params)


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_every_panel_of_random_games_fits_discords_limits(game: str) -> None:
    """25 options a menu, 5 rows, 100-character ids, labels and values, in each language."""
    bot = FakeBot()
    texts = [_texts(lang) for lang in LANGUAGES]
    words_of: Any = getattr(presentation(game), "panel_label", None)
    seen_options = 0
    for seed, locale in ((1, discord.Locale.american_english), (2, discord.Locale.polish)):
        interaction = fake_interaction(bot)
        interaction.locale = locale
        match = games.new(game, ["Ann", "Bo", "Cy"], seed=seed)
        while (seat := match.current_seat) is not None:
            for state in _panel_states(match, seat):
                for value in state.actions:
                    label = choice_label(interaction, game, state.view, value)
                    assert len(value) <= 100 and not label.endswith("…" * 2), value
                    for t in texts if words_of else ():  # each language's label fits whole
                        action = value.removesuffix(STAGE)
                        shown = str(words_of(t, state.view or {}, action)) + value[len(action) :]
                        assert len(shown) <= 100 and "{" not in shown, shown
                for key in state.categories:
                    for t in texts:
                        name = f"{presentation(game).panel_group_label(t, key.key)} (999)"
                        assert len(name) <= 100 and "{" not in name, name
                view = panel_view(bot, interaction, state)  # type: ignore[arg-type]
                ids = [getattr(i, "custom_id", None) for i in view.children]
                assert len(ids) == len(set(ids)), ids  # Discord refuses a duplicate id
                for item in view.children:
                    custom_id = getattr(item, "custom_id", None) or ""
                    assert len(custom_id) <= 100, custom_id
                    options = getattr(getattr(item, "item", item), "options", [])  # a DynamicItem's
                    assert len(options) <= 25
                    seen_options += len(options)
                    for option in options:
                        assert len(option.label) <= 100 and len(option.value) <= 100
                        assert len(option.description or "") <= 100
                rows = view.to_components()  # raises if an item finds no room in 5 rows
                assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
            match.play(random_player(match.view(seat), seat), seat=seat)
    assert seen_options > 0  # the menus' options were read, not skipped


def test_the_panel_shows_the_turn_picture_with_the_steps_choices(tmp_path: Path) -> None:
    """Yamatai's panel carries the phone-sized turn picture marking the group's choices (the
    one render_focus draws); if drawing fails, the panel still comes, without a picture."""
    import io

    from PIL import Image

    from render import render_focus

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        state = await rooms.playing.panel(user, game_id=created.game_id)
        assert state.picture is not None and state.view is not None
        marked = [a for a in state.actions if not a.endswith(" …")]
        # nobody played before the first player: "since the game began" tells nothing
        assert state.since == () and state.first_turn
        expected = render_focus(state.view, legal=marked, extras=Extras(since=[], first_turn=True))
        assert state.picture == expected
        assert Image.open(io.BytesIO(state.picture)).width == 900  # the board is 1600

        def broken(*_: object) -> bytes:
            raise RuntimeError("no fonts today")

        rooms.pictures.pool.drawer = broken
        rooms.pictures.pictures = PictureCache()
        bare = await rooms.playing.panel(user, game_id=created.game_id)
        assert bare.picture is None and bare.actions == state.actions

    asyncio.run(with_service(tmp_path, body))


def test_each_group_of_the_menu_says_how_many_choices_it_holds(tmp_path: Path) -> None:
    """The group menu read "Power: swap 2 culture tokens (375)", a number nobody explained
    (Italian play-through PY 9): each group now says "· 375 choices" ("· 1 choice")."""

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        bot = FakeBot(rooms=rooms)
        state = await rooms.playing.panel(user, game_id=created.game_id, picture=False)
        while len(state.categories) < 2:  # the fleet first: then trades, boats, the end...
            await rooms.playing.play(user, state.actions[0], game_id=created.game_id)
            state = await rooms.playing.panel(user, game_id=created.game_id, picture=False)
        view = panel_view(bot, _panel_click(bot, user), state)  # type: ignore[arg-type]
        [menu] = [c for c in view.children if isinstance(c, CategorySelect)]
        labels = {o.value: o.label for o in menu.item.options}
        for group in state.categories:
            counted = "1 choice" if group.count == 1 else f"{group.count} choices"
            assert labels[group.key].endswith(f" · {counted}"), labels[group.key]

    asyncio.run(with_service(tmp_path, body, fast=True))
