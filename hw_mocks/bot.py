"""A generic player for any game at a fake table.

The bot deals a hand with the engine (`Game.deal`), so it holds the physical
cards (each with its sticker's UID), and follows the hand with its own
`HandFlow`, which knows what the table knows (the hands, or not in `open`
mode). What to play and choose is the engine's `table` bot
(`engine.bots.TableBot`: a random legal card from the seat's real hand, the
first choice); this module is its adapter to the physical cards: it shows
the cards that fix trumps, finds the sticker of each card to tap (its own,
else one from the stock or nobody's hand) and taps the first card a `card`
step accepts. It knows nothing of any particular game and nothing of the
controller: it only says which card goes on which reader, or which button to
press.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.bots import TableBot
from engine.cards import Card
from engine.errors import EngineError
from engine.flow import HandFlow
from engine.game import DealtHands, Game, MatchState
from table.ports import DEALER

UidOf = Callable[[Card, int], str]
Held = tuple[Card, str]   # a physical card: what it is, its sticker


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
        self.holding: list[list[Held]] = []
        self.pool: list[Held] = []
        self.played: set[str] = set()
        self.knowledge = "open"
        #: What to play and choose: the engine's bot; this class finds the stickers.
        self.policy = TableBot()

    def new_hand(self, state: MatchState, knowledge: str = "scan") -> DealtHands:
        """Shuffle and deal the next hand (the physical cards on the table).
        `knowledge` is the table's: with `open` the bot's flow does not know
        the hands either, so both wait for the same steps."""
        self.knowledge = knowledge
        self.played = set()
        self.dealt = self.game.deal(self.rng, state.dealer)
        hands = self.dealt.hands if knowledge != "open" else None
        self.shadow = self.game.hand_flow(state, hands)
        copies: dict[Card, int] = {}

        def sticker(c: Card) -> Held:
            copies[c] = copies.get(c, 0) + 1
            return (c, self.uid_of(c, copies[c]))

        self.holding = [[sticker(c) for c in hand] for hand in self.dealt.hands]
        stock = list(self.dealt.extra.get("stock", ()))
        dealt_count: dict[Card, int] = dict(copies)
        rest = []
        for c in self.game.pack.cards:
            if dealt_count.get(c, 0) > 0:
                dealt_count[c] -= 1
            elif c not in stock:
                rest.append(c)
        self.pool = [sticker(c) for c in stock + rest]
        return self.dealt

    # ----- learning the hands ---------------------------------------------------------

    def scan_moves(self) -> list[Move]:
        """Every seat taps its cards on its own reader."""
        return [Move("tap", seat, uid, c, seat)
                for seat, hand in enumerate(self.holding) for c, uid in hand]

    def deal_moves(self) -> list[Move]:
        """The dealer passes every card over the dealer's reader in dealing order;
        afterwards the bot's flow knows what the table knows."""
        assert self.dealt is not None and self.shadow is not None
        place = DEALER if self.dealer_reader else self.dealt.dealer
        given = [0] * self.game.players
        out = []
        seq = []
        for seat in self.shadow.deal_order():
            c, uid = self.holding[seat][given[seat]]
            given[seat] += 1
            seq.append((seat, c))
            out.append(Move("tap", place, uid, c, seat))
        self.shadow.after_deal(seq)
        return out

    # ----- the hand ---------------------------------------------------------------------

    def next_move(self) -> Move | None:
        """The next thing to do in the hand (None when it is over). The move is
        applied to the bot's own flow at once: make it at the table.

        `choose` steps: the policy's choice (OK). `card` steps: that choice
        if the flow takes it, else the first card it takes. `show` and `play`
        steps: a card (for `play`, the policy's order over the seat's hand)."""
        flow = self.shadow
        assert flow is not None and self.dealt is not None
        step = flow.pending()
        if step.kind == "done":
            return None
        if step.kind in ("choose", "card") and step.choices:
            move = self._choose_first(self.policy.choice(step))
            if move is not None:
                return move
            if step.kind == "choose":
                raise RuntimeError(f"the bot's first choice was refused at {step}")
        seats = [step.seat] if step.seat is not None else list(range(self.game.players))
        # first the seats' own cards, then (a card from a stock, a hand the
        # table does not know) any card the flow takes
        tries = ((seat, held) for wide in (False, True) for seat in seats
                 for held in self._candidates(step.kind, seat, wide))
        for seat, held in tries:
            c, uid = held
            try:
                event = flow.card(seat, c)
            except EngineError:
                continue
            self._moved(seat, held, event.kind)
            place = seat
            if step.kind in ("show", "card") and self.dealer_reader and step.seat is not None:
                place = DEALER
            return Move("tap", place, uid, c, seat)
        raise RuntimeError(f"the bot found no card for {step}")

    def _choose_first(self, choice: str) -> Move | None:
        flow = self.shadow
        assert flow is not None
        step = flow.pending()
        seat = flow.chooser(choice)
        if seat is None:
            seat = step.seat if step.seat is not None else flow.dealer
        assert seat is not None   # a hand at a table always has its dealer
        try:
            flow.choose(seat, choice)
        except EngineError:
            return None
        if step.kind == "card" and step.seat is not None and self.pool:
            # a card step answered without a card (an unknown draw): the seat
            # still takes the next card of the stock into its hand
            self.holding[step.seat].append(self.pool.pop(0))
        return Move("press", seat=seat, button="ok")

    def _moved(self, seat: int, held: Held, kind: str) -> None:
        """Keep track of the physical cards: played cards leave the hand and
        the game, drawn cards come into the hand."""
        hand = self.holding[seat]
        if kind == "played":
            self.played.add(held[1])
            for where in (hand, self.pool, *self.holding):
                if held in where:
                    where.remove(held)
                    break
        elif held in self.pool:
            self.pool.remove(held)
            hand.append(held)

    def _sticker(self, seat: int, c: Card) -> Held | None:
        """A physical copy of `c` for `seat` to use: its own if it holds one,
        else a copy nobody is known to hold, else any copy not yet played
        (None: every copy has been played)."""
        for h in self.holding[seat]:
            if h[0] == c:
                return h
        held_elsewhere = {h[1] for s in self.holding for h in s}
        copies = [self.uid_of(c, k) for k in range(1, self.game.pack.copies + 1)]
        free = [u for u in copies if u not in self.played]
        for u in free:
            if u not in held_elsewhere:
                return (c, u)
        if free:
            return (c, free[0])
        deal = self.shadow.deal if self.shadow is not None else None
        if deal is not None and any(not deal.played >> s & 1 for s in deal.pack.slots_of(c)):
            return (c, copies[-1])   # a played card the game brought back into play
        return None

    def _stickers(self, seat: int, cards: list[Card]) -> list[Held]:
        out = []
        for c in cards:
            h = self._sticker(seat, c)
            if h is not None:
                out.append(h)
        return out

    def _candidates(self, kind: str, seat: int, wide: bool) -> list[Held]:
        """Cards to try for `seat`: its own (`wide=False`), or any (`wide=True`)."""
        flow = self.shadow
        assert flow is not None and self.dealt is not None
        hand = list(self.holding[seat])
        deal = flow.deal
        if kind == "play":
            if deal is not None and deal.hands is not None:
                if not wide:
                    return []
                # the table knows the hands: its legal cards are the ones to play
                return self._stickers(seat, self.policy.known_play_order(deal, seat, self.rng))
            if wide:
                return self._stickers(seat, list(deal.legal_cards(seat))) \
                    if deal is not None else []
            order = self.policy.play_order(deal, seat, [c for c, _ in hand], self.rng)
            return [hand[i] for i in order]
        if kind == "show":
            if wide:   # the cards the deal showed, whoever holds them; then any
                held = [h for s in [*self.holding, self.pool] for h in s
                        if h[0] not in flow.shown]
                return [h for h in held if h[0] in self.dealt.shown] + \
                    [h for h in held if h[0] not in self.dealt.shown]
            return [h for h in hand if h[0] in self.dealt.shown and h[0] not in flow.shown]
        if not wide:
            return hand
        others = self._stickers(seat, list(self.game.pack.distinct_cards))
        return self.pool + [h for h in others if h not in hand and h not in self.pool]
