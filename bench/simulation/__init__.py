"""The non-circular player simulation of `bench/simulate_players.py` (issue 21, part 6).

* `play`: a single-dummy card player whose careless errors depend on how hard the position is
  single-dummy and on the player's card-play skill;
* `bidding`: the contract a pair reaches, from a single-dummy point count whose noise shrinks
  with the pair's bidding skill;
* `generate`: seating, rounds, PBN output and the calibration of true skill in IMPs;
* `measure`: the boards through ddrank's pipeline, and Spearman of each rating with the truth.

Nothing in `play`, `bidding` or `generate` imports or calls a double-dummy solver.
"""
