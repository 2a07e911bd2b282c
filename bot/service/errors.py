"""Errors the game service raises: a catalog id, its parameters and the legal alternatives."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from bot.games import presentation
from bot.store import GameNotActive, GameNotFound, NothingToUndo, StaleVersion
from engine.errors import EngineError, IllegalAction, InvalidNotation, echo
from engine.games import Match

from .suggest import close_matches

#: Notation errors whose English detail lists the whole grammar: never shown to a player.
GRAMMAR_REASONS = frozenset({"unknown_action", "bad_notation", "empty"})
#: Engine errors that already say everything (which part, why) and have nothing legal to add.
SELF_EXPLAINED = frozenset({"reveal_alone", "sequence_past_turn", "too_long"})
#: The longest run of actions a refusal repeats (what to play before or after another).
SHOWN_ACTIONS = 300
#: Commands of their own a player may type as an action (``/play action: undo``): pointed to.
COMMAND_WORDS = frozenset({"undo", "turn", "board", "log", "resign", "back", "help", "rules"})
#: The refusal parameter that names the refused action itself ("'fish os' is not what comes
#: now"): such a refusal is framed without naming the action a second time.
NAMES_THE_ACTION = "played"


class ServiceError(Exception):
    """A request the service refuses; ``key`` is a catalog id, ``params`` fill its text.

    ``legal`` lists what is legal instead, as of the sequence's part ``legal_after`` (0: now);
    ``fallback`` is the catalog id to use when ``key`` has no text; ``refusal`` is the engine's
    refusal whose own catalog text, when it has one, replaces the English ``message`` parameter.
    ``game``, ``view`` and ``step`` (the step's catalog key), when known, are the game and the
    player's view at the refused part, so the reply says it and what is legal in words.
    """

    def __init__(
        self,
        key: str,
        *,
        legal: Sequence[str] = (),
        legal_after: int = 0,
        fallback: str | None = None,
        refusal: EngineError | None = None,
        **params: Any,
    ) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.legal = list(legal)
        self.legal_after = legal_after
        self.fallback = fallback
        self.refusal = refusal
        # Set by the service that knows the game (never keywords: ``game`` is also a text's
        # parameter, e.g. ``error.seats``'s "{game} is played with…").
        self.game: str | None = None
        self.view: Mapping[str, Any] | None = None
        self.step: str | None = None
        #: The legal actions a "did you mean" offers (notation), said in words where known.
        self.suggested: list[str] = []


class EngineRejected(ServiceError):
    """The engine refused an action; the message and legal alternatives come from it.

    The text is ``error.engine.<code>.<reason>`` where the catalog has one (so a reason says
    what was wrong once, in the player's language), else ``error.engine.<code>`` with the
    engine's detail.
    """

    def __init__(self, error: EngineError, legal_now: Sequence[str] | None = None) -> None:
        super().__init__(
            f"error.engine.{error.code}.{error.reason}",
            fallback=f"error.engine.{error.code}",
            legal=error.legal if legal_now is None else legal_now,
            refusal=error,
            message=error.detail,
            reason=error.reason,
        )
        self.error = error


def rejected(error: EngineError, match: Match, seat: int, parts: Sequence[str]) -> ServiceError:
    """The refusal of ``parts`` (one action or a ``;`` sequence) that the engine raised.

    A sequence is replayed on copies part by part to find the one that fails: the reply names
    it and lists what is legal at that point. A typo gets the closest legal actions ("did you
    mean"), never the whole grammar.
    """
    if error.reason == "reveal_alone" and len(parts) > 1:
        return reveal_alone(parts, error)
    if error.reason == "sequence_past_turn":
        return _past_turn(error, match, seat, parts)
    if not isinstance(error, InvalidNotation | IllegalAction) or error.reason in SELF_EXPLAINED:
        return EngineRejected(error)
    number, legal = 1, match.legal_actions()
    if len(parts) > 1:
        found = _failing_part(match, seat, parts)
        if found is None:
            return EngineRejected(error, legal if isinstance(error, InvalidNotation) else None)
        number, legal, error = found
    part = parts[number - 1]
    where = f"Action {number} ({echo(part)}): "
    detail = error.detail.removeprefix(where)
    params: dict[str, Any] = {"part": part[:60].replace("`", "'")}
    if len(parts) > 1:
        params.update(number=number, count=len(parts))
    refused = _refused_part(error, part, number, legal, detail, params, len(parts))
    return _placed(refused, match, seat, parts[: number - 1])


def _refused_part(
    error: EngineError,
    part: str,
    number: int,
    legal: list[str],
    detail: str,
    params: dict[str, Any],
    count: int,
) -> ServiceError:
    """The refusal of the sequence's part ``number`` (of ``count``), by what went wrong."""
    kind = "sequence" if count > 1 else "single"
    if isinstance(error, IllegalAction):
        said = "refused" if NAMES_THE_ACTION in error.data else "illegal"
        return ServiceError(
            f"error.{kind}.{said}",
            legal=error.legal,
            legal_after=number - 1,
            refusal=error,
            message=detail,
            **params,
        )
    word = part.strip().lstrip("/").lower()
    if word in COMMAND_WORDS and isinstance(error, InvalidNotation):
        return ServiceError(f"error.{kind}.a_command", command=word, **params)
    starting = _started(legal, part) if isinstance(error, InvalidNotation) else []
    if starting:
        key = f"error.{kind}.needs_more"
        return ServiceError(key, legal=starting, legal_after=number - 1, **params)
    close = close_matches(legal, part)
    if close:
        shown = ", ".join(f"`{a}`" for a in close)
        meant = ServiceError(f"error.{kind}.did_you_mean", suggestions=shown, **params)
        meant.suggested = close
        return meant
    if error.reason in GRAMMAR_REASONS:
        key = f"error.{kind}.unreadable"
        return ServiceError(key, legal=legal, legal_after=number - 1, **params)
    return ServiceError(
        f"error.{kind}.invalid",
        legal=legal,
        legal_after=number - 1,
        refusal=error,
        message=detail,
        **params,
    )


def _started(legal: Sequence[str], typed: str) -> list[str]:
    """The legal actions that a verb typed alone begins (``net`` of ``net N:bt r1c2 h``):
    the verb is a real action that needs more, not an unknown word."""
    words = typed.split()
    if len(words) != 1:
        return []
    verb = words[0].lower()
    return [a for a in legal if len(a.split()) > 1 and a.split()[0].lower() == verb]


def _placed(refused: ServiceError, match: Match, seat: int, before: Sequence[str]) -> ServiceError:
    """The refusal told where its part would have been played: the game, the player's view
    and the step's catalog key, now or after the sequence's ``before`` (played on a copy; they
    passed its preview, so none of them turns anything over)."""
    at = match
    if before:
        at = Match(
            match.rules,
            match.players,
            match.seed,
            match.options,
            match.rules.clone(match.state),
            list(match.log),
        )
        at.play("; ".join(before), seat=seat)
    step = at.turn_info.step
    shows = presentation(at.game_key).step_key
    refused.game = at.game_key
    refused.view = at.view(seat)
    refused.step = shows(at.view(None), step) if step else None
    return refused


def _past_turn(error: EngineError, match: Match, seat: int, parts: Sequence[str]) -> ServiceError:
    """A sequence that goes on after the action that ends the turn: nothing was played, which
    of its actions comes too late (in words, where its game says them), and that each turn
    is played on its own. It is the player's turn: the engine's NotYourTurn is not said."""
    number = error.data.get("number")
    at = number if isinstance(number, int) and 1 < number <= len(parts) else len(parts)
    part = parts[at - 1][:60].replace("`", "'")
    refused = ServiceError("error.sequence.past_turn", number=at, count=len(parts), part=part)
    return _placed(refused, match, seat, parts[: at - 1])


def reveal_alone(parts: Sequence[str], error: EngineError) -> ServiceError:
    """A sequence with an action that turns over hidden things: what to play first, that
    action alone, then the rest (the action is allowed, only not in a sequence)."""
    number = error.data.get("action", 1)
    at = number - 1 if isinstance(number, int) and 0 < number <= len(parts) else 0

    def shown(actions: Sequence[str]) -> str:
        said = "; ".join(actions).replace("`", "'")
        return said if len(said) <= SHOWN_ACTIONS else said[: SHOWN_ACTIONS - 1] + "…"

    before, rest = parts[:at], parts[at + 1 :]
    where = "first" if not before else "later" if rest else "last"
    return ServiceError(
        f"error.sequence.reveal_{where}",
        part=shown([parts[at]]),
        before=shown(before),
        rest=shown(rest),
    )


def _failing_part(
    match: Match, seat: int, parts: Sequence[str]
) -> tuple[int, list[str], EngineError] | None:
    """(number, legal before it, its error) of the first part that fails, on copies only.

    None when no prefix fails on its own (the whole only fails as one, e.g. an action that
    reveals hidden tiles can be previewed nowhere).
    """
    legal = match.legal_actions()
    for number in range(1, len(parts) + 1):
        try:
            preview = match.preview("; ".join(parts[:number]), seat=seat)
        except (InvalidNotation, IllegalAction) as error:
            if error.reason in SELF_EXPLAINED:
                return None
            return number, legal, error
        except EngineError:
            return None
        legal = preview.legal_next
    return None


@contextmanager
def store_refusals(stale: str = "error.already_played") -> Iterator[None]:
    """Turn the store's refusals of a change into ServiceErrors (``stale``: the version key)."""
    try:
        yield
    except StaleVersion:
        raise ServiceError(stale) from None
    except GameNotActive:
        raise ServiceError("error.game_over") from None
    except GameNotFound:
        raise ServiceError("error.no_game") from None
    except NothingToUndo:
        raise ServiceError("error.nothing_to_undo") from None
