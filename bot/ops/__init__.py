"""The operations kit: health and metrics, JSON logs, error reports, systemd's watchdog.

One job per module: ``config`` (the settings), ``metrics`` (the registry), ``answers`` and
``parts`` (what feeds it), ``probes`` and ``health`` (``/healthz``, ``/readyz``, ``/metrics``),
``logs``, ``errors`` (Sentry), ``watchdog``; ``bot/app.py`` wires them when their settings
are set (docs/operations.md).
"""
