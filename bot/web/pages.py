"""The web pages as HTML: string templates where every text from a user or a game is escaped.

Pure functions of plain records (``GamePage``, ``LeaguePage``) and a ``say(key, **params)``
for the catalog texts in the page's language. Links are relative to the page, so the pages
work behind a reverse proxy under any path (``WEB_BASE_URL``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from render.text import without_bidi_controls

from .cards import card_name
from .replay import Replay
from .seats import Row

Say = Callable[..., str]

#: Colours a seat may have (engine colour names) that the stylesheet knows; others are grey.
SWATCHES = frozenset(
    {"blue", "orange", "purple", "grey", "green", "pink", "yellow", "violet", "red", "black"}
)


def e(text: object) -> str:
    """Text escaped for HTML content and quoted attributes, direction controls removed (a
    name's would reorder the page around it, D148)."""
    return escape(without_bidi_controls(str(text)), quote=True)


def name(text: str) -> str:
    """A user-given name, escaped and isolated: a right-to-left name keeps its own order
    without reordering the words and numbers beside it."""
    return f"<bdi>{e(text)}</bdi>"


def script_json(data: object) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``, and
    no direction control (the page's script shows these texts)."""
    text = without_bidi_controls(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def swatch(colour: str) -> str:
    """The colour chip of a seat (a CSS class: inline styles are not allowed by the CSP)."""
    name = colour if colour in SWATCHES else "grey"
    return f'<span class="swatch c-{name}" aria-hidden="true"></span>'


def utc_time(seconds: int) -> str:
    """A ``<time>`` the page's script shows in the reader's own time zone."""
    iso = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f'<time class="local" data-utc="{seconds}">{e(iso)}</time>'


def document(lang: str, title: str, body: str, *, root: str) -> str:
    """A whole page: head with the stylesheet and script (``root``: the path to ``/``)."""
    return (
        "<!doctype html>\n"
        f'<html lang="{e(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="robots" content="noindex, nofollow">'
        f"<title>{e(title)}</title>"
        f'<link rel="icon" href="{root}static/icon.svg" type="image/svg+xml">'
        f'<link rel="stylesheet" href="{root}static/web.css">'
        f'<script src="{root}static/web.js" defer></script>'
        f"</head><body>{body}</body></html>\n"
    )


@dataclass(frozen=True)
class PlayerLine:
    """One seat in the players' table."""

    seat: int
    name: str
    colour: str
    score: str  # as the spectator's view has it ("12+?": face-down tiles' PP left out, R34)
    to_play: bool
    winner: bool
    resigned: bool  # the player resigned (the computer plays on, or the game ended)
    stand_in: bool  # the computer plays for the player (away, on vacation)
    resigned_from: int = 0  # the replay's first step that shows the resignation


@dataclass(frozen=True)
class Frame:
    """What the page shows of the players after one step of the replay: the replay moves
    the scores, whose turn and each player's state with the board (D214)."""

    scores: tuple[str, ...]  # by seat, as the spectator's view had them then
    to_play: int | None  # the seat to act then (None: nobody, the game is over)
    step: str | None  # the step that seat plays, in words (third person)
    seats: tuple[tuple[Row, ...], ...]  # each seat's public state then, by seat
    cards: tuple[str, ...]  # the names of the cards on the table then


@dataclass(frozen=True)
class GamePage:
    """Everything a game's page shows."""

    game_id: int
    game_name: str
    language: str
    status: str  # "active", "finished" or "abandoned"
    winners: tuple[str, ...]  # who won, once the game is finished
    resigned: str | None  # who resigned, when that ended the game (the bot's end, not the rules')
    round: int
    players: tuple[PlayerLine, ...]
    step: str | None  # the step to play, in words
    deadline: int | None  # UTC unix seconds
    replay: Replay
    times: tuple[int | None, ...]  # when each step's action was played (None: the start)
    cards: tuple[tuple[str, str], ...]  # (name, text) of the cards on the table now, then
    # those of earlier steps (the replay shows each step's)
    picture: str  # relative address of a step's picture, ``{v}`` standing for the step
    seats: dict[int, tuple[Row, ...]]  # each player's public state in words, by seat
    counts: str = "round"  # what the numbers count: "round", or "turn" (D83)
    score_notes: tuple[str, ...] = ()  # what the scores leave out (face-down tiles' PP)
    stopped_note: str | None = None  # instead, at the last step: the bot stopped the game
    frames: tuple[Frame, ...] = ()  # one per step of the replay (none: the board moves alone)


def game_html(page: GamePage, say: Say) -> str:
    """The game's page."""
    title = say("web.game_title", game=page.game_name, id=page.game_id)
    last = page.replay.last.version
    names = _card_names(page, say)
    steps = _steps(page, say, names)
    body = [
        f'<header><h1>{e(title)}</h1><p class="status">{e(_status(page, say))}</p>'
        f'<p class="note">{e(say("web.spectator"))}</p>{_recap(page, say)}</header>',
        '<main class="game">',
        _players(page, say),
        _board(page, say, last),
        _state(page, say, names),
        _cards(page, say, names),
        _log(page, say),
        "</main>",
        f'<script type="application/json" id="steps">{script_json(steps)}</script>',
    ]
    return document(page.language, title, "".join(body), root="../../")


@dataclass(frozen=True)
class Card:
    """A card as the page shows it: labelled by its name, its text (which names it too) on
    hover and tap; its code only in an attribute."""

    name: str
    text: str


def _card_names(page: GamePage, say: Say) -> dict[str, Card]:
    """Each card the page lists, by its code: its name in the page's language and its text."""
    return {
        code: Card(card_name(page.replay.game_key, code, say), text) for code, text in page.cards
    }


def _recap(page: GamePage, say: Say) -> str:
    """Once the game is over, a link to its animated recap (the final message's GIF)."""
    if page.status == "active" or page.replay.last.version == 0:
        return ""
    address = page.picture.split("/v/")[0] + "/recap.gif"  # next to the step pictures
    return f'<p class="note"><a href="{e(address)}">{e(say("web.recap"))}</a></p>'


def _status(page: GamePage, say: Say) -> str:
    """Under way (the round), or how it ended: who won, who resigned (as the ending card)."""
    if page.status == "active":
        return say(f"web.status.active_{page.counts}", round=page.round)
    winners = ", ".join(page.winners)
    if page.resigned is not None:
        if page.status == "finished" and winners:
            return say("web.status.resigned_won", player=page.resigned, winner=winners)
        return say("web.status.resigned", player=page.resigned)
    if page.status == "finished" and winners:
        return say("web.status.won", winners=winners)
    return say(f"web.status.{page.status}")


def _players(page: GamePage, say: Say) -> str:
    rows = []
    step = say("web.to_play_step", step=page.step) if page.step else say("web.to_play")
    for p in page.players:
        # every row has the turn tag, hidden but on the one to play: the replay moves it
        tags = [f'<span class="tag turn"{"" if p.to_play else " hidden"}>{e(step)}</span>']
        if p.winner:
            tags.append(f'<span class="tag win">{e(say("web.winner"))}</span>')
        if p.resigned:  # while the game goes on, the computer plays the seat
            resigned = say("web.resigned_playing" if page.status == "active" else "web.resigned")
            # the replay hides it before the step the resignation shows from
            tags.append(f'<span class="tag" data-from="{p.resigned_from}">{e(resigned)}</span>')
        elif p.stand_in:
            tags.append(f'<span class="tag">{e(say("web.stand_in"))}</span>')
        rows.append(
            f'<tr data-seat="{p.seat}"{" class=current" if p.to_play else ""}>'
            f'<td>{swatch(p.colour)}<span class="name">{name(p.name)}</span> {" ".join(tags)}</td>'
            f'<td class="num">{e(p.score)}</td></tr>'
        )
    notes = _notes(page)
    deadline = ""
    if page.deadline is not None and page.status == "active":
        line = _marked(say, "web.deadline", "time", utc_time(page.deadline))
        deadline = f'<p class="deadline">{line}</p>'
    return (
        f'<section class="players"><h2>{e(say("web.players"))}</h2><table>'
        f"<thead><tr><th>{e(say('web.column.player'))}</th>"
        f'<th class="num">{e(say("web.column.score"))}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>{notes}{deadline}</section>"
    )


def _notes(page: GamePage) -> str:
    """What the scores leave out; when the bot stopped the game, what it says then stands at
    the last step (shown first), the notes before it (the replay shows each at its steps)."""
    if page.stopped_note is None:
        return "".join(f'<p class="note">{e(note)}</p>' for note in page.score_notes)
    last = len(page.replay.steps) - 1
    before = "".join(
        f'<p class="note" data-until="{last - 1}" hidden>{e(note)}</p>' for note in page.score_notes
    )
    return f'<p class="note" data-from="{last}">{e(page.stopped_note)}</p>{before}'


def _board(page: GamePage, say: Say, last: int) -> str:
    src = page.picture.replace("{v}", str(last))
    minus = "\u2212"  # the minus sign, wider than a hyphen
    zoom = (
        f'<div class="zoom">{_button("zoom-out", say("web.zoom_out"), minus)}'
        f'<button type="button" id="zoom-reset">{e(say("web.zoom_reset"))}</button>'
        f"{_button('zoom-in', say('web.zoom_in'), '+')}</div>"
    )
    replay = (
        f'<div class="replay" id="replay" hidden><h2>{e(say("web.replay"))}</h2>'
        f'<div class="stepper">{_button("prev", say("web.previous"), "◀")}'
        f'<input type="range" id="slider" min="0" max="{last}" value="{last}" step="1"'
        f' aria-label="{e(say("web.replay"))}">'
        f"{_button('next', say('web.next'), '▶')}</div>"
        f'<p id="step-label" class="step-label"></p><p id="action" class="action"></p></div>'
        f'<noscript><p class="note">{e(say("web.no_script"))}</p></noscript>'
    )
    return (
        f'<section class="board"><h2>{e(say("web.board"))}</h2>{zoom}'
        f'<div class="viewport" id="viewport"><img id="board" src="{e(src)}"'
        f' data-src="{e(page.picture)}" alt="{e(say("web.board_alt", n=last))}"'
        f' draggable="false"></div>{replay}</section>'
    )


def _button(element_id: str, label: str, sign: str) -> str:
    """A button showing a sign, named for screen readers and on hover."""
    return (
        f'<button type="button" id="{element_id}" aria-label="{e(label)}"'
        f' title="{e(label)}">{sign}</button>'
    )


def _state(page: GamePage, say: Say, cards: dict[str, Card]) -> str:
    blocks = []
    for p in page.players:
        rows = "".join(
            f"<tr><th>{e(label)}</th><td>{_values(values, cards)}</td></tr>"
            for label, values in page.seats.get(p.seat, ())
        )
        blocks.append(
            f"<details open><summary>{swatch(p.colour)}{name(p.name)}</summary>"
            f'<table class="state" data-seat="{p.seat}">{rows}</table></details>'
        )
    return f'<section class="seats"><h2>{e(say("web.state"))}</h2>{"".join(blocks)}</section>'


def _values(values: Sequence[str], cards: dict[str, Card]) -> str:
    """A row's values, comma-separated; a card keeps its comma on its line (a narrow screen
    broke before it: ", makis")."""
    items = []
    for i, value in enumerate(values):
        item = _card(value, cards) + ("," if i < len(values) - 1 else "")
        items.append(f'<span class="held">{item}</span>' if value in cards else item)
    return " ".join(items)


def _card(value: str, cards: dict[str, Card]) -> str:
    """A value of the view; a card shows its name, and its text on hover (title) and tap
    (script); its code stays in ``data-card`` (what the replay and tests find it by)."""
    card = cards.get(value)
    if card is None:
        return e(value)
    return (
        f'<button type="button" class="card" data-card="{e(value)}" title="{e(card.text)}"'
        f' data-text="{e(card.text)}">{e(card.name)}</button>'
    )


def _cards(page: GamePage, say: Say, cards: dict[str, Card]) -> str:
    if not page.cards:
        return ""
    now = set(page.frames[-1].cards) if page.frames else {name for name, _ in page.cards}
    items = "".join(
        f'<li data-card="{e(name)}"{"" if name in now else " hidden"}><details>'
        f"<summary>{e(cards[name].name)}</summary><p>{e(text)}</p></details></li>"
        for name, text in page.cards
    )
    return (
        f'<section class="cards"{"" if now else " hidden"}><h2>{e(say("web.cards"))}</h2>'
        f'<p class="note">{e(say("web.cards_hint"))}</p><ul>{items}</ul>'
        '<p id="card-text" class="card-text" hidden></p></section>'
    )


def _log(page: GamePage, say: Say) -> str:
    steps = page.replay.steps[1:]
    if not steps:
        empty = f"<p>{e(say('web.log_empty'))}</p>"
        return f'<section class="log"><h2>{e(say("web.log"))}</h2>{empty}</section>'
    names = page.replay.players
    items = []
    for step, at in zip(steps, page.times[1:], strict=True):
        who = names[step.seat] if step.seat is not None else ""
        when = "" if at is None else " " + utc_time(at)
        items.append(
            f'<li value="{step.version}">'
            f'<span class="round">{e(say(f"web.{page.counts}", round=step.round))}</span>'
            f"{when} <b>{e(who)}</b> {e(step.words)}{_notation(step.action, say)}</li>"
        )
    # shown by the replay at its first step, before any entry (web.js ``history``)
    none = f'<p class="log-none" hidden>{e(say("web.log_empty"))}</p>'
    return (
        f'<section class="log"><h2>{e(say("web.log"))}</h2>{none}'
        f'<ol reversed class="entries">{"".join(reversed(items))}</ol></section>'
    )


def _marked(say: Say, key: str, param: str, markup: str) -> str:
    """A catalog text, escaped, with ``markup`` (HTML) where its ``param`` goes: the words
    around it and their spacing are the language's ("Fin du tour : …")."""
    mark = "\x00"
    return e(say(key, **{param: mark})).replace(mark, markup)


def _notation(action: str, say: Say) -> str:
    """An action's notation after its words, marked as notation (what ``/play`` takes)."""
    if not action:
        return ""
    label = _marked(say, "web.notation", "notation", f"<code>{e(action)}</code>")
    return f' <span class="notation">({label})</span>'


def _steps(page: GamePage, say: Say, cards: dict[str, Card]) -> dict[str, object]:
    """What the script needs to step through the replay (shown with textContent only): each
    step's label and action, the players as they were then (``frames``), and each card's name
    and text by its code."""
    names = page.replay.players
    total = len(page.replay.steps) - 1
    steps = []
    # what repeats from step to step is sent once and named by its number in its table:
    # "rows" (a state's line), "blocks" (a seat's lines), "turns" (a turn's tag), "hands"
    tables: dict[str, dict[str, int]] = {"rows": {}, "blocks": {}, "turns": {}, "hands": {}}
    for number, step in enumerate(page.replay.steps):
        if step.seat is None:
            text = say("web.setup")
        else:
            action = step.words
            if step.action:
                action += f" ({say('web.notation', notation=step.action)})"
            text = say("web.played", player=names[step.seat], action=action)
        label = say("web.step", n=step.version, total=total)
        numbered = say(f"web.{page.counts}", round=step.round)
        shown: dict[str, object] = {"label": f"{label} · {numbered}", "text": text}
        if number < len(page.frames):
            shown.update(_frame(page.frames[number], tables, say))
        steps.append(shown)
    sent: dict[str, object] = {name: [json.loads(v) for v in t] for name, t in tables.items()}
    named = {code: [card.name, card.text] for code, card in cards.items()}
    return sent | {"steps": steps, "cards": named, "alt": say("web.board_alt", n="{n}")}


def _numbered(table: dict[str, int], value: object) -> int:
    """``value``'s number in ``table`` (added at the end when new)."""
    return table.setdefault(json.dumps(value, ensure_ascii=False), len(table))


def _frame(frame: Frame, tables: dict[str, dict[str, int]], say: Say) -> dict[str, object]:
    """One step's players for the script: scores, the seat to play and its tag, each seat's
    state and the cards on the table (the last three by number in ``tables``)."""
    seats = [
        _numbered(
            tables["blocks"],
            [_numbered(tables["rows"], [label, list(values)]) for label, values in rows],
        )
        for rows in frame.seats
    ]
    turn = say("web.to_play_step", step=frame.step) if frame.step else say("web.to_play")
    return {
        "scores": list(frame.scores),
        "turn": frame.to_play,
        "turnText": _numbered(tables["turns"], turn),
        "seats": seats,
        "hand": _numbered(tables["hands"], list(frame.cards)),
    }


@dataclass(frozen=True)
class StandingRowText:
    """One standings line, numbers formatted."""

    rank: str
    name: str
    points: str
    played: str
    rating: str
    change: str
    withdrawn: bool
    note: str = ""  # after the name: games the player resigned (as on the picture)


@dataclass(frozen=True)
class TableLink:
    """One table of a round: its players and its game page, if opened."""

    round: int
    table_no: int
    players: tuple[str, ...]
    link: str | None  # relative address of the game's page
    result: str | None = None  # how its game stands, in words ("won by Bo (43-24)", an en dash)


@dataclass(frozen=True)
class LeaguePage:
    """Everything a league's page shows."""

    title: str
    status: str
    language: str
    headers: tuple[str, ...]
    rows: tuple[StandingRowText, ...]
    tables: tuple[TableLink, ...]
    # (player, rating after each game, the latest as the standings table writes it)
    ratings: tuple[tuple[str, tuple[float, ...], str], ...]
    picture: str | None  # relative address of the standings picture


def league_html(page: LeaguePage, say: Say) -> str:
    """The league's page: standings (table and picture), rounds, rating histories; the
    rating change's column only once a player's rating changed (it was always empty before)."""
    changed = any(r.change for r in page.rows)
    headers = page.headers if changed else page.headers[:5]
    head = "".join(  # the numbers' headers over their numbers (right), the names' left
        f"<th>{e(h)}</th>" if i == 1 else f'<th class="num">{e(h)}</th>'
        for i, h in enumerate(headers)
    )
    rows = "".join(_standing_row(r, changed) for r in page.rows)
    standings = (
        f'<table class="standings"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        if page.rows
        else f"<p>{e(say('web.league.no_players'))}</p>"
    )
    picture = (
        f'<img class="standings-picture" src="{e(page.picture)}"'
        f' alt="{e(say("web.league.standings_alt"))}">'
        if page.picture
        else ""
    )
    body = [
        f'<header><h1>{e(page.title)}</h1><p class="status">{e(page.status)}</p></header><main>',
        f"<section><h2>{e(say('web.league.standings'))}</h2>{standings}{picture}</section>",
        _rounds(page.tables, say),
        _ratings(page.ratings, say),
        "</main>",
    ]
    return document(page.language, page.title, "".join(body), root="../../")


def _standing_row(r: StandingRowText, changed: bool) -> str:
    """One line of the standings table (its rating change only if ``changed``)."""
    numbers = (r.points, r.played, r.rating, *((r.change,) if changed else ()))
    note = f" <span class=resigned>{e(r.note)}</span>" if r.note else ""
    return (
        f'<tr{" class=withdrawn" if r.withdrawn else ""}><td class="num">{e(r.rank)}</td>'
        f"<td>{name(r.name)}{note}</td>"
        + "".join(f'<td class="num">{e(n)}</td>' for n in numbers)
        + "</tr>"
    )


def _rounds(tables: Sequence[TableLink], say: Say) -> str:
    """Each round's tables: players, game page, how the game stands; before the first round,
    that none was played."""
    parts = [] if tables else [f"<p>{e(say('web.league.no_rounds'))}</p>"]
    for round_ in sorted({t.round for t in tables}):
        items = []
        for t in (t for t in tables if t.round == round_):
            who = say("web.league.table", table=t.table_no, players=", ".join(t.players))
            link = (
                f' — <a href="{e(t.link)}">{e(say("web.league.game"))}</a>'
                if t.link
                else f" — {e(say('web.league.not_opened'))}"
            )
            result = f" — {e(t.result)}" if t.result else ""
            items.append(f"<li>{e(who)}{result}{link}</li>")
        title = e(say("web.league.round", round=round_))
        parts.append(f"<h3>{title}</h3><ul>{''.join(items)}</ul>")
    title = e(say("web.league.rounds"))
    return f'<section class="rounds"><h2>{title}</h2>{"".join(parts)}</section>'


def _ratings(ratings: Sequence[tuple[str, Sequence[float], str]], say: Say) -> str:
    blocks = []
    for name, values, last in ratings:
        chart = sparkline(values) if values else f"<p>{e(say('web.league.no_rating'))}</p>"
        shown = say("web.league.rating_now", name=name, rating=last) if values else name
        blocks.append(f"<figure><figcaption>{e(shown)}</figcaption>{chart}</figure>")
    title = e(say("web.league.ratings"))
    return f'<section class="ratings"><h2>{title}</h2>{"".join(blocks)}</section>'


def sparkline(values: Sequence[float], width: int = 240, height: int = 60) -> str:
    """An inline SVG line of a rating after each rated game (from 0, before the first)."""
    points = [0.0, *values]
    low, high = min(points), max(points)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    step = (width - 8) / max(1, len(points) - 1)
    xy = " ".join(
        f"{4 + i * step:.1f},{4 + (high - v) / (high - low) * (height - 8):.1f}"
        for i, v in enumerate(points)
    )
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
        f' role="img"><polyline points="{xy}"></polyline></svg>'
    )
