"""The read-only web view of games and leagues (docs/web.md): ``WebServer`` and the links."""

from .config import WebConfig, WebSettingsError, web_config
from .links import league_url, page_url

__all__ = ["WebConfig", "WebSettingsError", "league_url", "page_url", "web_config"]
