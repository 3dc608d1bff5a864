"""A 20-card Filcău hand as the table lives it (the `HandFlow` of `engine.flow`).

The dealer is D; seats after him in the order of play are L (his left, the
first to receive cards), then the others; R, the player before D, cuts.

Steps, in order:

1. `choose` (R, `filcau20_cut_or_knock`): `cut` or `knock`.
2. After a cut, the **fris window** (three cards each): `card` (each seat from
   L round to D, `filcau20_fris`): put down an Over to make fris, or choose
   `pass`. `deal` (the dealer deals the last two cards, whoever picks it on
   the table's menu) closes the window at any moment (rule 1). With
   `fris_priority` `seat_order` the first Over put down wins at once; with
   `highest_over` every seat is asked and the highest Over wins. If nobody
   makes fris, the binding follows as after a knock.
3. The **binding** (five cards each): `choose` (each seat from L round to D,
   `filcau20_bind`): `bind:N:LOW` (N trumps, the lowest LOW: `bind:3:U`,
   `bind:4:Ob`), `closed` (five trumps) or `pass`. With hands known only the
   calls the seat may make are offered (rule 7, the Ace-farbă ban, the
   options); with hands unknown every call is offered and the winning binder
   must prove his call:
4. `card` (the binder, `filcau20_prove`): he taps his five cards face down; a
   call the cards do not make is struck (as is one he `withdraw`s) and the next
   best call wins. A `closed` declaration that forces a redeal is proven too.
5. `choose` (the fris player, the winning binder, or the dealer when nobody
   bound and `no_binding` is `dealer_names`; `filcau20_name_trump`): a suit.
   After fris his Over is played at once as the lead of trick 1.
6. `play` for the five tricks. On the fris (`filcau20_fris_follow`) a player
   with hands unknown may choose `turn` to have his two other cards turned
   face up, then
7. `card` (that seat, or the dealer, `filcau20_show_turned`): the two cards are
   tapped.
8. `done`. A hand can also end before play: nobody bound, a closed hand
   (`closed_hand` = `redeal`) or a tie (`tie_break` = `redeal`).

`undo` takes back the last action of any kind, by replaying the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import BadRequest
from engine.flow import FlowEvent, HandFlow, HandResult, Step
from engine.games.filcau20.binding import (
    CALLS,
    OVERS,
    SUITS,
    Binding,
    call_refusal,
    closed_suits,
    highest_over,
    naming_suits,
    parse_call,
)
from engine.games.filcau20.deal import Filcau20Deal, FrisTrick
from engine.games.filcau20.messages import Refusal
from engine.games.filcau20.rules import Filcau20Rules
from engine.match import MatchState
from engine.replay_undo import ReplayUndo


class Filcau20Flow(ReplayUndo, HandFlow):
    """See the module docstring."""

    game: Filcau20Rules
    deal: Filcau20Deal | None
    #: Always started from a match state, so always with a dealer.
    state: MatchState
    dealer: int

    def __init__(self, game: Filcau20Rules, state: MatchState,
                 hands: Sequence[Iterable[Card]] | None = None,
                 trump: str | None = None) -> None:
        self._args = (game, state, hands, trump)
        self._kwargs: dict[str, Any] = {}
        self._actions: list[tuple[str, int, Any]] = []
        super().__init__(game, state, hands, None)
        if self.hands is not None:
            game.new_deal(None, 0, self.hands)  # checks the hands: five each, no card twice
        n = game.players
        self.order = [(self.dealer + 1 + k) % n for k in range(n)]
        self.cutter = game.cutter(self.dealer)
        self.phase = "cut"
        self.cut: bool | None = None
        self.asked: list[int] = []
        self.exposed: dict[int, Card] = {}
        self.fris_seat: int | None = None
        self.fris_over: Card | None = None
        self.calls: list[tuple[int, str]] = []
        self.struck: set[int] = set()
        self.proven: dict[int, tuple[Card, ...]] = {}
        self.proving: int | None = None
        self.proof: list[Card] = []
        self.binder: int | None = None
        self.binding: Binding | None = None
        self.namer: int | None = None
        self.redeal: str | None = None
        self.turning: int | None = None
        self.turn_cards: list[Card] = []
        if trump is not None:
            if trump not in SUITS:
                raise BadRequest(f"trump must be a suit letter: {' '.join(SUITS)}")
            self.trump = trump
            self._start()

    # ----- questions -------------------------------------------------------------

    @property
    def options(self) -> dict[str, Any]:
        return self.game.options

    def pending(self) -> Step:
        phase = self.phase
        if phase == "cut":
            return Step("choose", self.cutter, "filcau20_cut_or_knock", ("cut", "knock"))
        if phase == "fris":
            return Step("card", self.order[len(self.asked)], "filcau20_fris", ("pass", "deal"))
        if phase == "bind":
            seat = self.order[len(self.calls)]
            return Step("choose", seat, "filcau20_bind", self.call_choices(seat))
        if phase == "prove":
            return Step("card", self.proving, "filcau20_prove", ("withdraw",))
        if phase == "name":
            return Step("choose", self.namer, "filcau20_name_trump", tuple(self.name_choices()))
        if phase == "turn":
            return Step("card", self.turning, "filcau20_show_turned")
        if phase == "play":
            deal = self.deal
            assert deal is not None
            if deal.finished:
                return Step("done")
            seat = deal.turn
            if deal.in_fris_trick:
                assert deal.fris is not None
                may_turn = self.hands is None and not deal.fris.turned[seat]
                return Step("play", seat, "filcau20_fris_follow", ("turn",) if may_turn else ())
            if deal.rule8_applies(seat):
                return Step("play", seat, "filcau20_rule8")
            return Step("play", seat, "play")
        return Step("done")

    @property
    def finished(self) -> bool:
        return self.phase == "done" or (self.phase == "play" and self.deal is not None
                                        and self.deal.finished)

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    def deal_order(self) -> tuple[int, ...]:
        """The seat of each card as the dealer deals it, from his left round to
        himself: after a cut three each then two each, otherwise (a knock, or
        no choice yet) five each. Each hand then lists its cards in the order
        received, as `hands` expects."""
        packets = (3, 2) if self.cut else (5,)
        return tuple(seat for size in packets for seat in self.order for _ in range(size))

    def call_choices(self, seat: int) -> tuple[str, ...]:
        """The binding calls `seat` may make now."""
        if self.hands is None:
            return ("pass", "closed", *(f"bind:{c}" for c in CALLS))
        hand = self.hands[seat]
        out = []
        for call in ("pass", "closed", *CALLS):
            if self._call_refusal(hand, call) is None:
                out.append(call if call in ("pass", "closed") else f"bind:{call}")
        return tuple(out)

    def name_choices(self) -> list[str]:
        """The suits the namer may name."""
        if self.binder is None:
            return list(SUITS)
        hand = self._hand(self.binder)
        return naming_suits(hand, self.options["rule7"]) if hand is not None else list(SUITS)

    def legal_cards(self) -> list[Card]:
        """The cards the pending step accepts (hands known)."""
        if self.hands is None:
            return []
        step = self.pending()
        if step.kind == "card" and self.phase == "fris" and step.seat is not None:
            return [c for c in self.hands[step.seat][:3] if c in OVERS]
        if step.kind == "play" and self.deal is not None:
            return list(self.deal.legal_cards())
        return []

    def turned_cards(self, seat: int) -> list[Card]:
        """The cards turned face up for `seat` on the fris."""
        return self.deal.turned_cards(seat) if self.deal is not None else []

    def result(self) -> HandResult:
        if not self.finished:
            raise BadRequest("the hand is not over")
        if self.redeal is not None:
            return HandResult((0, 0), (0, 0), {"redeal": self.redeal})
        assert self.deal is not None
        extra: dict[str, Any] = {"trump": self.trump}
        if self.fris_seat is not None:
            extra["fris"] = self.fris_seat
        if self.binder is not None and self.binding is not None:
            extra.update(binder=self.binder, binding=self.binding.call)
        return HandResult(tuple(self.deal.team_points()), tuple(self.deal.team_tricks()), extra)

    def settled(self) -> MatchState:
        if not self.finished:
            raise BadRequest("the hand is not over")
        if self.redeal == "no_binding":
            return self.game.settle(self.state, None, redeal=True)
        if self.redeal is not None:
            return self.state  # closed hand or tied bindings: the same dealer deals again
        assert self.deal is not None
        return self.game.settle_deal(self.state, self.deal)

    # ----- actions ---------------------------------------------------------------

    def card(self, seat: int, card: Card) -> FlowEvent:
        card = self.game.pack.parse(card.code if isinstance(card, Card) else card)
        handler = {"fris": self._fris_card, "prove": self._proof_card,
                   "turn": self._turn_card, "play": self._play_card}.get(self.phase)
        if handler is None:
            if self.finished:
                raise Refusal("hand_over")
            raise Refusal("not_expected", seat=seat, step=self.pending().kind)
        event = handler(seat, card)
        self._actions.append(("card", seat, card))
        return event

    def choose(self, seat: int, choice: str) -> FlowEvent:
        if self.finished:
            raise Refusal("hand_over")
        step = self.pending()
        if not isinstance(choice, str):
            raise Refusal("not_expected", seat=seat, step=step.kind)
        if self.phase == "fris" and choice == "deal":
            event = self._close_window(seat)
        else:
            # Binding calls and trump names are checked by their handlers, which
            # give the rule that refuses them.
            if choice not in step.choices and self.phase not in ("bind", "name"):
                raise Refusal("not_expected", seat=seat, step=step.kind)
            if seat != step.seat:
                raise Refusal("not_your_turn", seat=seat, turn=step.seat,
                                  family=self.game.pack.family)
            event = {"cut": self._cut, "fris": self._fris_pass, "bind": self._call,
                     "prove": self._withdraw, "name": self._name,
                     "play": self._ask_turn}[self.phase](seat, choice)
        self._actions.append(("choose", seat, choice))
        return event

    def deal_rest(self, seat: int) -> FlowEvent:
        """`seat` says it deals the remaining cards during the fris window:
        only the dealer may (`only_dealer`). At the table the choice `deal`
        on the shared menu is the dealer's act whoever presses it
        (`choose(seat, "deal")`); a request naming its seat comes here."""
        if self.phase == "fris" and not self.finished and seat != self.dealer:
            raise Refusal("only_dealer", seat=seat, turn=self.dealer,
                          family=self.game.pack.family)
        return self.choose(seat, "deal")

    def mark(self) -> int:
        """A point to `rollback` to: the number of actions taken so far."""
        return len(self._actions)

    def rollback(self, mark: int) -> None:
        """Undo every action taken since `mark`."""
        while len(self._actions) > mark:
            self.undo()


    # ----- cut or knock, fris ------------------------------------------------------

    def _cut(self, seat: int, choice: str) -> FlowEvent:
        self.cut = choice == "cut"
        self.phase = "fris" if self.cut else "bind"
        return FlowEvent("chosen", seat, data={"choice": choice})

    def _fris_card(self, seat: int, card: Card) -> FlowEvent:
        step = self.pending()
        family = self.game.pack.family
        if seat != step.seat:
            raise Refusal("not_your_turn", seat=seat, turn=step.seat, family=family)
        if card not in OVERS:
            raise Refusal("fris_needs_over", seat=seat, card=card.code, family=family)
        if self.hands is not None:
            if card not in self.hands[seat]:
                raise Refusal("not_in_hand", seat=seat, card=card.code, family=family)
            if card not in self.hands[seat][:3]:
                raise Refusal("fris_not_dealt", seat=seat, card=card.code, family=family)
        elif card in self.exposed.values():
            raise Refusal("already_played", seat=seat, card=card.code, family=family)
        self.asked.append(seat)
        if self.options["fris_priority"] == "seat_order":
            self._fris_won(seat, card)
        else:
            self.exposed[seat] = card
            if len(self.asked) == len(self.order):
                self._end_window()
        return FlowEvent("chosen", seat, card, data={"fris": card.code})

    def _fris_pass(self, seat: int, choice: str) -> FlowEvent:
        self.asked.append(seat)
        if len(self.asked) == len(self.order):
            self._end_window()
        return FlowEvent("chosen", seat, data={"choice": choice})

    def _close_window(self, seat: int) -> FlowEvent:
        # The table has one menu: "deal" is the dealer's act whoever picks it.
        self._end_window()
        return FlowEvent("chosen", self.dealer, data={"choice": "deal"})

    def _end_window(self) -> None:
        if self.exposed:
            seat = max(self.exposed, key=lambda s: -OVERS.index(self.exposed[s]))
            self._fris_won(seat, self.exposed[seat])
        else:
            self.phase = "bind"

    def _fris_won(self, seat: int, over: Card) -> None:
        self.fris_seat = seat
        self.fris_over = over
        self.namer = seat
        self.phase = "name"

    # ----- binding -----------------------------------------------------------------

    def _hand(self, seat: int) -> Sequence[Card] | None:
        if self.hands is not None:
            return self.hands[seat]
        return self.proven.get(seat)

    def _call_refusal(self, hand: Sequence[Card], call: str) -> str | None:
        return call_refusal(hand, call, self.options["rule7"],
                            self.options["binding_compulsory"],
                            self.options["closed_hand"] == "redeal")

    def _call(self, seat: int, choice: str) -> FlowEvent:
        call = choice[5:] if choice.startswith("bind:") else choice
        if call not in ("pass", "closed") and parse_call(call) is None:
            raise Refusal("not_expected", seat=seat, step="choose")
        if self.hands is not None:
            reason = self._call_refusal(self.hands[seat], call)
            if reason is not None:
                raise Refusal(reason, seat=seat, call=call, family=self.game.pack.family)
        self.calls.append((seat, call))
        if call == "closed" and self.options["closed_hand"] == "redeal":
            if self.hands is not None:
                self._end("closed")
            else:
                self._ask_proof(seat)
            return FlowEvent("chosen", seat, data={"choice": choice})
        if len(self.calls) == len(self.order):
            self._resolve()
        return FlowEvent("chosen", seat, data={"choice": choice})

    def _resolve(self) -> None:
        """Find the winning binding once every seat has called (FC-A7)."""
        bids = [(seat, parse_call(call)) for seat, call in self.calls
                if seat not in self.struck and call not in ("pass", "closed")]
        valid = [(seat, b) for seat, b in bids if b is not None]
        if not valid:
            rule = self.options["no_binding"]
            if rule == "dealer_names":
                self.namer = self.dealer
                self.phase = "name"
            else:
                self._end("no_binding")
            return
        best = max(b for _, b in valid)
        top = [seat for seat, b in valid if b == best]
        tie_break = self.options["tie_break"]
        if self.hands is None:
            need = top[:1] if tie_break == "first_caller" else top
            for seat in need:
                if seat not in self.proven:
                    self._ask_proof(seat)
                    return
        if len(top) == 1 or tie_break == "first_caller":
            binder = top[0]
        elif tie_break == "higher_over":
            binder = max(top, key=lambda s: highest_over(self._hand(s) or ()))
        else:
            self._end("tie")
            return
        self.binder = binder
        self.binding = best
        self.namer = binder
        self.phase = "name"

    def _ask_proof(self, seat: int) -> None:
        self.proving = seat
        self.proof = []
        self.phase = "prove"

    def _proof_card(self, seat: int, card: Card) -> FlowEvent:
        family = self.game.pack.family
        if seat != self.proving:
            raise Refusal("not_your_turn", seat=seat, turn=self.proving, family=family)
        if card in self.proof:
            raise Refusal("already_played", seat=seat, card=card.code, family=family)
        for other, cards in self.proven.items():
            if other != seat and card in cards:
                raise Refusal("not_in_hand", seat=seat, card=card.code, family=family)
        self.proof.append(card)
        if len(self.proof) < self.game.hand_size:
            return FlowEvent("shown", seat, card)
        hand = tuple(self.proof)
        call = dict(self.calls)[seat]
        if call == "closed":
            ok = bool(closed_suits(hand))
        else:
            ok = call_refusal(hand, call, self.options["rule7"], False,
                              self.options["closed_hand"] == "redeal") is None
        self.proof = []
        self.proving = None
        if ok:
            self.proven[seat] = hand
        else:
            self.struck.add(seat)
        self._after_proof(seat, call, ok)
        return FlowEvent("chosen", seat, card, data={"proof": ok, "call": call})

    def _withdraw(self, seat: int, choice: str) -> FlowEvent:
        call = dict(self.calls)[seat]
        self.struck.add(seat)
        self.proof = []
        self.proving = None
        self._after_proof(seat, call, False)
        return FlowEvent("chosen", seat, data={"choice": choice, "call": call})

    def _after_proof(self, seat: int, call: str, ok: bool) -> None:
        if call == "closed" and ok:
            self._end("closed")
        elif len(self.calls) < len(self.order):
            self.phase = "bind"
        else:
            self._resolve()

    # ----- trumps and play ----------------------------------------------------------

    def _name(self, seat: int, suit: str) -> FlowEvent:
        if suit not in self.name_choices():
            raise Refusal("binding_suit", seat=seat, suit=suit, family=self.game.pack.family)
        self.trump = suit
        self._start()
        return FlowEvent("trump", seat, data={"trump": suit})

    def _start(self) -> None:
        game = self.game
        known: dict[int, list[Card]] | None = None
        if self.hands is None:
            known = {s: list(h) for s, h in self.proven.items()}
            for s, over in self.exposed.items():
                if s != self.fris_seat:
                    known.setdefault(s, []).append(over)
        fris = None
        rule8 = None
        leader = self.order[0]
        if self.fris_seat is not None and self.fris_over is not None:
            leader = self.fris_seat
            first = [0] * game.players
            if self.hands is not None:
                first = [game.pack.mask(h[:3]) for h in self.hands]
            fris = FrisTrick(self.fris_seat, self.fris_over, first)
        elif self.binder is not None and self.binding is not None:
            if self.options["first_lead_after_binding"] == "binder":
                leader = self.binder
            if self.binding.count == 3:
                rule8 = self.binder
        calls = {s: c for s, c in self.calls if s not in self.struck}
        self.deal = Filcau20Deal(game, self.trump, leader, self.hands, known=known,
                                 fris=fris, rule8=rule8, calls=calls, binder=self.binder)
        self.phase = "play"
        if fris is not None:
            self.deal.play(fris.seat, fris.over)

    def _play_card(self, seat: int, card: Card) -> FlowEvent:
        assert self.deal is not None
        outcome = self.deal.play(seat, card)
        return FlowEvent("played", seat, card, outcome)

    def _ask_turn(self, seat: int, choice: str) -> FlowEvent:
        self.turning = seat
        self.turn_cards = []
        self.phase = "turn"
        return FlowEvent("chosen", seat, data={"choice": choice})

    def _turn_card(self, seat: int, card: Card) -> FlowEvent:
        deal = self.deal
        assert deal is not None and deal.fris is not None and self.turning is not None
        family = self.game.pack.family
        if seat not in (self.turning, self.dealer):
            raise Refusal("not_your_turn", seat=seat, turn=self.turning, family=family)
        slot = self.game.pack.slot(card, ~deal.played)
        if slot < 0 or card in self.turn_cards:
            raise Refusal("already_played", seat=seat, card=card.code, family=family)
        for other, mask in enumerate(deal.known):
            if other != self.turning and mask >> slot & 1:
                raise Refusal("not_in_hand", seat=seat, card=card.code, family=family)
        self.turn_cards.append(card)
        if len(self.turn_cards) < 2:
            return FlowEvent("shown", seat, card)
        mask = self.game.pack.mask(self.turn_cards)
        deal.fris.turned[self.turning] = mask
        deal.known[self.turning] |= mask
        turned = [c.code for c in self.turn_cards]
        self.turning = None
        self.turn_cards = []
        self.phase = "play"
        return FlowEvent("shown", seat, card, data={"turned": turned})

    def _end(self, reason: str) -> None:
        self.redeal = reason
        self.phase = "done"

