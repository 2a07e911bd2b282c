"""Pure game rules for Himiko: no I/O, no clock, no global randomness."""
