"""Double-dummy par of a deal: the contract(s) and score both sides reach when both bid perfectly.

Par is computed by DDS (`DealerParBin`, through endplay) from a DD table that is already known, so
it costs no second solve. It depends on who deals and who is vulnerable, not on the cards alone,
which is why the store keys it by (deal, dealer, vulnerability) and not by the deal.

Convention: DDS's dealer par. When both sides can make the same par score, the side that speaks
first (counting from the dealer) gets it; a sacrifice is doubled and shown with its undertricks
(`NS 4SX-1`). Scores are from North-South's side (`+620`, `-100`), as `[OptimumScore "NS ..."]`.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from types import ModuleType

from ddrank.dd.tables import TrickTable
from ddrank.types import DomainError, Seat

_PAR_DENOM_LETTER = "NSHDC"  # DDS contractType numbers NT=0, S=1, H=2, D=3, C=4
_SEATS_TEXT = {0: "N", 1: "E", 2: "S", 3: "W", 4: "NS", 5: "EW"}


@dataclass(frozen=True, slots=True)
class Par:
    """Par score (North-South's side) and every par contract, e.g. `('NS 4S+1', 'EW 5DX-2')`."""

    ns_score: int
    contracts: tuple[str, ...]

    @property
    def contract_text(self) -> str:
        """Contracts as BridgeComposer writes `[ParContract]`: `EW 6H=; EW 6S=`; 'Pass' if none."""
        return "; ".join(self.contracts) if self.contracts else "Pass"

    @property
    def score_text(self) -> str:
        """`NS 620` / `EW 980` as the side that scores it would say (`NS 0` when passed out)."""
        if self.ns_score < 0:
            return f"EW {-self.ns_score}"
        return f"NS {self.ns_score}"


def vulnerability_code(ns_vulnerable: bool, ew_vulnerable: bool) -> int:
    """endplay's Vul numbering: 0 none, 1 both, 2 NS, 3 EW."""
    if ns_vulnerable and ew_vulnerable:
        return 1
    if ns_vulnerable:
        return 2
    if ew_vulnerable:
        return 3
    return 0


def _contract_text(level: int, denom: int, seats: int, under: int, over: int) -> str:
    strain = _PAR_DENOM_LETTER[denom]
    side = _SEATS_TEXT[seats]
    if under > 0:  # DDS's par sacrifices are always doubled
        return f"{side} {level}{strain}X-{under}"
    return f"{side} {level}{strain}" + (f"+{over}" if over else "=")


def par_from_table(
    table: TrickTable, dealer: Seat, ns_vulnerable: bool, ew_vulnerable: bool
) -> Par:
    """Dealer par of a deal whose DD table is `table` (no DD solve happens here)."""
    _dds = dds_bindings()

    res = _dds.ddTableResults()
    for dds_denom, row in enumerate(table.to_dds_rows()):
        for seat, tricks in enumerate(row):
            res.resTable[dds_denom][seat] = tricks
    out = _dds.parResultsMaster()
    status = _dds.DealerParBin(
        res, out, int(dealer), vulnerability_code(ns_vulnerable, ew_vulnerable)
    )
    if isinstance(status, int) and status < 0:
        raise DomainError(f"DDS could not compute par (error {status})")
    contracts = []
    for k in range(out.number):
        c = out.contracts[k]
        contracts.append(_contract_text(c.level, c.denom, c.seats, c.underTricks, c.overTricks))
    return Par(int(out.score), tuple(contracts))


def dds_bindings() -> ModuleType:
    """endplay's ctypes bindings of DDS (`endplay._dds`) without the rest of endplay.

    `import endplay._dds` runs endplay's package `__init__`, which imports its dealer scripts and
    so matplotlib: about 4 s on a loaded 2-core machine, for a par that takes microseconds. The
    bindings module is self-contained (ctypes and the bundled libdds), so it is loaded by itself,
    under its own name: a later `import endplay` finds it and uses the same module."""
    loaded = sys.modules.get("endplay._dds")
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("endplay")  # a top-level spec imports nothing
    if package is None or not package.submodule_search_locations:
        raise DomainError("endplay is not installed: no DDS for par")
    folder = f"{list(package.submodule_search_locations)[0]}/_dds"
    spec = importlib.util.spec_from_file_location(
        "endplay._dds", f"{folder}/__init__.py", submodule_search_locations=[folder]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["endplay._dds"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["endplay._dds"]
        raise
    return module


def parse_optimum_score(text: str) -> int:
    """North-South's par score from a PBN `[OptimumScore]` value: `NS +620`, `NS -400`, `EW 980`."""
    parts = text.replace("+", " ").split()
    if len(parts) != 2 or parts[0].upper() not in ("NS", "EW"):
        raise DomainError(f"not an OptimumScore value: {text!r}")
    try:
        value = int(parts[1])
    except ValueError as exc:
        raise DomainError(f"not an OptimumScore value: {text!r}") from exc
    return value if parts[0].upper() == "NS" else -value


__all__ = ["Par", "par_from_table", "parse_optimum_score", "vulnerability_code"]
