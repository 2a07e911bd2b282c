"""Namiji's board picture: the route loop, the boats and each player's boat board."""
