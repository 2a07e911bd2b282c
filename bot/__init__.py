"""Himiko bot: the only async and I/O layer (Discord, storage, rendering glue)."""
