"""The unguessable addresses of the web pages: an HMAC of the id with ``WEB_SECRET`` (D72).

Stateless: every process that knows the secret serves every game and league, with nothing
stored; a token is checked in constant time. Changing the secret changes every address.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

TOKEN_BYTES = 16  # 128 bits: not guessable, short enough for a link


def token(secret: str, kind: str, item_id: int) -> str:
    """The token of one page: ``kind`` ("game" or "league") and its id, signed with ``secret``."""
    message = f"{kind}:{item_id}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def valid(secret: str, kind: str, item_id: int, given: str) -> bool:
    """Whether ``given`` is the token of that page (compared in constant time)."""
    return hmac.compare_digest(token(secret, kind, item_id).encode(), given.encode())


def game_path(secret: str, game_id: int) -> str:
    """The path of a game's page, ``/g/<id>/<token>``."""
    return f"/g/{game_id}/{token(secret, 'game', game_id)}"


def league_path(secret: str, league_id: int) -> str:
    """The path of a league's page, ``/l/<id>/<token>``."""
    return f"/l/{league_id}/{token(secret, 'league', league_id)}"


def page_url(base_url: str, secret: str, game_id: int) -> str:
    """The full address of a game's page under ``base_url`` (WEB_BASE_URL, no trailing /)."""
    return base_url.rstrip("/") + game_path(secret, game_id)


def league_url(base_url: str, secret: str, league_id: int) -> str:
    """The full address of a league's page under ``base_url``."""
    return base_url.rstrip("/") + league_path(secret, league_id)
