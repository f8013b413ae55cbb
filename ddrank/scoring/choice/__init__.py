"""Choice: which method, top, IMP rule and VP scale an event is scored with, as its scorer did.

What the file declares comes first (its producer's rulebook, its federation, its `[Scoring]`),
then what its published numbers confirm: each candidate is scored (ddrank.scoring.arithmetic) and
compared (ddrank.scoring.verification), and the one that reproduces the most is kept.
"""
