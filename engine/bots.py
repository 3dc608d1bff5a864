"""Computer players for any game, through `HandFlow`.

One family, found by name (`make_bot`, `BOTS`):

* `random` (`RandomBot`): a uniformly random legal card, a random choice.
* `simple` (`SimpleBot`): keeps its Aces and Tens (the point cards) safe and
  plays to its partner: when the partner is winning the trick it gives points
  or throws its cheapest card; when an opponent is winning it wins as cheaply
  as it can, or else throws its cheapest card; it leads a low card of a long
  plain suit.
* `table` (`TableBot`): the fake table's player (`hw_mocks.bot` is its
  adapter to physical cards): a random legal card, the first choice offered.
* `sampled`, `sampled-<level>` (`engine.analysis.bot.SampledBot`): the card
  the sampled analysis prefers. The analysis builds on this module, so it is
  named here and imported only when asked for (`BOT_MODULES`).

A bot only looks at its own hand and at what the table has seen. With hands
unknown to the table, the simulator passes each bot its own cards.

`bot_action` is what a bot at a seat does for any step of a `HandFlow` (the
simulator's bots and the fake table's `hw_mocks.bot` build on it and on
`legal_from`). `step`, `play_hand` and `play_match` play whole hands and
matches of any game through its flow, as careless but honest players would
(for the tests and the property checks): with the hands unknown to the flow
they still play from the dealt hands, so no revoke is ever reported.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.cards import TRUMP, Card
from engine.deal import Deal
from engine.errors import EngineError, IllegalPlay
from engine.flow import FlowEvent, HandFlow, Step
from engine.game import DealtHands, Game, MatchState


class Bot(Protocol):
    name: str

    def play(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random) -> Card:
        """The card to play from `hand` (which is the seat's real hand)."""
        ...


def legal_from(deal: Deal, seat: int, hand: Sequence[Card]) -> list[Card]:
    """The legal cards of `hand` for `seat` now, whether or not the deal knows the hands."""
    if deal.hands_known:
        return list(deal.legal_cards(seat)) or list(hand)
    trick = deal.current_trick
    legal = deal.game.legal_subset(deal.trump, trick, list(hand), **deal.context())
    return legal or list(hand)


class RandomBot:
    name = "random"

    def play(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random) -> Card:
        return rng.choice(legal_from(deal, seat, hand))


class SimpleBot:
    name = "simple"

    def play(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random) -> Card:
        legal = legal_from(deal, seat, hand)
        if len(legal) == 1 or not isinstance(deal, Deal):
            return rng.choice(legal)
        t = deal.tables
        pack = deal.pack

        def slot(c: Card) -> int:
            return pack.slot(c)

        def points(c: Card) -> int:
            return t.points[slot(c)]

        def cheapness(c: Card) -> tuple[int, int]:
            # fewest points first, then weakest
            return (points(c), t.power[slot(c)])

        trick = deal.current_trick
        if not trick:
            return self._lead(deal, legal, cheapness)
        led = t.eff[slot(trick[0])]
        best_i = t.winner_index([slot(c) for c in trick])
        leader = deal.leader
        best_seat = (leader + best_i) % deal.n
        best_key = t.key(slot(trick[best_i]), led)
        partner_winning = self._is_partner(deal, seat, best_seat)
        last_to_play = len(trick) == deal.n - 1
        winners = [c for c in legal if t.key(slot(c), led) > best_key]
        if partner_winning:
            if last_to_play or not winners:
                # feed the partner if it is safe, else throw the cheapest
                pointy = [c for c in legal if points(c) > 0 and t.eff[slot(c)] != TRUMP]
                if pointy and last_to_play:
                    return max(pointy, key=points)
            return min(legal, key=cheapness)
        if winners:
            cheapest_win = min(winners, key=lambda c: (t.power[slot(c)], points(c)))
            # win if it gains points or protects ours; do not waste a high trump on nothing
            at_stake = sum(points(c) for c in trick)
            if at_stake > 0 or last_to_play or t.eff[slot(cheapest_win)] != TRUMP:
                return cheapest_win
        return min(legal, key=cheapness)

    @staticmethod
    def _is_partner(deal: Deal, seat: int, other: int) -> bool:
        if seat == other:
            return True
        game = deal.game
        if not getattr(game, "fixed_teams", True):
            return False
        return game.team_of(seat) == game.team_of(other)

    @staticmethod
    def _lead(deal: Deal, legal: list[Card], cheapness: object) -> Card:
        t = deal.tables
        pack = deal.pack
        plain = [c for c in legal if t.eff[pack.slot(c)] != TRUMP]
        pool = plain or legal
        # a low card of the suit where we hold most cards
        counts: dict[int, int] = {}
        for c in pool:
            e = t.eff[pack.slot(c)]
            counts[e] = counts.get(e, 0) + 1
        longest = max(counts.values())
        candidates = [c for c in pool if counts[t.eff[pack.slot(c)]] == longest]
        return min(candidates, key=lambda c: (t.points[pack.slot(c)], t.power[pack.slot(c)]))


class TableBot:
    """The fake table's player: a random legal card of its hand, the first
    choice a step offers. `hw_mocks.bot.Bot` turns its picks into taps of
    physical cards and button presses; `play_order` is the order in which it
    tries a seat's cards (the first the hand takes is played)."""

    name = "table"

    def play(self, deal: Deal, seat: int, hand: Sequence[Card], rng: random.Random) -> Card:
        if deal.hands is not None:
            return self.known_play_order(deal, seat, rng)[0]
        return hand[self.play_order(deal, seat, hand, rng)[0]]

    @staticmethod
    def known_play_order(deal: Deal, seat: int, rng: random.Random) -> list[Card]:
        """With the hands known to the deal: its legal cards in random order."""
        cards = list(deal.legal_cards(seat))
        rng.shuffle(cards)
        return cards

    @staticmethod
    def play_order(deal: Deal | None, seat: int, hand: Sequence[Card],
                   rng: random.Random) -> list[int]:
        """With the hands unknown to the deal: the positions in `hand` (the
        seat's real cards) of the cards the rules allow, in random order,
        then the others in hand order (the rules may see less than the seat
        holds, so the hand has the last word)."""
        allowed: set[Card] = set(hand)
        if deal is not None:
            try:
                allowed = set(legal_from(deal, seat, hand))
            except EngineError:
                pass
        legal = [i for i, c in enumerate(hand) if c in allowed]
        rng.shuffle(legal)
        return legal + [i for i in range(len(hand)) if i not in legal]

    @staticmethod
    def choice(step: Step) -> str:
        """The choice it makes at a `choose` or `card` step: the first offered."""
        return step.choices[0]


#: The bots of this module, by name.
BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "simple": SimpleBot,
                                      "table": TableBot}
#: Bots of modules that build on this one, by name: `name` or `name-<level>`
#: makes the module's `SampledBot`-like class, with the level when given.
BOT_MODULES: dict[str, tuple[str, str]] = {"sampled": ("engine.analysis.bot", "SampledBot")}


def make_bot(name: str) -> Bot:
    """The bot called `name` (a `ValueError` names the bots there are)."""
    if name in BOTS:
        return BOTS[name]()
    family, _, level = name.partition("-")
    if family in BOT_MODULES:
        module, cls = BOT_MODULES[family]
        made: Bot = getattr(importlib.import_module(module), cls)(*([level] if level else []))
        return made
    there = [*BOTS, *(f"{n}[-level]" for n in BOT_MODULES)]
    raise ValueError(f"no bot called {name!r}; there are: {', '.join(there)}")


def bot_action(flow: HandFlow, hands: Sequence[Sequence[Card]], bot: Bot,
               rng: random.Random, shown: Sequence[Card] = ()
               ) -> tuple[str, int | None, Card | str | None]:
    """What a bot at the seat `flow` waits for would do now.

    `hands` are the seats' real cards now (the bot only reads its own);
    `shown` the cards the deal exposes to fix trumps (`DealtHands.shown`), which
    a `show` step taps in order. Every candidate is tried on a copy of the flow
    first, so the bot never offers what the hand would refuse when something
    else is possible. Returns ("card", seat, card), ("choose", seat, choice) or
    ("done", None, None).
    """
    step: Step = flow.pending()
    if step.kind == "done":
        return ("done", None, None)
    seat = step.seat if step.seat is not None else _anyone(step, flow, hands, shown)
    # A play comes from the hand the deal knows; a card tapped for another
    # step (a draw, a shown card) is one the caller says the seat has.
    own = remaining_hand(flow, hands, seat) if step.kind == "play" else list(hands[seat])
    if step.kind == "choose":
        choices = list(step.choices)
        # Calling a card one holds is never the point of a call.
        held = {c.code for c in own}
        sensible = [c for c in choices if not any(code in c for code in held)] or choices
        rng.shuffle(sensible)
        for choice in sensible:
            if _accepts(flow, "choose", seat, choice):
                return ("choose", seat, choice)
        return ("choose", seat, choices[0] if choices else "")
    candidates: list[Card] = []
    if step.kind == "play" and flow.deal is not None:
        candidates.append(bot.play(flow.deal, seat, own, rng))
        rest = legal_from(flow.deal, seat, own)
        rng.shuffle(rest)
        candidates += rest
    if step.kind == "show":
        candidates += list(shown[len(flow.shown):len(flow.shown) + 1])
    if step.kind == "card":
        # a card step may name the cards it wants (the Old Man shows his Over)
        candidates += [c for c in _cards_named(flow, step.choices) if c in own]
    candidates += [c for c in own if c not in candidates]
    for c in candidates:
        if _accepts(flow, "card", seat, c):
            return ("card", seat, c)
    for choice in step.choices:
        if _accepts(flow, "choose", seat, choice):
            return ("choose", seat, choice)
    if candidates:
        return ("card", seat, candidates[0])
    return ("choose", seat, step.choices[0] if step.choices else "")


def _accepts(flow: HandFlow, kind: str, seat: int, what: Card | str) -> bool:
    """Would the hand take this action? Tried on a copy; nothing changes."""
    trial = copy.deepcopy(flow)
    try:
        if kind == "card":
            assert isinstance(what, Card)
            trial.card(seat, what)
        else:
            trial.choose(seat, str(what))
    except (EngineError, ValueError, LookupError):
        return False
    return True


def _anyone(step: Step, flow: HandFlow, hands: Sequence[Sequence[Card]],
            shown: Sequence[Card]) -> int:
    """A step any seat may take (say, whoever holds a card shows it): the seat
    holding the next card to show, or else seat 0."""
    wanted: list[Card] = []
    if step.kind == "show" and len(flow.shown) < len(shown):
        wanted = [shown[len(flow.shown)]]
    elif step.kind == "card":
        wanted = _cards_named(flow, step.choices)
    for c in wanted:
        for seat, hand in enumerate(hands):
            if c in hand:
                return seat
    return 0


def _cards_named(flow: HandFlow, choices: Sequence[str]) -> list[Card]:
    out = []
    for choice in choices:
        try:
            out.append(flow.game.pack.parse(choice))
        except EngineError:
            continue
    return out


def remaining_hand(flow: HandFlow, hands: Sequence[Sequence[Card]], seat: int) -> list[Card]:
    """The seat's cards now: the deal's when it knows the hands, else the
    caller's (who keeps its real hands up to date, as the simulator does)."""
    deal = flow.deal
    if deal is not None and deal.hands_known:
        return deal.hand_of(seat)
    return list(hands[seat])


# ----- whole hands and matches through the flow ---------------------------------------

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
