"""End-to-end tests: the real bot and discord.py client against the local Discord double."""
