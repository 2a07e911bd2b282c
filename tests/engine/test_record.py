"""Game records (engine/record, docs/records.md): build, JSON round trip, strict reading,
replay, check, spectator records."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from typing import Any

import pytest

from engine import games
from engine import record as rec
from engine.games import Match

#: Every shipped game at every player count.
TABLES = [
    (key, count)
    for key, rules in sorted(games.GAMES.items())
    if key in ("yamatai", "namiji")
    for count in range(rules.min_players, rules.max_players + 1)
]
NAMES = ("Ann", "Bo", "Cy", "Di", "Eve")
START = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


@cache
def finished(game: str, players: int, seed: int, level: str = "random") -> Match:
    """A whole game between computer players (random ones: quick and varied)."""
    match = games.new(game, list(NAMES[:players]), seed=seed)
    choose = games.computer_player(game, level)
    while (seat := match.current_seat) is not None:
        match.play(choose(match.view(seat), seed * 7919 + len(match.log)), seat=seat)
    return match


def played(match: Match, upto: int | None = None) -> list[rec.Played]:
    """The match's log with a time per action, a minute apart."""
    log = match.log[:upto]
    return [rec.Played(s, a, START + timedelta(minutes=i)) for i, (s, a) in enumerate(log)]


def full_record(game: str, players: int, seed: int = 1) -> rec.Record:
    """The full record of a finished random game (seat 1 a strong computer)."""
    match = finished(game, players, seed)
    return rec.build(
        game,
        match.options,
        match.seed,
        match.players,
        played(match),
        match.outcome,
        computers={1: "strong"},
        language="fr",
    )


def running_record(game: str, players: int, upto: int, seed: int = 1) -> rec.Record:
    """The full record of the same game's first ``upto`` actions (no result yet)."""
    match = finished(game, players, seed)
    return rec.build(game, match.options, match.seed, match.players, played(match, upto), None)


def edited(record: rec.Record, change: Any) -> rec.Record:
    """The record after ``change`` edits its JSON data (as someone editing the file would)."""
    data = json.loads(rec.to_json(record))
    change(data)
    return rec.from_dict(data)


def tokens(text: str) -> set[str]:
    """The words, labels and numbers of a text (#07, B07, M3, ...)."""
    return set(re.findall(r"[\w#]+", text))


# -- building, writing and reading ---------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_record_round_trips_through_json_and_checks(game: str, players: int) -> None:
    """record -> JSON -> record is lossless, and ``check`` replays it to its result."""
    record = full_record(game, players)
    text = rec.to_json(record)
    assert rec.from_json(text) == record
    assert json.loads(text)["format"] == "himiko-record" and json.loads(text)["version"] == 1
    checked = rec.check(rec.from_json(text))
    assert checked == rec.Checked(game, len(record.actions), rec.FULL, True, True)
    match = finished(game, players, 1)
    assert [e.action for e in record.actions] == [a for _, a in match.log]
    assert record.result == rec.result_of(match.outcome)
    assert record.actions[-1].scores == tuple(r.score for r in match.standing.results)


def test_the_record_holds_the_setup_seats_and_times() -> None:
    """Game key, options, seed, names in seat order, computers and their level, UTC times."""
    record = full_record("yamatai", 3)
    data = json.loads(rec.to_json(record))
    assert data["game"] == "yamatai" and data["seed"] == 1 and data["kind"] == "full"
    assert data["options"] == games.new("yamatai", ["a", "b"], 1).options
    assert [p["name"] for p in data["players"]] == ["Ann", "Bo", "Cy"]
    assert [(p["computer"], p["level"]) for p in data["players"]] == [
        (False, None),
        (True, "strong"),
        (False, None),
    ]
    assert data["actions"][0]["time"] == "2026-11-26T12:00:00Z"
    assert data["actions"][1]["number"] == 2 and data["language"] == "fr"


def test_times_are_written_in_utc_and_a_time_without_zone_is_refused() -> None:
    """Any timezone is written as UTC with Z; a naive time is refused."""
    paris = timezone(timedelta(hours=1))
    assert rec.utc_text(datetime(2026, 11, 26, 13, 30, tzinfo=paris)) == "2026-11-26T12:30:00Z"
    match = finished("namiji", 2, 1)
    naive = [rec.Played(0, match.log[0][1], datetime(2026, 11, 26, 12, 0))]
    with pytest.raises(rec.RecordError, match="no timezone"):
        rec.build("namiji", None, 1, ["Ann", "Bo"], naive, None)


def test_building_from_a_log_the_engine_refuses_names_the_action() -> None:
    """A log that does not replay cannot be recorded: the action's number and text."""
    match = finished("yamatai", 2, 1)
    log = played(match, 5)
    log[2] = rec.Played(log[2].seat, "recruit Nobody", log[2].time)
    with pytest.raises(rec.RecordMismatch) as raised:
        rec.build("yamatai", None, 1, ["Ann", "Bo"], log, None)
    assert raised.value.number == 3 and raised.value.action == "recruit Nobody"


WRONG: list[tuple[str, Any, str]] = [
    ("unknown version", lambda d: d.update(version=2), "version: unknown version 2"),
    ("version as text", lambda d: d.update(version="1"), "version: expected an integer"),
    ("not a record", lambda d: d.update(format="chess-pgn"), "format:"),
    ("missing actions", lambda d: d.pop("actions"), "actions: missing"),
    ("missing result", lambda d: d.pop("result"), "result: missing"),
    ("missing seed", lambda d: d.pop("seed"), "seed: missing"),
    ("seed as bool", lambda d: d.update(seed=True), "seed: expected an integer, got a boolean"),
    ("unknown field", lambda d: d.update(colour="red"), "colour: unknown field"),
    ("unknown kind", lambda d: d.update(kind="partial"), "kind: 'partial' is not one of"),
    ("unknown game", lambda d: d.update(game="chess"), "game: unknown game 'chess'"),
    ("bad option", lambda d: d["options"].update(colour="red"), "options:"),
    ("one player", lambda d: d.update(players=d["players"][:1]), "players:"),
    ("seat order", lambda d: d["players"][1].update(seat=0), r"players\[1\]\.seat"),
    ("empty name", lambda d: d["players"][0].update(name=" "), r"players\[0\]\.name"),
    ("person level", lambda d: d["players"][0].update(level="strong"), r"players\[0\]\.level"),
    ("level", lambda d: d["players"][1].update(level="wizard"), r"players\[1\]\.level"),
    ("action object", lambda d: d["actions"].__setitem__(0, "fleet 6"), r"actions\[0\]: expected"),
    ("number", lambda d: d["actions"][3].update(number=5), r"actions\[3\]\.number: 5"),
    ("seat", lambda d: d["actions"][3].update(seat=7), r"actions\[3\]\.seat: 7 is not a seat"),
    ("seat type", lambda d: d["actions"][3].update(seat="0"), r"actions\[3\]\.seat: expected"),
    ("action", lambda d: d["actions"][3].update(action=""), r"actions\[3\]\.action: empty"),
    ("missing time", lambda d: d["actions"][3].pop("time"), r"actions\[3\]\.time: missing"),
    ("time", lambda d: d["actions"][3].update(time="noon"), r"actions\[3\]\.time: 'noon' is not"),
    (
        "local time",
        lambda d: d["actions"][3].update(time="2026-11-26T13:00:00+01:00"),
        r"actions\[3\]\.time: .* not in UTC",
    ),
    ("naive time", lambda d: d["actions"][3].update(time="2026-11-26T12:00:00"), "not in UTC"),
    ("scores", lambda d: d["actions"][3].update(scores=[1]), r"actions\[3\]\.scores: expected"),
    ("result type", lambda d: d.update(result=[]), "result: expected an object or null"),
    ("result seats", lambda d: d["result"]["seats"].pop(), "result.seats: 1 results for 2"),
    ("score type", lambda d: d["result"]["seats"][0].update(score="9"), r"seats\[0\]\.score"),
    ("winners", lambda d: d["result"].update(winners=[9]), "result.winners"),
    ("language", lambda d: d.update(language=3), "language: expected a string or null"),
]


@pytest.mark.parametrize(("change", "message"), [w[1:] for w in WRONG], ids=[w[0] for w in WRONG])
def test_a_wrong_document_is_refused_with_the_field_named(change: Any, message: str) -> None:
    """Strict reading: unknown version, missing field, wrong type... each named."""
    data = json.loads(rec.to_json(full_record("yamatai", 2)))
    change(data)
    with pytest.raises(rec.RecordError, match=message):
        rec.from_json(json.dumps(data))


def test_text_that_is_not_a_json_object_is_refused() -> None:
    """Not JSON, or JSON but not an object."""
    with pytest.raises(rec.RecordError, match="not JSON"):
        rec.from_json("{nope")
    with pytest.raises(rec.RecordError, match="a record is a JSON object, not an array"):
        rec.from_json("[]")


# -- replay and check ---------------------------------------------------------------------------


def test_replay_gives_the_game_at_its_setup_and_after_each_action() -> None:
    """Step 0 is the setup; step N is after action N; the last one is the finished game."""
    record = full_record("namiji", 3)
    steps = rec.replay(record)
    match = finished("namiji", 3, 1)
    assert len(steps) == len(record.actions) + 1
    assert steps[0].number == 0 and steps[0].seat is None and steps[0].action == ""
    assert [s.action for s in steps[1:]] == [a for _, a in match.log]
    assert [s.seat for s in steps[1:]] == [s for s, _ in match.log]
    assert steps[-1].view() == match.view(None)
    assert steps[-1].outcome == match.outcome
    middle = steps[len(steps) // 2]
    again = games.replay("namiji", match.players, 1, match.options, match.log[: middle.number])
    assert middle.view() == again.view(None)


@pytest.mark.parametrize(("game", "players"), [("yamatai", 4), ("namiji", 5)])
def test_a_changed_action_fails_naming_its_number_and_text(game: str, players: int) -> None:
    """An action changed to one the game refuses there: the check names that action."""
    record = full_record(game, players)
    steps = rec.replay(record)
    number = len(record.actions) // 2
    legal = steps[number - 1].rules.legal_actions(steps[number - 1].state)
    other = next(e.action for e in record.actions if e.action not in legal)
    changed = edited(record, lambda d: d["actions"][number - 1].update(action=other))
    with pytest.raises(rec.RecordMismatch) as raised:
        rec.check(changed)
    assert raised.value.number == number and raised.value.action == other
    assert str(raised.value).startswith(f"action {number} ({other}): ")


def test_a_changed_action_the_game_accepts_fails_where_record_and_replay_part() -> None:
    """A different legal action: the first disagreement (texts, scores, result) is named."""
    record = full_record("yamatai", 3)
    steps = rec.replay(record)
    number = 2
    legal = steps[number - 1].rules.legal_actions(steps[number - 1].state)
    other = next(a for a in legal if a != record.actions[number - 1].action)
    changed = edited(record, lambda d: d["actions"][number - 1].update(action=other))
    with pytest.raises(rec.RecordMismatch) as raised:
        rec.check(changed)
    assert raised.value.number is None or raised.value.number >= number


def test_a_changed_score_fails_at_its_action() -> None:
    """The public scores after each action are checked too."""
    record = full_record("namiji", 4)
    number = len(record.actions) - 3
    changed = edited(record, lambda d: d["actions"][number - 1]["scores"].__setitem__(0, 99))
    with pytest.raises(rec.RecordMismatch, match="scores after it") as raised:
        rec.check(changed)
    assert raised.value.number == number


def test_an_action_not_in_canonical_notation_fails() -> None:
    """A full record keeps the engine's own texts."""
    record = full_record("yamatai", 2)
    text = record.actions[0].action
    changed = edited(record, lambda d: d["actions"][0].update(action=text.upper()))
    with pytest.raises(rec.RecordMismatch, match="the engine writes it") as raised:
        rec.check(changed)
    assert raised.value.number == 1


def test_several_actions_in_one_entry_fail() -> None:
    """One action per entry: a whole turn written in one is refused at its number."""
    match = finished("yamatai", 2, 1)
    log = played(match, 4)
    both = f"{log[0].action}; {log[1].action}"
    with pytest.raises(rec.RecordMismatch, match="several actions") as raised:
        rec.build("yamatai", None, 1, ["Ann", "Bo"], [rec.Played(0, both, START)], None)
    assert raised.value.number == 1


@pytest.mark.parametrize(("game", "players"), [("yamatai", 2), ("namiji", 3)])
def test_a_truncated_record_fails(game: str, players: int) -> None:
    """Actions cut from the end: the game goes on, but the record gives a result."""
    record = full_record(game, players)
    cut = edited(record, lambda d: d.update(actions=d["actions"][:-1]))
    with pytest.raises(rec.RecordMismatch, match="actions are missing") as raised:
        rec.check(cut)
    assert raised.value.number is None and str(raised.value).startswith("result: ")


def test_an_action_cut_from_the_middle_fails() -> None:
    """An action removed in the middle: the first disagreement at or after its place is named
    (the next action may still be legal and leave the scores alone; docs/records.md)."""
    record = full_record("yamatai", 4)
    number = len(record.actions) // 3

    def cut(data: dict[str, Any]) -> None:
        del data["actions"][number - 1]
        for index, action in enumerate(data["actions"]):
            action["number"] = index + 1

    with pytest.raises(rec.RecordMismatch) as raised:
        rec.check(edited(record, cut))
    assert raised.value.number is not None and raised.value.number >= number


def test_a_changed_result_fails() -> None:
    """The stored result must be the replay's outcome."""
    record = full_record("namiji", 2)
    changed = edited(record, lambda d: d["result"].update(winners=[1 - d["result"]["winners"][0]]))
    with pytest.raises(rec.RecordMismatch, match="result differs") as raised:
        rec.check(changed)
    assert raised.value.number is None


def test_an_action_after_the_end_fails_at_its_number() -> None:
    """A record longer than its game."""
    record = full_record("yamatai", 2)
    extra = {**json.loads(rec.to_json(record))["actions"][-1], "number": len(record.actions) + 1}
    with pytest.raises(rec.RecordMismatch) as raised:
        rec.check(edited(record, lambda d: d["actions"].append(extra)))
    assert raised.value.number == len(record.actions) + 1


def test_a_running_game_checks_without_a_result_and_not_with_one() -> None:
    """Before the end the result is null; a result there is wrong, and a finished game needs
    one unless the bot ended it (``ended``)."""
    running = running_record("namiji", 3, 30)
    assert rec.check(running).over is False
    finals = full_record("namiji", 3).result
    with pytest.raises(rec.RecordMismatch, match="actions are missing"):
        rec.check(edited(running, lambda d: d.update(result=finals)))
    with pytest.raises(rec.RecordMismatch, match="the record has no result"):
        rec.check(edited(full_record("namiji", 3), lambda d: d.update(result=None)))
    abandoned = edited(running, lambda d: d.update(ended="abandoned"))
    assert rec.check(abandoned).replayed and abandoned.ended == "abandoned"


# -- spectator records --------------------------------------------------------------------------


#: Games whose logs reserve a tile that is built face down later (Yamatai) and keep sacred rock
#: cards (Namiji).
SECRET_GAMES = [("yamatai", 2, 1), ("yamatai", 4, 3), ("namiji", 4, 2), ("namiji", 5, 3)]
SECRET_GAMES += [(game, count, 5) for game, count in TABLES]


@pytest.mark.parametrize(("game", "players", "seed"), SECRET_GAMES)
def test_a_spectator_record_shows_no_secret_at_any_step(game: str, players: int, seed: int) -> None:
    """Exported after any action while the game runs, the spectator record has no seed and
    none of the strings ``Rules.secrets(state, None)`` names at that moment: every step's
    texts are checked (``spectator_texts``, what ``build`` writes), and real exports at a
    few of them."""
    match = finished(game, players, seed)
    steps = rec.replay(full_record(game, players, seed))
    rules = steps[0].rules
    # While the game runs (Yamatai's ``secrets`` of a finished game raises IndexError: noticed,
    # left to the engine's owners; after the end the rules reveal the built tiles).
    running = steps[1:-1]
    hidden = 0
    for step in running:
        secret = rules.secrets(step.state, None)
        texts = rec.spectator_texts(steps[: step.number + 1])
        leaked = set().union(*(tokens(t) for t in texts)) & secret
        assert not leaked, f"after action {step.number}: {sorted(leaked)[:5]}"
        hidden += rec.HIDDEN in " ".join(texts)
        if step.number % 50 == 0 or step is running[-1]:
            log = played(match, step.number)
            now = rec.build(game, match.options, seed, match.players, log, None, kind="spectator")
            text = rec.to_json(now)
            assert "seed" not in json.loads(text) and now.seed is None
            assert [e.action for e in now.actions] == texts
            assert not tokens(text) & secret
    if (game, seed) == ("yamatai", 1) or (game, players, seed) == ("yamatai", 4, 3):
        assert hidden, "this game reserves a tile and builds it face down"


def test_a_tile_seen_when_reserved_is_hidden_once_built_face_down() -> None:
    """Yamatai: ``reserve B07`` is public, but once the tile is built face down the spectator
    record exported then writes ``reserve (hidden)``; after the end the texts are whole."""
    full = full_record("yamatai", 2, 1)
    reserve = next(e for e in full.actions if e.action.startswith("reserve "))
    tile = reserve.action.split()[1]
    built = next(e for e in full.actions if e.action.startswith(f"build {tile} "))
    before = rec.spectator_of(running_record("yamatai", 2, built.number - 1, seed=1))
    after = rec.spectator_of(running_record("yamatai", 2, built.number, seed=1))
    assert before.actions[reserve.number - 1].action == reserve.action
    assert after.actions[reserve.number - 1].action == f"reserve {rec.HIDDEN}"
    assert tile not in after.actions[built.number - 1].action
    assert rec.spectator_of(full).actions[reserve.number - 1].action == reserve.action
    assert rec.check(after, full).replayed


def test_the_spectator_record_leaves_out_what_only_its_player_saw() -> None:
    """The texts that differ from the full record are the ones the engine keeps private."""
    full = full_record("yamatai", 4)
    spectator = rec.spectator_of(full)
    differ = [(f.action, s.action) for f, s in zip(full.actions, spectator.actions, strict=True)]
    private = [(f, s) for f, s in differ if f != s]
    assert private, "a Yamatai game has face-down builds"
    assert all(f.split()[0] == s.split()[0] for f, s in private)
    assert all(s.startswith(("build", "arrange")) for _, s in private)
    assert [e.scores for e in full.actions] == [e.scores for e in spectator.actions]


def test_a_spectator_record_is_read_alone_and_cannot_be_replayed() -> None:
    """Alone it is only read (no seed, no replay); a seed in it is refused."""
    spectator = rec.spectator_of(running_record("yamatai", 2, 40))
    assert rec.from_json(rec.to_json(spectator)) == spectator
    assert rec.check(spectator) == rec.Checked("yamatai", 40, rec.SPECTATOR, False, False)
    with pytest.raises(rec.RecordError, match="no seed"):
        rec.replay(spectator)
    with pytest.raises(rec.RecordError, match="seed: a spectator record carries no seed"):
        edited(spectator, lambda d: d.update(seed=1))


def test_a_spectator_record_checks_against_the_full_record() -> None:
    """Exported during the game, compared after the end: a prefix with the same public texts,
    seats, times and scores; a changed text, seat or extra action is named."""
    full = full_record("namiji", 3)
    spectator = rec.spectator_of(running_record("namiji", 3, 50))
    assert rec.check(spectator, full).replayed
    number = 17
    changed = edited(spectator, lambda d: d["actions"][number - 1].update(action="stop"))
    with pytest.raises(rec.RecordMismatch, match="the game's action reads") as raised:
        rec.check(changed, full)
    assert raised.value.number == number
    seat = (spectator.actions[number - 1].seat + 1) % 3
    with pytest.raises(rec.RecordMismatch, match="played by seat"):
        rec.check(edited(spectator, lambda d: d["actions"][number - 1].update(seat=seat)), full)
    with pytest.raises(rec.RecordMismatch, match="played at"):
        late = "2027-01-01T00:00:00Z"
        rec.check(edited(spectator, lambda d: d["actions"][number - 1].update(time=late)), full)
    short = edited(full, lambda d: d.update(actions=d["actions"][:20], result=None))
    with pytest.raises(rec.RecordMismatch, match="only 20 actions") as raised:
        rec.check(spectator, short)
    assert raised.value.number == 21


# -- recap moments ----------------------------------------------------------------------------


def test_recap_moments_are_rounds_for_yamatai_and_turns_for_namiji() -> None:
    """Setup, each round's start (Yamatai) or each turn's end (Namiji, no rounds), the end;
    every moment a spectator view."""
    yamatai = rec.recap_moments(rec.replay(full_record("yamatai", 4)))
    rounds = finished("yamatai", 4, 1).outcome
    assert rounds is not None and rounds.rounds is not None
    assert [(m.kind, m.number) for m in yamatai] == [
        ("start", 0),
        *(("round", n) for n in range(2, rounds.rounds + 1)),
        ("end", 0),
    ]
    namiji = rec.recap_moments(rec.replay(full_record("namiji", 5)))
    turns = [m.number for m in namiji if m.kind == "turn"]
    assert turns == sorted(set(turns)) and len(turns) > 20
    assert namiji[0].kind == "start" and namiji[-1].kind == "end"
    assert all(m.view["viewer"] is None for m in [*yamatai, *namiji])


def test_recap_moments_of_a_running_game_end_with_its_last_step() -> None:
    """A game not over: the last frame is where it stands, not an end; a Yamatai game still
    in its first rounds shows each turn, counted 2, 3, ... (its rounds do not count turns)."""
    moments = rec.recap_moments(rec.replay(running_record("namiji", 2, 33)))
    assert moments[-1].kind == "turn" and moments[-1].view["version"] == 33
    steps = rec.replay(running_record("yamatai", 3, 70))
    ends = [s.number for s in steps if s.milestones.turn_ended]
    moments = rec.recap_moments(steps)
    assert [m.view["version"] for m in moments] == [0, *ends, 70]
    assert [m.number for m in moments[1:-1]] == list(range(2, len(ends) + 2))
    assert {m.kind for m in moments[1:]} == {"turn"}
