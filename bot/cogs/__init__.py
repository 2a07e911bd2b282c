"""Slash commands, one cog per concern: lobby, play, info."""
