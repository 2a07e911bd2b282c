"""Yamatai (Bruno Cathala & Marc Paquien, Days of Wonder): the complete rules."""
