"""Board arithmetic: a board's matchpoints, IMPs, Butler and VPs, and an event's rankings from them.

Pure numbers from results: no choice of rule (ddrank.scoring.choice), no producer (each producer's
own arithmetic is its rulebook's, ddrank.scoring.rulebooks), no comparison with what a file
published (ddrank.scoring.verification).
"""
