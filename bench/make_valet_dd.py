"""Compute, once, the double-dummy facts the prediction benchmark needs for a Valet directory.

For Bermuda Bowl 2013 (`data/valet/2013-world-men`) this writes two small committed files beside
`scores.txt`, so `bench/predict.py` never calls the solver:

* `dd_tables.csv`: round, board, and the deal's 20-cell DD table (ddrank order C,D,H,S,N x N,E,S,W);
* `dd_leads.csv`: for every distinct (round, board, strain, leader, lead) the DD tricks of the
  declaring side before and after the opening lead (endplay `analyse_all_plays` on a one-card
  play), so the lead's DD cost is `after - before`. The leader is the seat holding the led card:
  where the partner of the expected leader holds it, the declarer on record was the real
  declarer's partner (about 9% of BB2013's lines), and the leader is corrected.

A lead card the leader does not hold is reported (file and line) and left out, never sent to DDS
(an illegal card makes DDS crash). Re-running gives the same files.

    PYTHONPATH=$PWD python bench/make_valet_dd.py data/valet/2013-world-men
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from ddrank.dd.solver import MAX_TABLE_BATCH, TraceRequest, solve_tables, solve_traces
from ddrank.types import Card, DomainError, Seat, Strain
from ddrank.valet import parse_hands, parse_scores, round_of_hands_file


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("valet_dir", type=Path)
    ap.add_argument("--keep-tables", action="store_true", help="reuse an existing dd_tables.csv")
    args = ap.parse_args(argv)
    d: Path = args.valet_dir
    hands = {}
    for f in sorted((d / "hands").glob("*.pbn")):
        rnd = round_of_hands_file(f.name)
        if rnd is None:
            continue
        found, errors = parse_hands(f.read_text(), rnd, str(f))
        for e in errors:
            print(f"warning: {e}", file=sys.stderr)
        hands.update({(h.round, h.board): h for h in found})
    if not hands:
        print(f"error: {d}/hands has no roundN.pbn deals", file=sys.stderr)
        return 2
    keys = sorted(hands)
    if args.keep_tables and (d / "dd_tables.csv").is_file():
        print("dd_tables.csv kept")
    else:
        t0 = time.perf_counter()
        tables = solve_tables([hands[k].deal.to_pbn() for k in keys], batch=MAX_TABLE_BATCH)
        with (d / "dd_tables.csv").open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["round", "board", "cells"])
            for k, t in zip(keys, tables, strict=True):
                w.writerow([k[0], k[1], " ".join(map(str, t.cells))])
        print(f"{len(keys)} DD tables in {time.perf_counter() - t0:.1f} s")

    scores, errors = parse_scores((d / "scores.txt").read_text(), str(d / "scores.txt"))
    for e in errors:
        print(f"warning: {e}", file=sys.stderr)
    wanted: dict[tuple[int, int, int, int, str], TraceRequest] = {}
    bad = swapped = 0
    for s in scores:
        h = hands.get((s.round, s.board))
        if h is None or s.lead is None or s.contract.upper().startswith("P"):
            continue
        try:
            declarer = Seat.parse(s.declarer)
            strain = Strain.parse(s.contract.upper().rstrip("X")[1:])
            card = Card.parse(s.lead)
        except (DomainError, ValueError) as exc:
            print(f"warning: {s.source}:{s.line}: lead not usable: {exc}", file=sys.stderr)
            bad += 1
            continue
        leader = declarer.lho
        if card in h.deal[leader.partner].cards:
            # The declarer's partner is on record as declarer (about 9% of BB2013's lines):
            # the card that was led says who declared.
            leader = leader.partner
            swapped += 1
        if card not in h.deal[leader].cards:
            print(
                f"warning: {s.source}:{s.line}: lead {s.lead} not held by {leader.letter}",
                file=sys.stderr,
            )
            bad += 1
            continue
        key = (s.round, s.board, int(strain), int(leader), str(card))
        if key not in wanted:
            wanted[key] = TraceRequest(
                "|".join(map(str, key)), h.deal.to_pbn(), strain, leader, (str(card),)
            )
    t0 = time.perf_counter()
    reqs = [wanted[k] for k in sorted(wanted)]
    traces = solve_traces(reqs)
    with (d / "dd_leads.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["round", "board", "strain", "leader", "lead", "dd_before", "dd_after"])
        for k, tr in zip(sorted(wanted), traces, strict=True):
            w.writerow([k[0], k[1], Strain(k[2]).letter, Seat(k[3]).letter, k[4], tr[0], tr[1]])
    print(
        f"{len(reqs)} distinct leads traced in {time.perf_counter() - t0:.1f} s; "
        f"{swapped} leads came from the recorded declarer's partner's side; {bad} unusable"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
