"""The frozen protocol (bench/protocol.toml): read it, hash it, expand its grids."""

from __future__ import annotations

import hashlib
import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "bench/protocol.toml"


@dataclass(frozen=True)
class Protocol:
    path: Path
    sha256: str
    data: dict[str, Any]

    @property
    def budget(self) -> int:
        return int(self.data["protocol"]["budget"])

    @property
    def primary(self) -> str:
        return str(self.data["protocol"]["primary"])

    @property
    def selection_start(self) -> int:
        return int(self.data["protocol"]["selection_start"])

    @property
    def inference(self) -> dict[str, Any]:
        return dict(self.data["inference"])

    @property
    def streams(self) -> list[dict[str, Any]]:
        return list(self.data["stream"])

    @property
    def methods(self) -> dict[str, dict[str, Any]]:
        return dict(self.data["methods"])

    def grid(self, method: str) -> list[dict[str, Any]]:
        """Every setting of a method's search space (the full product of its grid)."""
        spec = self.methods[method].get("grid", {})
        keys = list(spec)
        return [dict(zip(keys, vals, strict=True)) for vals in itertools.product(*spec.values())]


def load(path: Path = PROTOCOL) -> Protocol:
    raw = path.read_bytes()
    proto = Protocol(path, hashlib.sha256(raw).hexdigest(), tomllib.loads(raw.decode()))
    for name in proto.methods:
        n = len(proto.grid(name))
        if name != "no-skill" and n != proto.budget:
            raise ValueError(f"{name}: {n} settings, the protocol's budget is {proto.budget}")
    return proto


def label(setting: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in setting.items()) or "-"
