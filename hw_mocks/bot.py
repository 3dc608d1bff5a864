"""A generic player for any game at a fake table.

The bot deals a hand with the engine (`Game.deal`), so it knows every card's
true place, and follows the hand with its own `HandFlow` (hands known) to
choose what to do: show the cards that fix trumps, play a random legal card,
take the first choice, tap the first card a `card` step accepts. It knows
nothing of any particular game and nothing of the controller: it only says
which card goes on which reader, or which button to press.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import EngineError
from engine.flow import HandFlow
from engine.games.base import DealtHands, Game, MatchState
from table.ports import DEALER

UidOf = Callable[[Card, int], str]


@dataclass(frozen=True)
class Move:
    """A tap (`place`, `uid`, the card, the seat it is for) or a button press."""

    kind: str                 # "tap" or "press"
    place: int = 0
    uid: str = ""
    card: Card | None = None
    seat: int | None = None
    button: str = ""


class Bot:
    """Plays hands of `game`; `uid_of(card, copy)` names each card's sticker."""

    def __init__(self, game: Game, rng: random.Random, uid_of: UidOf,
                 dealer_reader: bool = True) -> None:
        self.game = game
        self.rng = rng
        self.uid_of = uid_of
        self.dealer_reader = dealer_reader
        self.dealt: DealtHands | None = None
        self.shadow: HandFlow | None = None
        self._uids: dict[tuple[int, Card], list[str]] = {}

    def new_hand(self, state: MatchState) -> DealtHands:
        """Shuffle and deal the next hand (the physical cards on the table)."""
        self.dealt = self.game.deal(self.rng, state.dealer)
        self.shadow = self.game.hand_flow(state, self.dealt.hands)
        self._uids = {}
        copies: dict[Card, int] = {}
        for seat, hand in enumerate(self.dealt.hands):
            for c in hand:
                copies[c] = copies.get(c, 0) + 1
                self._uids.setdefault((seat, c), []).append(self.uid_of(c, copies[c]))
        return self.dealt

    def uid(self, seat: int, c: Card) -> str:
        return self._uids[(seat, c)][0]

    # ----- learning the hands ---------------------------------------------------------

    def scan_moves(self) -> list[Move]:
        """Every seat taps its cards on its own reader."""
        assert self.dealt is not None
        out = []
        for seat, hand in enumerate(self.dealt.hands):
            for c in hand:
                out.append(Move("tap", seat, self.uid(seat, c), c, seat))
        return out

    def deal_moves(self) -> list[Move]:
        """The dealer passes every card over the dealer's reader in dealing order;
        afterwards the shadow knows what the table knows."""
        assert self.dealt is not None and self.shadow is not None
        place = DEALER if self.dealer_reader else self.dealt.dealer
        given = [0] * self.game.players
        out = []
        seq = []
        for seat in self.shadow.deal_order():
            c = self.dealt.hands[seat][given[seat]]
            given[seat] += 1
            seq.append((seat, c))
            out.append(Move("tap", place, self.uid(seat, c), c, seat))
        self.shadow.after_deal(seq)
        return out

    # ----- the hand ---------------------------------------------------------------------

    def next_move(self) -> Move | None:
        """The next thing to do in the hand (None when it is over). The move is
        applied to the bot's own flow at once: make it at the table."""
        flow = self.shadow
        assert flow is not None and self.dealt is not None
        step = flow.pending()
        if step.kind == "done":
            return None
        if step.kind == "choose":
            assert step.seat is not None
            flow.choose(step.seat, step.choices[0])
            return Move("press", seat=step.seat, button="ok")
        seat = step.seat
        assert seat is not None
        for c in self._candidates(step.kind, seat):
            try:
                flow.card(seat, c)
            except EngineError:
                continue
            place = seat
            if step.kind in ("show", "card") and self.dealer_reader:
                place = DEALER
            holder = self._holder(c, seat)
            uid = self.uid(holder, c)
            if step.kind == "play" and len(self._uids[(holder, c)]) > 1:
                self._uids[(holder, c)].pop(0)   # the other copy is still in the hand
            return Move("tap", place, uid, c, seat)
        raise RuntimeError(f"the bot found no card for {step}")

    def _holder(self, c: Card, seat: int) -> int:
        if (seat, c) in self._uids:
            return seat
        assert self.dealt is not None
        return next(s for s, h in enumerate(self.dealt.hands) if c in h)

    def _candidates(self, kind: str, seat: int) -> list[Card]:
        flow = self.shadow
        assert flow is not None and self.dealt is not None
        if kind == "play" and flow.deal is not None:
            legal = list(flow.deal.legal_cards(seat))
            self.rng.shuffle(legal)
            return legal
        if kind == "show":
            shown = [c for c in self.dealt.shown if c not in flow.shown]
            rest = [c for h in self.dealt.hands for c in h if c not in shown]
            return shown + rest
        if flow.deal is not None and flow.deal.hands is not None:
            return list(flow.deal.hand_of(seat))
        return list(self.dealt.hands[seat])
