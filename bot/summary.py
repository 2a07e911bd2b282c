"""A turn in words: engine events -> "took fleet 6, bought clay, placed 2 boats, built ..."."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.catalog import Catalog
from bot.names import display_name
from bot.service.results import FinalResult

Event = Mapping[str, Any]

#: Event types that say something on their own (one phrase each, catalog id ``summary.<type>``).
SIMPLE = (
    "buy",
    "sell",
    "reserve",
    "look",
    "arrange",
    "slide",
    "sacred",
    "swap_tokens",
    "swap_boats",
    "raijin",
    "nakatsu",
    "michimata",
    "hetsuka",
    "kachiko",
    "ebisu",
)
#: Event types that never make a phrase of their own.
SILENT = ("turn", "round_start", "place", "end_turn")


class Summary:
    """Formats events with one catalog and locale."""

    def __init__(self, catalog: Catalog, locale: str | None = None) -> None:
        self.catalog = catalog
        self.locale = locale

    def t(self, key: str, **params: Any) -> str:
        """One catalog text in this summary's locale."""
        return self.catalog.text(key, self.locale, **params)

    def _count(self, key: str, count: int, **params: Any) -> str:
        return self.t(f"{key}_{'one' if count == 1 else 'many'}", count=count, **params)

    def _gains(self, coins: int = 0, pp: int = 0) -> str:
        parts = []
        if coins:
            parts.append(self.t("summary.gain_coins", count=f"{coins:+d}"))
        if pp:
            parts.append(self.t("summary.gain_pp", count=f"{pp:+d}"))
        return self.t("summary.gains", gains=", ".join(parts)) if parts else ""

    def _list(self, items: Sequence[str]) -> str:
        return ", ".join(items)

    def phrase(self, event: Event, names: Sequence[str]) -> str | None:
        """The words for one event (None for events summarized elsewhere)."""
        kind = str(event.get("type"))

        def name(seat: Any) -> str:
            return display_name(names[int(seat)]) if 0 <= int(seat) < len(names) else str(seat)

        if kind in SILENT:
            return None
        if kind == "fleet":
            text = self.t("summary.fleet", fleet=event["fleet"])
            missing = list(event.get("missing", []))
            if missing:
                text += self.t("summary.fleet_missing", boats=self._list(missing))
            return text
        if kind == "collect":
            tokens = [str(t["culture"]) for t in event.get("tokens", [])]
            return self.t("summary.collect", tokens=self._list(tokens))
        if kind == "build":
            # The tile lies face down (R34): the thread learns where and what figure, not which.
            figure = self.t(f"summary.figure.{event['figure']}")
            return self.t("summary.build", figure=figure, island=event["island"]) + self._gains(
                int(event.get("coins", 0)), int(event.get("pp_tokens", 0))
            )
        if kind == "recruit":
            return self.t("summary.recruit", specialist=event["specialist"]) + self._gains(
                int(event.get("coins", 0))
            )
        if kind == "remove":
            return self._count("summary.remove", len(event.get("boats", [])))
        if kind == "ananda":
            return self.t("summary.ananda", coins=event["coins"], player=name(event["to"]))
        if kind == "izanami":
            return self.t("summary.izanami", coins=event["coins"], player=name(event["seat"]))
        if kind == "harbor":
            aside = list(event.get("set_aside", []))
            return self._count("summary.set_aside", len(aside)) if aside else None
        if kind == "round_end":
            return None
        if kind == "game_end":
            return None
        if kind in SIMPLE:
            params = {k: _plain(v) for k, v in event.items() if k not in ("type", "seat")}
            return self.t(f"summary.{kind}", **params)
        return self.t("summary.other", action=kind)

    def actions(self, events: Sequence[Event], names: Sequence[str]) -> str:
        """The events of one turn (or part of one) as a comma-separated sentence."""
        parts: list[str] = []
        placed = 0
        for event in events:
            kind = event.get("type")
            if kind == "place":
                placed += 1
                continue
            if placed:
                parts.append(self._count("summary.placed", placed))
                placed = 0
            text = self.phrase(event, names)
            if text:
                parts.append(text)
        if placed:
            parts.append(self._count("summary.placed", placed))
        return ", ".join(parts) if parts else self.t("summary.nothing")

    def turn(self, player: str, events: Sequence[Event], names: Sequence[str]) -> str:
        """``**Ann** took fleet 6, ...`` plus the end of the round or game when it came."""
        lines = [
            self.t("summary.turn", player=display_name(player), actions=self.actions(events, names))
        ]
        for event in events:
            if event.get("type") == "round_end":
                lines.append(self.t("summary.round_end", round=event["round"]))
            elif event.get("type") == "game_end":
                reasons = [self.t(f"end_reason.{r}") for r in event.get("reasons", [])]
                lines.append(self.t("summary.game_end", reasons=self._list(reasons)))
        return "\n".join(lines)

    def final(self, final: FinalResult) -> list[str]:
        """One line per seat (rank, name, total, scoring lines), then how a tie was broken."""
        lines = []
        for score in final.scores:
            detail = ", ".join(
                self.t(f"score.{line}", count=value) for line, value in score.lines.items() if value
            )
            lines.append(
                self.t(
                    "summary.score",
                    rank=score.rank,
                    player=display_name(score.name),
                    total=score.total,
                    detail=detail or self.t("score.none"),
                )
            )
        if final.tie_broken:
            lines.append(self.t("score.tie_break", player=display_name(final.winner.name)))
        return lines


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return ", ".join(_plain(v) if not isinstance(v, dict) else str(v) for v in value)
    return value
