"""How long the simulated players wait between moves, in table time.

At a human pace a bot plays about a second after the card before it, and a
finished trick stays on the table a while longer before anyone leads again;
`fast` is the old speed (no pauses to speak of). `scaled` changes both (the
`+` and `-` keys).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pace:
    """Seconds before a bot moves after a card (`card`) and after the last
    card of a trick (`trick`: the finished trick stays visible)."""

    card: float = 1.0
    trick: float = 2.5

    @classmethod
    def human(cls) -> Pace:
        return cls()

    @classmethod
    def fast(cls) -> Pace:
        return cls(0.05, 0.05)

    def scaled(self, factor: float) -> Pace:
        """Both waits times `factor`, kept between 0.05 s and 10 s."""
        def clamp(x: float) -> float:
            return min(10.0, max(0.05, x * factor))
        return Pace(clamp(self.card), clamp(self.trick))
