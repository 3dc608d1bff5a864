"""A random player for Filkó hands: it answers whatever a `HandFlow` waits
for, as a table of careless but honest players would. Used by the simulator
and the tests to play whole hands and matches through the public interface.

With the hands unknown to the flow, the bot still plays honestly from the
dealt hands (`dealt`), so no revoke is ever reported.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.errors import IllegalPlay
from engine.flow import FlowEvent, HandFlow
from engine.games.base import DealtHands, Game, MatchState


def honest_card(game: Game, flow: HandFlow, dealt: DealtHands, rng: random.Random) -> Card:
    """A random legal card for the seat to play, from its dealt cards."""
    deal = flow.deal
    assert deal is not None
    if deal.hands_known:
        return rng.choice(list(deal.legal_cards()))
    played: set[Card] = set(deal.current_trick)
    for t in deal.tricks:
        played.update(t.cards)
    own = [c for c in dealt.hands[deal.turn] if c not in played]
    return rng.choice(game.legal_subset(deal.trump, deal.current_trick, own))


def step(game: Game, flow: HandFlow, dealt: DealtHands, rng: random.Random
         ) -> FlowEvent | None:
    """Answer one pending step. None when the hand is done, or when a call
    had to be taken back (the next step calls again)."""
    pending = flow.pending()
    if pending.kind == "done":
        return None
    if pending.kind == "show":
        assert pending.seat is not None
        return flow.card(pending.seat, dealt.shown[len(flow.shown)])
    if pending.kind == "card":
        seat = dealt.extra["old_man"]
        return flow.card(seat, game.pack.parse(pending.choices[0]))
    if pending.kind == "choose":
        assert pending.seat is not None
        return flow.choose(pending.seat, rng.choice(pending.choices))
    try:
        return flow.card(flow.deal.turn if flow.deal else 0,
                         honest_card(game, flow, dealt, rng))
    except IllegalPlay as refused:
        if refused.reason != "filko5_called_own":
            raise
        # The Old Man called his own card with the hands unknown: take the
        # hand back to the call and call again, as the table would.
        while flow.pending().prompt != "filko5_name_trump":
            flow.undo()
        return None


def play_hand(game: Game, state: MatchState, rng: random.Random, hands_known: bool = True
              ) -> HandFlow:
    """Deal and play one whole hand; returns its finished flow."""
    dealt = game.deal(rng, state.dealer)
    flow = game.hand_flow(state, dealt.hands if hands_known else None)
    while flow.pending().kind != "done":
        step(game, flow, dealt, rng)
    return flow


def play_match(game: Game, rng: random.Random, hands_known: bool = True,
               max_hands: int = 10_000) -> tuple[MatchState, int]:
    """Play hands until the match is over (needs the option `match_length`).
    Returns the final state and the number of hands played."""
    state = game.new_match(rng)
    played = 0
    while not state.over and played < max_hands:
        state = play_hand(game, state, rng, hands_known).settled()
        played += 1
    return state, played
