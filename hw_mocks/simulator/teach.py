"""What the simulator tells a person about seats and legal cards, in one place.

The seat numbers people say (1…n) come from the engine's one helper
(`engine.messages.seat_label`); the cards a seat may play now from the
engine's legal rules for the player's own cards (`engine.bots.legal_from`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import messages
from engine.bots import legal_from
from engine.cards import Card
from engine.flow import HandFlow


def seat_label(seat: int, lang: str = "en") -> str:
    """A seat as players say it: `Seat 1` for seat 0 (files and the protocol
    count from 0, people from 1)."""
    return messages.seat_label(seat, lang)


def legal_cards(flow: HandFlow | None, seat: int, hand: Sequence[Card]) -> list[Card]:
    """The cards of `hand` that `seat` may play now (empty outside play or
    when it is not that seat's turn to play)."""
    if flow is None or flow.deal is None:
        return []
    step = flow.pending()
    if step.kind != "play" or step.seat != seat:
        return []
    return [c for c in legal_from(flow.deal, seat, hand) if c in hand]
