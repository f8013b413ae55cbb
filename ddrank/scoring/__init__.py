"""Duplicate scoring, IMPs, matchpoints and tournament comparisons: every scoring rule, once."""
