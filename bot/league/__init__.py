"""League logic without I/O: table sizes, seating (Swiss-like or in divisions), standings."""
