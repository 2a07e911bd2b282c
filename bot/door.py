"""After a saved change: post what the game owes its thread and wake its computer players."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from bot.context import Himiko
from bot.service import PlayResult
from bot.threads import NotRecorded

log = logging.getLogger(__name__)


async def owed(bot: Himiko, game_id: int, post: Awaitable[object], *, kick: bool = False) -> bool:
    """Post a message the game owes; on failure leave it to the runner. False if unposted.

    Never raises: the change behind the message is saved, so a failure here must not reach the
    player as "nothing was changed". A post that went through but was not recorded counts as
    posted (the runner records it later). ``kick``: start the runner anyway (computers next).
    """
    posted, done = True, True
    try:
        await post
    except NotRecorded:
        log.warning("game %s: posted, but not recorded yet", game_id, exc_info=True)
        done = False
    except Exception:
        log.warning("game %s: could not post in its thread; retrying later", game_id, exc_info=True)
        posted = done = False
    if kick or not done:
        bot.runner.kick(game_id)
    return posted


async def announce(bot: Himiko, result: PlayResult) -> bool:
    """After a saved play: post the completed turn and wake computer players; False if unposted.

    A message that could not be posted stays in the outbox; the runner retries it.
    """
    if result.turn is None:
        if result.computers_next:
            bot.runner.kick(result.game_id)
        return True
    deliver = bot.outbox.deliver(result.turn)
    return await owed(bot, result.game_id, deliver, kick=result.computers_next)
