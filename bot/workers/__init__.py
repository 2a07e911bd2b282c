"""The worker process pools: pictures and searches run out of the event loop."""
