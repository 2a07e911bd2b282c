"""Game records: a game as a versioned JSON document that replays (docs/records.md).

Pure like the rest of the engine: build a record from a game's setup and log, write and read
its JSON strictly, replay it through the registry, check that it replays to what it says, and
pick the moments of a recap. ``python -m engine.record`` (``__main__``) is the only part that
reads files or draws pictures.
"""

from engine.record.document import (
    FORMAT,
    FULL,
    KINDS,
    MAX_BYTES,
    SPECTATOR,
    VERSION,
    Entry,
    Player,
    Record,
    RecordError,
    from_bytes,
    from_dict,
    from_json,
    result_of,
    to_dict,
    to_json,
    utc_text,
)
from engine.record.playback import (
    HIDDEN,
    ROUNDS_FOR_FRAMES,
    Checked,
    Moment,
    Played,
    RecordMismatch,
    Step,
    build,
    check,
    checked_replay,
    public_scores,
    recap_moments,
    replay,
    spectator_of,
    spectator_texts,
)

__all__ = [
    "FORMAT",
    "FULL",
    "HIDDEN",
    "KINDS",
    "MAX_BYTES",
    "ROUNDS_FOR_FRAMES",
    "SPECTATOR",
    "VERSION",
    "Checked",
    "Entry",
    "Moment",
    "Played",
    "Player",
    "Record",
    "RecordError",
    "RecordMismatch",
    "Step",
    "build",
    "check",
    "checked_replay",
    "from_bytes",
    "from_dict",
    "from_json",
    "public_scores",
    "recap_moments",
    "replay",
    "result_of",
    "spectator_of",
    "spectator_texts",
    "to_dict",
    "to_json",
    "utc_text",
]
