"""The thread's way out: what a game posts in its thread, in order and exactly once."""
