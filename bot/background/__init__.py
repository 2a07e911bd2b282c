"""The background loops: stand-in turns, deadline reminders, league rounds, and their timer."""
