"""A check: how many of our values agree with one kind of published value, and which do not."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Check:
    """How many of our values agree with one kind of published value, and the ones that do not."""

    what: str
    compared: int = 0
    agree: int = 0
    disagree: list[str] = field(default_factory=list)
    #: published values ours differ from where the file's own numbers disagree with each other
    #: (its own sum is not its own total): each says which numbers, in words
    explained: list[str] = field(default_factory=list)

    def add(self, ok: bool, detail: str, proof: str = "") -> None:
        """One value compared; a miss with a `proof` from the file's own numbers is explained."""
        self.compared += 1
        if ok:
            self.agree += 1
        elif proof:
            self.explained.append(f"{detail} ({proof})")
        else:
            self.disagree.append(detail)
