"""deploy/grafana-dashboard.json reads only series the bot exports, by labels they have."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from bot.ops.metrics import Metrics

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json"
SERIES = re.compile(r"\b((?:himiko|process)_[a-z_]+)")
GROUPED = re.compile(r"by \(([^)]*)\)")
SELECTED = re.compile(r"[{,]\s*([a-z_]+)\s*!?=~?")
PROMETHEUS_LABELS = {"job", "instance", "le"}  # added by the scrape, or a histogram's own


def _exported() -> dict[str, set[str]]:
    """Every sample name the bot exports, with its labels (all series filled in once)."""
    metrics = Metrics()
    metrics.interactions.labels("command", "play", "ok").inc()
    metrics.answer_seconds.labels("command", "play").observe(0.1)
    metrics.discord_responses.labels("200").inc()
    metrics.count_games({("yamatai", "active"): 1}, ["yamatai"])
    metrics.watch(
        admission_waiting=lambda: 0,
        admission_running=lambda: 0,
        picture_queue=lambda: 0,
        gateway_latency=lambda: 0.05,
    )
    text = metrics.exposition().decode()
    names: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            names.setdefault(sample.name, set()).update(sample.labels)
    return names


def _expressions() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]


def test_every_panel_reads_exported_series_by_their_labels() -> None:
    exported = _exported()
    expressions = _expressions()
    assert len(expressions) >= 15
    for expr in expressions:
        names = SERIES.findall(expr)
        assert names or expr.startswith("up"), expr
        for name in names:
            assert name in exported, (name, expr)
            used = {
                label.strip()
                for group in [*GROUPED.findall(expr), ",".join(SELECTED.findall(expr))]
                for label in group.split(",")
                if label.strip()
            }
            assert used - PROMETHEUS_LABELS <= exported[name], (name, expr)
