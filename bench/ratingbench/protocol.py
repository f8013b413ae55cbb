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


def with_variants(proto: Protocol, path: Path) -> tuple[Protocol, str]:
    """The protocol with the registered variants of `path` (bench/variants.toml) added to its
    methods, for the development periods only; the variants file's SHA-256 with it. A variant
    may re-register a method of the protocol only with the same grid."""
    raw = path.read_bytes()
    extra = tomllib.loads(raw.decode())["methods"]
    methods = dict(proto.methods)
    for name, spec in extra.items():
        if name in methods and methods[name].get("grid") != spec.get("grid"):
            raise ValueError(f"{name}: the variants file changes the protocol's grid")
        methods.setdefault(name, spec)
    merged = Protocol(proto.path, proto.sha256, {**proto.data, "methods": methods})
    for name in extra:
        n = len(merged.grid(name))
        if n != merged.budget:
            raise ValueError(f"{name}: {n} settings, the protocol's budget is {merged.budget}")
    return merged, hashlib.sha256(raw).hexdigest()


def label(setting: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in setting.items()) or "-"
