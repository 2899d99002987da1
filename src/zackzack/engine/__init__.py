"""The engine: live tables, the clock, fair races, match logs and their replay."""
