"""Scoring an event as its scorer did: `score.score(source, settings) -> ScoredEvent`, once.

Rooms, each importing only those below it: `choice/` (method, top, IMP rule, VP scale), the
event engine (`events.py`), `verification/` (published values against ours), `intake/` (rows to
results), `arithmetic/` (board arithmetic) beside `rulebooks/` (one file per producer), and the
one model (`model.py`).
"""
