"""One hand of Fildinsky: tricks, melds, the deece, draws (RULES.md §2.D).

The hand moves through stages:

* `play`: the seat `turn` plays a card.
* `meld`: the winner of the trick just closed (`declarer`) may declare up to
  two melds from his won cards and exchange the Seven of trumps for the
  turned-up card (the deece), then passes (`close_melds`). When he can do
  nothing the stage is skipped.
* `draw`: while the stock lasts, the winner draws, then the loser. Draws the
  engine can name itself (a known stock order, the face-up card at the
  bottom) happen at once; others wait for `draw(seat, card)`, where the card
  may be `None` (the table did not see it).
* `over`: 32 tricks are played, or (option `game_end: immediate`) a player's
  match total has reached the target.

What the engine knows about the hands: with the deal read (`hands` given),
every hand is exact and an illegal play is refused. A draw recorded as an
unknown card makes the hands partly unknown: from then on a seat has `known`
cards and a count of `unknown` ones, and a play is refused only when it is
provably wrong (see `engine.games.fildinsky.legal`). Revokes proven later in the
last eight tricks are reported, as in `engine.deal`.

Every action (play, meld, exchange, pass, draw) can be undone; the state is
then exactly as before it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.deal import Deal, DealRules, PlayOutcome, Revoke, Trick
from engine.errors import BadRequest, UnknownCard
from engine.games.fildinsky.endgame import (
    DEECE_POINTS,
    EndgameScoring,
    EndState,
    deece_cards,
    is_deece_card,
    last_trick_points,
)
from engine.games.fildinsky.legal import RevokeWatch, follower_refusal
from engine.games.fildinsky.melds import MeldKind, combination_problem, legal_melds, meld_kinds
from engine.games.fildinsky.messages import Refusal
from engine.packs import iter_bits

#: Cards in the stock after the deal: 64 - 2 * 8, the turned-up card included.
STOCK_SIZE = 48
STOCK_TRICKS = 24
TRICKS = 32


@dataclass(frozen=True)
class TrickScore:
    """A closed trick and what it scored: for its winner, or for `scorer`
    when the winner has forfeited the last eight tricks (option
    `revoke_penalty`)."""

    trick: Trick
    brisques: int
    deece: int
    last: int
    scorer: int = -1

    @property
    def credited(self) -> int:
        """The seat the trick's points went to."""
        return self.trick.winner if self.scorer < 0 else self.scorer

    @property
    def total(self) -> int:
        return self.brisques + self.deece + self.last


@dataclass(frozen=True)
class Declared:
    seat: int
    trick: int
    meld: MeldKind


@dataclass(frozen=True)
class Exchanged:
    """The deece exchange: `took` the turned-up card, `gave` the Seven."""

    seat: int
    took: Card
    gave: Card


@dataclass(frozen=True)
class Drawn:
    """A draw from the stock; `card` is None when nobody saw it."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class TurnedSeven:
    """Option `turned_seven_scores`: the dealer scored for a turned-up Seven."""

    seat: int
    points: int


@dataclass(frozen=True)
class Forfeit:
    """Option `revoke_penalty`: a revoke proven in the last eight tricks; the
    points `seat` had won in them (`points`) go to the other player, and so
    will those of the tricks it still wins."""

    seat: int
    points: int


@dataclass(frozen=True)
class Undone:
    """What `undo` took back: `action` is play, meld, exchange, pass or draw."""

    action: str
    seat: int
    card: Card | None = None


Event = TrickScore | Declared | Exchanged | Drawn | TurnedSeven | Forfeit

_STATE_FIELDS = (
    "stage", "turn", "leader", "declarer", "draws_due", "trick", "tricks", "played",
    "hands", "known", "unknown", "face_down", "stock_pos", "bottom", "won_pile", "used",
    "points", "brisques", "meld_points", "bonus_points", "won", "declared_now",
    "exchange_slot", "exchanged", "deece_scored", "events", "revokes", "finished",
    "forfeited",
)


class FildinskyDeal(Deal):
    """The play of one Fildinsky hand (see the module docstring).

    `hands` (two lists of 8) when the deal was read, else `known` may name
    cards known to be in a hand. `turn_up` is the face-up card under the
    stock; `stock` the 47 face-down cards, top first, when the table knows
    them (it needs `hands`). `start_score` is the match score before the hand:
    with `game_end: immediate` the hand stops the moment a total reaches the
    target.
    """

    game: DealRules

    def __init__(self, game: DealRules, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None, *,
                 known: Mapping[int, Iterable[Card]] | None = None,
                 turn_up: Card | None = None, stock: Sequence[Card] | None = None,
                 start_score: Sequence[int] = (0, 0)) -> None:
        super().__init__(game, trump, leader, hands, known=None)
        pack = self.pack
        if turn_up is None:
            raise BadRequest("a Fildinsky hand needs the turned-up card")
        turn_up = pack.parse(turn_up.code if isinstance(turn_up, Card) else turn_up)
        if trump != turn_up.suit:
            raise BadRequest(f"the turned-up {turn_up} makes {turn_up.suit} trumps, not {trump}")
        self.opts = game.options
        self.dealer = 1 - leader
        self.start_score = (int(start_score[0]), int(start_score[1]))
        self.target: int = self.opts["target"]
        taken = 0
        if self.hands is not None:
            taken = self.hands[0] | self.hands[1]
            if known:
                raise BadRequest('give either "hands" or known cards, not both')
            self.known = [0, 0]
            self.unknown = [0, 0]
        else:
            self.known = [0, 0]
            for seat, cs in (known or {}).items():
                if seat not in (0, 1):
                    raise BadRequest("known cards must belong to seat 0 or 1")
                for c in cs:
                    slot = pack.slot(c, pack.full_mask & ~taken)
                    if slot < 0:
                        raise BadRequest(f"{c} is known in more places than the pack holds it")
                    self.known[seat] |= 1 << slot
                    taken |= 1 << slot
            if any(m.bit_count() > game.hand_size for m in self.known):
                raise BadRequest(f"a hand holds {game.hand_size} cards")
            self.unknown = [game.hand_size - m.bit_count() for m in self.known]
        tu = pack.slot(turn_up, pack.full_mask & ~taken)
        if tu < 0:
            raise BadRequest(f"both copies of {turn_up} are already in the hands")
        taken |= 1 << tu
        self.turn_up = turn_up
        self.turn_up_slot = tu
        self.bottom: int | None = tu
        self.face_down = STOCK_SIZE - 1
        self.stock_pos = 0
        self.stock_order: tuple[int, ...] | None = None
        if stock is not None:
            if self.hands is None:
                raise BadRequest("the order of the stock can only be given with the hands")
            stock = list(stock)
            if len(stock) != self.face_down:
                raise BadRequest(f"the stock holds {self.face_down} face-down cards, "
                                 f"not {len(stock)}")
            order = []
            for c in stock:
                slot = pack.slot(c, pack.full_mask & ~taken)
                if slot < 0:
                    raise BadRequest(f"{c} is dealt more often than the pack holds it")
                taken |= 1 << slot
                order.append(slot)
            self.stock_order = tuple(order)
        self.stage = "play"
        self.declarer = leader
        self.draws_due: list[int] = []
        self.won_pile = [0, 0]
        self.used: list[Counter[Card]] = [Counter(), Counter()]
        self.brisques = [0, 0]
        self.meld_points = [0, 0]
        self.bonus_points = [0, 0]
        self.declared_now: list[MeldKind] = []
        self.exchange_slot: int | None = None
        self.exchanged = False
        self.deece_scored = 0
        self.forfeited = [False, False]
        self.events: list[Event] = []
        self.watch = RevokeWatch()
        self._actions: list[tuple[str, int, Card | None, dict[str, Any]]] = []
        self._kinds = {k.name: k for k in meld_kinds(trump, self.opts["bezique_pair"])}
        self.tricks_per_hand = TRICKS
        if turn_up.rank == "7" and self.opts["turned_seven_scores"]:
            self.deece_scored |= 1 << tu
            self._score(self.dealer, DEECE_POINTS, "bonus")
            self.events.append(TurnedSeven(self.dealer, DEECE_POINTS))
            self._check_target()

    # ----- knowledge --------------------------------------------------------------

    @property
    def hands_known(self) -> bool:
        return self.hands is not None

    def known_of(self, seat: int) -> int:
        """Cards known to be in `seat`'s hand (all of it when hands are known)."""
        return self.hands[seat] if self.hands is not None else self.known[seat]

    def unknown_of(self, seat: int) -> int:
        return 0 if self.hands is not None else self.unknown[seat]

    def hand_size_of(self, seat: int) -> int:
        return self.known_of(seat).bit_count() + self.unknown_of(seat)

    def unseen(self) -> int:
        """Cards whose place the engine does not know: in the face-down stock
        or in the unknown part of a hand."""
        m = self.pack.full_mask & ~self.played & ~self.known_of(0) & ~self.known_of(1)
        if self.bottom is not None:
            m &= ~(1 << self.bottom)
        if self.stock_order is not None:
            for s in self.stock_order[self.stock_pos:]:
                m &= ~(1 << s)
        return m

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn, the face-up one included."""
        return self.face_down + (1 if self.bottom is not None else 0)

    @property
    def stock_empty(self) -> bool:
        return self.stock_left == 0

    def context(self) -> dict[str, object]:
        return {"stock_empty": self.stock_empty}

    def hand_of(self, seat: int) -> list[Card]:
        return self.pack.cards_of(self.known_of(seat))

    def won_cards(self, seat: int) -> list[Card]:
        return self.pack.cards_of(self.won_pile[seat])

    def unused_won(self, seat: int) -> Counter[Card]:
        """The seat's won cards not yet used in a meld."""
        have = Counter(self.pack.cards_of(self.won_pile[seat]))
        have.subtract(self.used[seat])
        return Counter({c: n for c, n in have.items() if n > 0})

    # ----- questions ----------------------------------------------------------------

    def pending(self) -> tuple[str, int | None]:
        """(stage, seat): what the hand waits for."""
        if self.stage == "play":
            return "play", self.turn
        if self.stage == "meld":
            return "meld", self.declarer
        if self.stage == "draw":
            return "draw", self.draws_due[0]
        return "over", None

    def _window(self) -> tuple[Counter[Card], Counter[Card] | None]:
        """(pile before this trick's melds, trick cards or None) for the declarer."""
        pile = self.unused_won(self.declarer)
        for k in self.declared_now:
            pile.update(k.cards)
        trick = None
        if self.opts["meld_needs_current_trick_card"]:
            trick = Counter(self.tricks[-1].cards)
        return pile, trick

    def legal_melds(self) -> list[MeldKind]:
        """The melds the declarer may declare now (empty outside the meld stage)."""
        if self.stage != "meld":
            return []
        pile, trick = self._window()
        return legal_melds(pile, self.trump or "", trick=trick, declared=self.declared_now,
                           bezique_pair=self.opts["bezique_pair"])

    def can_exchange(self) -> bool:
        """May the declarer exchange the Seven of trumps for the turned-up card now?"""
        return (self.stage == "meld" and self.exchange_slot is not None and not self.exchanged
                and self.bottom == self.turn_up_slot)

    def _legal(self, seat: int, hand: int) -> int:
        if not self.stock_empty or not self.trick:
            return hand
        out = 0
        for s in iter_bits(hand):
            if follower_refusal(self.tables, self.trick[0], s, hand, 0, 0, False) is None:
                out |= 1 << s
        return out

    def legal_mask(self, seat: int | None = None) -> int:
        """The legal set (hands known) or the set not provably illegal."""
        seat = self.turn if seat is None else seat
        if self.stage != "play" or seat != self.turn:
            return 0
        if self.hands is not None:
            return self._legal(seat, self.hands[seat])
        known, unknown = self.known[seat], self.unknown[seat]
        candidates = known | (self.unseen() if unknown else 0)
        if not self.stock_empty or not self.trick:
            return candidates
        unseen = self.unseen()
        out = 0
        for s in iter_bits(candidates):
            from_unknown = not known >> s & 1
            if follower_refusal(self.tables, self.trick[0], s, known, unknown, unseen,
                                from_unknown) is None:
                out |= 1 << s
        return out

    # ----- playing ----------------------------------------------------------------

    def _locate(self, seat: int, c: Card) -> tuple[int, bool]:
        """(slot, came from the unknown part) of the copy of `c` the seat plays."""
        slots = self.pack.slots_of(c)
        mine = [s for s in slots if self.known_of(seat) >> s & 1]
        if mine:
            # Identical cards: a copy that already scored a deece goes first.
            mine.sort(key=lambda s: not self.deece_scored >> s & 1)
            return mine[0], False
        if self.unknown_of(seat) > 0:
            unseen = self.unseen()
            for s in slots:
                if unseen >> s & 1:
                    return s, True
        params = self._params(seat, card=c.code)
        if all(self.played >> s & 1 for s in slots):
            raise Refusal("already_played", **params)
        raise Refusal("not_in_hand", **params)

    def _expect(self, stage: str, seat: int, turn: int) -> None:
        if self.stage == "over":
            raise Refusal("hand_over")
        if self.stage != stage:
            raise Refusal("not_expected", **self._params(seat, step=self.stage))
        if seat != turn:
            raise Refusal("not_your_turn", **self._params(seat, turn=turn))

    def _validate(self, seat: int, card: Card | str) -> tuple[Card, int]:
        c, slot, _ = self._validate_play(seat, card)
        return c, slot

    def _validate_play(self, seat: int, card: Card | str) -> tuple[Card, int, bool]:
        if self.stage == "over":
            raise Refusal("hand_over")
        c = card if isinstance(card, Card) else self.pack.parse(card)
        if c not in self.pack:
            raise UnknownCard(c.code, self.pack.name)
        self._expect("play", seat, self.turn)
        slot, from_unknown = self._locate(seat, c)
        if self.stock_empty and self.trick:
            refused = follower_refusal(self.tables, self.trick[0], slot, self.known_of(seat),
                                       self.unknown_of(seat), self.unseen(), from_unknown)
            if refused is not None:
                reason, suit = refused
                raise Refusal(reason, **self._params(seat, card=c.code, suit=suit))
        return c, slot, from_unknown

    def play(self, seat: int, card: Card | str) -> PlayOutcome:
        """Play a card; raises `IllegalPlay` (nothing changes) when refused."""
        c, slot, from_unknown = self._validate_play(seat, card)
        return self._apply_play(seat, c, slot, from_unknown)

    def _apply_play(self, seat: int, c: Card, slot: int, from_unknown: bool) -> PlayOutcome:
        self._begin("play", seat, c)
        revoke: Revoke | None = None
        t = self.tables
        if self.hands is None and self.stock_empty:
            revoke = self.watch.check(t, seat, slot)
            if revoke is not None:
                self.revokes.append(revoke)
                self.watch.forget(seat, revoke, t, slot)
                self._forfeit(seat)
            if self.trick:
                self.watch.record(t, seat, self.trick[0], slot, len(self.tricks) + 1)
        if self.hands is not None:
            self.hands[seat] &= ~(1 << slot)
        elif from_unknown:
            self.unknown[seat] -= 1
        else:
            self.known[seat] &= ~(1 << slot)
        self.played |= 1 << slot
        self.trick.append(slot)
        done: Trick | None = None
        if len(self.trick) == 2:
            done = self._close_trick()
        else:
            self.turn = 1 - seat
        if revoke is not None and not self.finished:
            self._check_target()  # points a forfeit moved may end the game
        return PlayOutcome(seat, c, done, revoke, self.finished)

    def _winner_index(self, slots: Sequence[int]) -> int:
        t = self.tables
        idx = t.winner_index(slots)
        first, second = slots
        identical = self.pack.cards[first] == self.pack.cards[second]
        if identical and not self.stock_empty and not self.opts["tie_rule_phase1"]:
            return 1
        return idx

    def _close_trick(self) -> Trick:
        t = self.tables
        slots = list(self.trick)
        number = len(self.tricks) + 1
        winner = (self.leader + self._winner_index(slots)) % 2
        brisques = sum(t.points[s] for s in slots)
        deece = 0
        exchange_slot: int | None = None
        for i in deece_cards([self.pack.cards[s] for s in slots],
                             [bool(self.deece_scored >> s & 1) for s in slots], self.leader,
                             winner, self.trump, self.opts["deece_trigger"]):
            s = slots[i]
            self.deece_scored |= 1 << s
            deece += DEECE_POINTS
            exchange_slot = s
        last = last_trick_points(number, self.opts["last_trick_bonus"])
        done = Trick(number, self.leader, tuple(self.pack.cards[s] for s in slots), winner,
                     brisques)
        self.tricks.append(done)
        self.won[winner] += 1
        for s in slots:
            self.won_pile[winner] |= 1 << s
        scorer = winner
        if self.forfeited[winner] and number > STOCK_TRICKS:
            scorer = 1 - winner
        self._score(scorer, brisques, "brisques")
        self._score(scorer, deece + last, "bonus")
        self.events.append(TrickScore(done, brisques, deece, last,
                                      -1 if scorer == winner else scorer))
        self.trick = []
        self.leader = self.turn = winner
        self.declarer = winner
        self.declared_now = []
        self.exchange_slot = exchange_slot if number <= STOCK_TRICKS else None
        if self._check_target():
            return done
        self.stage = "meld"
        self._skip_empty_window()
        return done

    # ----- scoring ----------------------------------------------------------------

    def _score(self, seat: int, pts: int, kind: str) -> None:
        if not pts:
            return
        self.points[seat] += pts
        if kind == "brisques":
            self.brisques[seat] += pts
        elif kind == "melds":
            self.meld_points[seat] += pts
        else:
            self.bonus_points[seat] += pts

    def _forfeit(self, seat: int) -> None:
        """Option `revoke_penalty: forfeit_last_eight` after a proven revoke."""
        if self.opts["revoke_penalty"] != "forfeit_last_eight" or self.forfeited[seat]:
            return
        self.forfeited[seat] = True
        moved = 0
        for i, e in enumerate(self.events):
            if (isinstance(e, TrickScore) and e.trick.number > STOCK_TRICKS
                    and e.trick.winner == seat and e.credited == seat):
                self.events[i] = TrickScore(e.trick, e.brisques, e.deece, e.last, 1 - seat)
                for pts, kind in ((e.brisques, "brisques"), (e.deece + e.last, "bonus")):
                    self._score(seat, -pts, kind)
                    self._score(1 - seat, pts, kind)
                moved += e.total
        self.events.append(Forfeit(seat, moved))

    def reached_target(self) -> int | None:
        """The seat whose match total has reached the target (immediate end)."""
        for seat in (0, 1):
            if self.start_score[seat] + self.points[seat] >= self.target:
                return seat
        return None

    def _check_target(self) -> bool:
        if self.opts["game_end"] == "immediate" and self.reached_target() is not None:
            self._finish()
            return True
        return False

    def _finish(self) -> None:
        self.stage = "over"
        self.finished = True
        self.draws_due = []

    # ----- the end game, for the solver ---------------------------------------------

    def endgame_scoring(self) -> tuple[EndgameScoring, EndState]:
        """What the rest of the hand can score beyond brisques (its rules, and
        where each seat stands: unused won cards, Sevens of trumps in hand or
        led to the trick under way that already scored a deece): for the
        solver of the end game."""
        opts = self.opts
        scoring = EndgameScoring(self.trump or "", opts["deece_trigger"],
                                 opts["last_trick_bonus"],
                                 opts["meld_needs_current_trick_card"], opts["bezique_pair"])
        scored = [0, 0]
        for seat in (0, 1):
            mine = self.known_of(seat)
            if self.trick and seat == self.leader:
                mine |= 1 << self.trick[0]   # the card led to the trick under way
            for s in iter_bits(mine & self.deece_scored):
                scored[seat] += is_deece_card(self.pack.cards[s], self.trump)
        piles = (scoring.pile(self.unused_won(0)), scoring.pile(self.unused_won(1)))
        return scoring, EndState(piles, (scored[0], scored[1]))

    # ----- melds and the deece ------------------------------------------------------

    def _meld_kind(self, name: object) -> MeldKind:
        kind = self._kinds.get(name) if isinstance(name, str) else None
        if kind is None:
            raise BadRequest(f'"{name}" is not a meld; with {self.trump} trumps the melds are '
                             + ", ".join(self._kinds))
        return kind

    def check_melds(self, seat: int, names: Sequence[str]) -> list[MeldKind]:
        """Raise `IllegalPlay` unless the declarer may declare all these melds
        now (after those already declared for this trick); change nothing."""
        self._expect("meld", seat, self.declarer)
        kinds = [self._meld_kind(n) for n in names]
        if not kinds:
            return kinds
        pile, trick = self._window()
        problem = combination_problem([*self.declared_now, *kinds], pile, trick)
        if problem is not None:
            raise Refusal(problem, **self._params(seat, meld=", ".join(names)))
        return kinds

    def declare_all(self, seat: int, names: Sequence[str], exchange: bool = False) -> None:
        """The declarer's whole turn at once (the referee's `meld`): exchange
        the Seven of trumps if asked, declare these melds, declare nothing
        more. Refused as a whole when any part is refused (undo with `undo_to`)."""
        self.check_melds(seat, [])
        if exchange:
            self.exchange(seat)
        if names:
            if self.stage != "meld":  # the exchange was all there was to do
                raise Refusal("meld_cards_missing", seat=seat, meld=", ".join(names))
            self.check_melds(seat, names)
        for name in names:
            self.declare(seat, name)
        if self.stage == "meld":
            self.close_melds(seat)

    def declare(self, seat: int, name: str) -> MeldKind:
        """The declarer declares the meld called `name` (see `meld_kinds`)."""
        kind = self.check_melds(seat, [name])[0]
        self._begin("meld", seat, None, meld=name)
        self.used[seat].update(kind.cards)
        self.declared_now.append(kind)
        self._score(seat, kind.points, "melds")
        self.events.append(Declared(seat, len(self.tricks), kind))
        if not self._check_target():
            self._skip_empty_window()
        return kind

    def exchange(self, seat: int) -> Exchanged:
        """The deece exchange (see the option `deece_exchange_to`)."""
        self._expect("meld", seat, self.declarer)
        if not self.can_exchange():
            raise Refusal("no_exchange", **self._params(seat))
        assert self.exchange_slot is not None and self.bottom is not None
        self._begin("exchange", seat, None)
        seven, tu = self.exchange_slot, self.bottom
        if self.opts["deece_exchange_to"] == "won_pile":
            # The turned-up card joins the won cards; the Seven goes under the stock.
            self.won_pile[seat] = (self.won_pile[seat] & ~(1 << seven)) | (1 << tu)
            self.played = (self.played & ~(1 << seven)) | (1 << tu)
            self.bottom = seven
        else:
            # The turned-up card is taken into the hand as this trick's draw.
            self._give(seat, tu)
            self.bottom = None
        self.exchanged = True
        done = Exchanged(seat, self.pack.cards[tu], self.pack.cards[seven])
        self.events.append(done)
        self._skip_empty_window()
        return done

    def close_melds(self, seat: int) -> None:
        """The declarer declares nothing more after this trick."""
        self._expect("meld", seat, self.declarer)
        self._begin("pass", seat, None)
        self._close_window()

    def move_on(self, seat: int, playing: bool = False) -> None:
        """`seat` acts on without saying what it skipped (the referee's
        requests): the declarer who draws or plays declares nothing more, and
        when the next leader plays, the draws nobody reported were made
        unseen (the drawn cards join the hands as unknown cards). Only the
        next leader may play before the melds and draws are over."""
        if playing and self.stage in ("meld", "draw") and seat != self.leader:
            raise Refusal("not_your_turn", seat=seat, turn=self.leader,
                          family=self.pack.family)
        if self.stage == "meld" and seat == self.declarer:
            self.close_melds(seat)
        if playing and self.stage == "draw" and seat == self.leader:
            self.draw_unreported()

    def draw_unreported(self) -> list[Drawn]:
        """The one policy for draws nobody reports: every draw still due is
        made unseen (the drawn card joins the drawer's hand as an unknown
        card). The table's flow applies it as soon as the draws are due when
        it does not know the hands (no drawn card can be checked); the
        referee when the next leader plays without the draws reported
        (`move_on`). Returns the draws made."""
        drawn: list[Drawn] = []
        while self.stage == "draw":
            drawn.append(self.draw(self.draws_due[0], None))
        return drawn

    def _skip_empty_window(self) -> None:
        if self.stage == "meld" and not self.can_exchange() and not self.legal_melds():
            self._close_window()

    def _close_window(self) -> None:
        number = len(self.tricks)
        if number >= TRICKS:
            self._finish()
            return
        if self.stock_left:
            winner = self.declarer
            due = [winner, 1 - winner]
            if self.exchanged and self.opts["deece_exchange_to"] == "hand" and \
                    self._took_turn_up_now():
                due = [1 - winner]
            self.stage = "draw"
            self.draws_due = due
            self._auto_draws()
        else:
            self.stage = "play"
            self.turn = self.leader

    def _took_turn_up_now(self) -> bool:
        """Did the declarer take the turned-up card into his hand after this trick?"""
        for e in reversed(self.events):
            if isinstance(e, TrickScore):
                return False
            if isinstance(e, Exchanged):
                return True
        return False

    # ----- drawing ----------------------------------------------------------------

    def next_draw_known(self) -> Card | None:
        """The card the next draw takes when the engine knows it (else None)."""
        if self.stage != "draw":
            return None
        if self.face_down == 0 and self.bottom is not None:
            return self.pack.cards[self.bottom]
        if self.stock_order is not None:
            return self.pack.cards[self.stock_order[self.stock_pos]]
        return None

    def _auto_draws(self) -> None:
        while self.stage == "draw" and self.next_draw_known() is not None:
            self._take(self.draws_due[0], None)

    def draw(self, seat: int, card: Card | str | None = None) -> Drawn:
        """`seat` draws from the stock. `card` is what was drawn when the table
        saw it, or None. Draws the engine can name itself happen without this."""
        self._expect("draw", seat, self.draws_due[0] if self.draws_due else -1)
        c = None
        if card is not None:
            c = card if isinstance(card, Card) else self.pack.parse(card)
            if c not in self.pack:
                raise UnknownCard(c.code, self.pack.name)
        known = self.next_draw_known()
        if c is not None:
            if known is not None and c != known:
                raise Refusal("not_in_stock", **self._params(seat, card=c.code))
            if known is None and self.pack.slot(c, self.unseen()) < 0:
                raise Refusal("not_in_stock", **self._params(seat, card=c.code))
        self._begin("draw", seat, c)
        done = self._take(seat, c)
        self._auto_draws()
        return done

    def _take(self, seat: int, c: Card | None) -> Drawn:
        if self.face_down == 0:
            assert self.bottom is not None
            slot: int | None = self.bottom
            self.bottom = None
        else:
            self.face_down -= 1
            if self.stock_order is not None:
                slot = self.stock_order[self.stock_pos]
                self.stock_pos += 1
            elif c is not None:
                slot = self.pack.slot(c, self.unseen())
            else:
                slot = None
        if slot is None:
            if self.hands is not None:
                self.known = list(self.hands)
                self.unknown = [0, 0]
                self.hands = None
            self.unknown[seat] += 1
            drawn = Drawn(seat, None)
        else:
            self._give(seat, slot)
            drawn = Drawn(seat, self.pack.cards[slot])
        self.events.append(drawn)
        self.draws_due.pop(0)
        if not self.draws_due:
            self.stage = "play"
            self.turn = self.leader
        return drawn

    def _give(self, seat: int, slot: int) -> None:
        if self.hands is not None:
            self.hands[seat] |= 1 << slot
        else:
            self.known[seat] |= 1 << slot

    # ----- undo -------------------------------------------------------------------

    def _save(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _STATE_FIELDS:
            v = getattr(self, name)
            if isinstance(v, list):
                v = [Counter(x) if isinstance(x, Counter) else x for x in v]
            out[name] = v
        out["watch"] = self.watch.copy()
        return out

    def _restore(self, saved: dict[str, Any]) -> None:
        for name, v in saved.items():
            setattr(self, name, v)

    def _begin(self, action: str, seat: int, card: Card | None, **data: Any) -> None:
        self._actions.append((action, seat, card, self._save()))

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    @property
    def actions_done(self) -> int:
        return len(self._actions)

    # A Fildinsky action is a play, a meld, an exchange or a draw: undo says which
    # (an `Undone`), where `Deal.undo` can only answer a play.
    def undo(self) -> Undone:  # type: ignore[override]  # answers any action, see above
        """Take back the last action; the state is exactly as before it."""
        if not self._actions:
            raise Refusal("nothing_to_undo")
        action, seat, card, saved = self._actions.pop()
        self._restore(saved)
        return Undone(action, seat, card)

    def undo_to(self, actions: int) -> None:
        """Take back every action after the first `actions`."""
        while len(self._actions) > actions:
            self.undo()

    def snapshot(self) -> tuple[object, ...]:
        saved = self._save()
        watch = saved.pop("watch")
        parts: list[object] = []
        for name in _STATE_FIELDS:
            v = saved[name]
            if isinstance(v, list):
                v = tuple(tuple(sorted(x.items(), key=lambda kv: kv[0].code))
                          if isinstance(x, Counter) else x for x in v)
            parts.append(v)
        parts.append((tuple(tuple(sorted(v.items())) for v in watch.voids),
                      tuple(tuple(sorted((e, tuple(c)) for e, c in s.items()))
                            for s in watch.ceilings)))
        parts.append(len(self._actions))
        return tuple(parts)

    # ----- random play ------------------------------------------------------------

    def step_randomly(self, rng: random.Random) -> None:
        """One random action of whoever the hand waits for (bots, tests)."""
        stage, seat = self.pending()
        assert seat is not None
        if stage == "play":
            mask = self.legal_mask(seat)
            slots = list(iter_bits(mask))
            slot = rng.choice(slots)
            self.play(seat, self.pack.cards[slot])
        elif stage == "meld":
            options: list[str] = [k.name for k in self.legal_melds()]
            if self.can_exchange():
                options.append("exchange")
            choice = rng.choice([*options, "pass"])
            if choice == "pass":
                self.close_melds(seat)
            elif choice == "exchange":
                self.exchange(seat)
            else:
                self.declare(seat, choice)
        elif stage == "draw":
            self.draw(seat, None)

    def playout(self, rng: random.Random) -> None:
        """Random actions to the end of the hand."""
        while not self.finished:
            self.step_randomly(rng)
