"""Namiji (Bauza, Funforge): fishing boats sailing one loop of the sea route."""
