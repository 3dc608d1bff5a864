"""One hand of trick play: whose turn, `play` (always validated), `undo`.

Two ways of knowing the cards:

* **hands known** (`hands` given): an illegal play raises `IllegalPlay` and
  changes nothing.
* **hands unknown** (`hands=None`): the deal checks the turn, that the card is
  in the pack, not already played and not known to be someone else's; it
  tracks the voids each seat has shown and reports a `Revoke` the moment a
  play proves one: a seat that fails to follow (or to trump) while it still
  holds a public card of that suit (`known`: shown for trumps, cut cards
  shown, melds on the table, the turn-up) revokes at that very play; a seat
  that showed a void and later plays a card of that suit revoked back then.
  The play itself is accepted: the cards are on the table already.

Games with extra steps (binding, melds, draws) subclass `Deal` and override the
`_legal` hook or wrap `play`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple, Protocol

from engine.cards import CARD_CODES, TRUMP, Card
from engine.errors import BadRequest, IllegalPlay, UnknownCard
from engine.legal import follow_by_slot, legal_mask, refusal
from engine.packs import Pack, iter_bits, slot_tables
from engine.ranking import Ranking


class DealRules(Protocol):
    """What a deal asks of its game (`engine.game.Game` provides it all)."""

    @property
    def id(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def tricks_per_hand(self) -> int: ...
    @property
    def legal_family(self) -> str: ...
    @property
    def pack(self) -> Pack: ...
    @property
    def undertrump_required(self) -> bool: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def ranking(self) -> Ranking: ...
    @property
    def refusal(self) -> type[IllegalPlay]: ...

    def team_of(self, seat: int) -> int: ...
    def team_points(self, deal: Deal) -> list[int]: ...
    def team_tricks(self, deal: Deal) -> list[int]: ...
    def is_decided(self, deal: Deal) -> bool: ...
    def legal_subset(self, trump: str | None, trick: Sequence[Card], hand: Sequence[Card],
                     **context: Any) -> list[Card]: ...


class Trick(NamedTuple):
    """A finished trick. `number` counts from 1; `winner` is a seat."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def to_json(self) -> dict[str, int]:
        """The referee's `trick`: `{"winner": seat, "points": n}`."""
        return {"winner": self.winner, "points": self.points}


@dataclass(frozen=True, slots=True)
class Revoke:
    """Proof that `seat` revoked at trick `trick` (counted from 1) in `suit`:
    it showed a void in that suit there while holding a public card of it,
    or later played a card of it. `suit` is a suit letter; for trumps, the
    trump suit's letter."""

    seat: int
    trick: int
    suit: str

    def to_json(self) -> dict[str, int | str]:
        """The referee's `revoke`: `{"seat": s, "trick": n, "suit": letter}`."""
        return {"seat": self.seat, "trick": self.trick, "suit": self.suit}


class PlayOutcome(NamedTuple):
    """What one accepted play did."""

    seat: int
    card: Card
    trick: Trick | None = None
    revoke: Revoke | None = None
    hand_over: bool = False

    def to_json(self) -> dict[str, Any]:
        """What the play proved and closed, as the referee's `play` answer
        tells it: `revoke` and `trick` when there are any, in that order."""
        out: dict[str, Any] = {}
        if self.revoke is not None:
            out["revoke"] = self.revoke.to_json()
        if self.trick is not None:
            out["trick"] = self.trick.to_json()
        return out


#: `Trick(...)` and `PlayOutcome(...)` from a ready tuple, without the
#: keyword handling of a named tuple's constructor (the hot paths make one
#: per play or per trick).
_trick: Callable[[tuple[int, int, tuple[Card, ...], int, int]], Trick] = \
    partial(tuple.__new__, Trick)
_outcome: Callable[[tuple[int, Card, Trick | None, Revoke | None, bool]], PlayOutcome] = \
    partial(tuple.__new__, PlayOutcome)

#: One play as `undo` takes it back: seat, slot, the seat's voids and void
#: tricks before it (hands unknown), the number of revokes before it, and
#: the trick it closed.
_Play = tuple[int, int, int, tuple[int, ...], int, "Trick | None"]
#: A history entry: a `_Play`; a whole `Trick` (`_playout_known`); or, for
#: the commonest play (hands known, no revoke on record, no trick closed), the
#: int `slot << 3 | seat`: voids unchanged, no revoke before it, no trick.
_Entry = _Play | Trick | int

@cache
def _plain_outcomes(pack: Pack) -> tuple[PlayOutcome, ...]:
    """The outcome of a play that closes no trick and proves no revoke
    depends on the seat and the card alone: one shared object each (outcomes
    are immutable), at `slot << 3 | seat`, made on the pack's first deal."""
    return tuple(PlayOutcome(seat, c) for c in pack.cards for seat in range(8))


#: `Deal._fast_slot` of a class that checks or plays its own way: no card has a slot.
_NO_SLOTS = (1 << 10,) * CARD_CODES

#: The methods a subclass overrides when its play differs from `Deal`'s; a
#: class that overrides none of them plays out through `_playout_known`.
_PLAY_HOOKS = ("_legal", "legal_mask", "_turn_legal", "_apply", "_close_trick", "_is_over",
               "_track_voids", "_mark_void")


@cache
def _voids_shown(family: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """`[led][e]`: the effective suits in which a seat that plays a card of
    effective suit `e` to a trick led in `led` shows it holds none, in the
    order they are checked: the led suit when it does not follow; trumps too
    when the family has a duty to trump and neither suit is trumps."""
    trumping = family in ("FT", "UB", "BE")
    return tuple(
        tuple(() if e == led else (led, TRUMP) if trumping and TRUMP not in (e, led) else (led,)
              for e in range(5))
        for led in range(5))


class Deal:
    """The play of one hand.

    `leader` is the seat that leads the first trick. `hands`, when given, is
    every seat's cards; `known` (hands unknown) may name cards known to be in a
    seat's hand, such as the dealer's shown trump cards.
    """

    #: The trick's winning card so far, kept by `_apply` as cards are played:
    #: (the slots that bid for this trick, the winning card's power, its
    #: index in the trick).
    _win: tuple[int, int, int]
    #: Does this class play as `Deal` does (no hook of `_PLAY_HOOKS` overridden)?
    _plain_play: ClassVar[bool] = True
    #: Does this class answer legal sets as `Deal` does (`_legal`, `legal_mask`)?
    _plain_legal: ClassVar[bool] = True
    #: Does this class check plays as `Deal` does (`_validate`)?
    _plain_validate: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._plain_play = all(getattr(cls, name) is getattr(Deal, name) for name in _PLAY_HOOKS)
        cls._plain_legal = all(getattr(cls, name) is getattr(Deal, name)
                               for name in ("_legal", "legal_mask"))
        cls._plain_validate = cls._validate is Deal._validate

    #: What a deal's game and trump fix (the game, its pack, the tables built
    #: from them): play never changes them, so a copy shares them. Copying them
    #: cost most of a copy's time (a bot trying a card on a copy of the hand,
    #: a reading of the hand taken back and replayed).
    _FIXED: ClassVar[tuple[str, ...]] = ("game", "pack", "tables", "_bytes4", "_outcomes",
                                         "_follow", "_fast_slot")

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        fixed = self._FIXED
        for name, value in self.__dict__.items():
            new.__dict__[name] = value if name in fixed else copy.deepcopy(value, memo)
        return new

    def __init__(
        self,
        game: DealRules,
        trump: str | None,
        leader: int,
        hands: Sequence[Iterable[Card]] | None = None,
        *,
        known: Mapping[int, Iterable[Card]] | None = None,
    ) -> None:
        self.game = game
        self.n = game.players
        if not 0 <= leader < self.n:
            raise BadRequest(f"leader must be a seat 0..{self.n - 1}")
        self.pack = game.pack
        # Keep a deal's attributes under 30: beyond, CPython 3.11 stops sharing
        # the instance dict's keys and every attribute costs more (issue 15).
        first_slot, _, self._bytes4 = slot_tables(self.pack)
        #: A card's slot for `play`'s fast path: its first slot, or a bit no
        #: set holds (a card not in the pack; every card for a class that
        #: checks or plays cards its own way: `_validate`, `_PLAY_HOOKS`).
        self._fast_slot = (first_slot if type(self)._plain_validate and type(self)._plain_play
                           else _NO_SLOTS)
        self._outcomes = _plain_outcomes(self.pack)
        self.trump = trump
        self.tables = game.ranking.tables(trump)
        self.family = game.legal_family
        #: For a class that answers legal sets as `Deal` does, with a family
        #: whose sets depend on the led suit alone: `follow_by_slot` (the
        #: family and the tables are fixed). None: ask `_legal`.
        self._follow = (follow_by_slot(self.family, self.tables) if type(self)._plain_legal
                        else None)
        self.tricks_per_hand = game.tricks_per_hand
        self._win = (0, -1, 0)
        self.hands: list[int] | None = None
        if hands is not None:
            self.hands = self._check_hands(hands)
        self.known = [0] * self.n
        for seat, cs in (known or {}).items():
            self.known[seat] = self.pack.mask(cs)
        self.played = 0
        self.leader = leader
        self.turn = leader
        self.trick: list[int] = []
        self.tricks: list[Trick] = []
        self.points = [0] * self.n
        self.won = [0] * self.n
        self.voids = [0] * self.n
        self.void_trick = [[0] * 5 for _ in range(self.n)]
        self.revokes: list[Revoke] = []
        self.finished = False
        self._history: list[_Entry] = []
        # The legal set of the seat to play, cached until the next play or undo
        # or a change of that seat's hand: a bot asks for it and then plays,
        # which validates against it again. A subclass whose `_legal` depends on
        # other state must call `_changed()` when that state changes.
        self._legal_cache = -1
        self._legal_cache_hand = -1

    # ----- construction helpers -------------------------------------------------

    def _check_hands(self, hands: Sequence[Iterable[Card]]) -> list[int]:
        if len(hands) != self.n:
            raise BadRequest(f"{self.game.id} needs {self.n} hands, got {len(hands)}")
        pack = self.pack
        by_index = pack._by_index
        masks: list[int] = []
        seen = 0
        for seat, cs in enumerate(hands):
            cs = list(cs)
            if len(cs) != self.game.hand_size:
                raise BadRequest(
                    f"seat {seat} has {len(cs)} cards; {self.game.id} deals "
                    f"{self.game.hand_size}")
            m = 0
            for c in cs:
                for slot in by_index[c.index]:
                    if not (seen | m) >> slot & 1:
                        m |= 1 << slot
                        break
                else:
                    if c not in pack:
                        raise UnknownCard(c.code, pack.name)
                    raise BadRequest(f"{c} is dealt more often than the pack holds it")
            seen |= m
            masks.append(m)
        return masks

    # ----- questions ------------------------------------------------------------

    @property
    def undertrump(self) -> bool:
        """Must a seat that cannot beat a trump trick still trump (UB, BE)?"""
        return self.game.undertrump_required

    @property
    def hands_known(self) -> bool:
        return self.hands is not None

    @property
    def trick_number(self) -> int:
        """The trick being played now, counted from 1."""
        return len(self.tricks) + 1

    @property
    def current_trick(self) -> list[Card]:
        cards = self.pack.cards
        return [cards[s] for s in self.trick]

    def hand_of(self, seat: int) -> list[Card]:
        """The cards `seat` still holds (hands known), or those known to be its."""
        m = self.hands[seat] if self.hands is not None else self.known[seat] & ~self.played
        return self.pack.cards_of(m)

    def team_points(self) -> list[int]:
        return self.game.team_points(self)

    def team_tricks(self) -> list[int]:
        return self.game.team_tricks(self)

    def _legal(self, seat: int, hand: int) -> int:
        """Hook: the legal subset of `hand` for `seat` now. Games override it
        (and call `_changed()` when state it reads changes outside play/undo)."""
        return legal_mask(self.family, self.tables, hand, self.trick, self.undertrump)

    def legal_mask(self, seat: int | None = None) -> int:
        """The legal set as slots (hands known), or the plausible set (hands unknown)."""
        seat = self.turn if seat is None else seat
        if self.finished or seat != self.turn:
            return 0
        if self.hands is None:
            others = 0
            for s in range(self.n):
                if s != seat:
                    others |= self.known[s]
            return self.pack.full_mask & ~self.played & ~others
        return self._turn_legal()

    def _turn_legal(self) -> int:
        """The legal set of the seat to play (hands known), cached until the
        next change (see `_legal_cache`)."""
        assert self.hands is not None
        turn = self.turn
        hand = self.hands[turn]
        if self._legal_cache < 0 or self._legal_cache_hand != hand:
            trick = self.trick
            follow = self._follow   # `Deal._legal`, without its calls
            if follow is None:
                self._legal_cache = self._legal(turn, hand)
            elif not trick:
                self._legal_cache = hand
            else:
                first, second = follow[trick[0]]
                self._legal_cache = hand & first or hand & second or hand
            self._legal_cache_hand = hand
        return self._legal_cache

    def _changed(self) -> None:
        """Forget cached answers: call after changing state `_legal` depends on."""
        self._legal_cache = -1

    def legal_cards(self, seat: int | None = None) -> Iterator[Card]:
        """The cards the seat to play may play (each code once)."""
        hands = self.hands
        follow = self._follow
        if (follow is not None and hands is not None and not self.finished
                and (seat is None or seat == self.turn)):
            # What `legal_mask` answers here: `_turn_legal`, without its call.
            mask = self._legal_cache
            hand = hands[self.turn]
            if mask < 0 or self._legal_cache_hand != hand:
                trick = self.trick
                if trick:
                    first, second = follow[trick[0]]
                    mask = hand & first or hand & second or hand
                else:
                    mask = hand
                self._legal_cache = mask
                self._legal_cache_hand = hand
        else:
            mask = self.legal_mask(seat)
        b = self._bytes4
        if b is not None:     # `SlotTables.cards_in`, inline: ready tuples of cards, joined
            b0, b1, b2, b3 = b
            if mask < 256:
                return iter(b0[mask])
            return iter(b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255]
                        + b3[mask >> 24])
        cards_in = slot_tables(self.pack).cards_in
        if cards_in is not None:       # a single pack of more slots
            return iter(cards_in(mask))
        cards = self.pack.cards
        out: list[Card] = []
        seen: set[Card] = set()
        for s in iter_bits(mask):
            c = cards[s]
            if c not in seen:
                seen.add(c)
                out.append(c)
        return iter(out)

    def context(self) -> dict[str, object]:
        """What a stateless legal question about this deal needs besides the
        trump, the trick and the hand (`Game.legal_subset(..., **context)`):
        nothing by default; Fildinsky says whether the stock is empty."""
        return {}

    def check(self, seat: int, card: Card | str) -> None:
        """Raise `IllegalPlay` if `seat` may not play `card` now; change nothing."""
        self._validate(seat, card)

    def is_legal(self, seat: int, card: Card | str) -> bool:
        try:
            self._validate(seat, card)
        except (IllegalPlay, UnknownCard):
            return False
        return True

    # ----- play and undo --------------------------------------------------------

    def _params(self, seat: int, **extra: object) -> dict[str, object]:
        return {"seat": seat, "family": self.pack.family, **extra}

    def _validate(self, seat: int, card: Card | str) -> tuple[Card, int]:
        if self.finished:
            raise IllegalPlay("hand_over")
        pack = self.pack
        c = card if isinstance(card, Card) else pack.parse(card)
        slots = pack._by_index[c.index]
        if not slots:
            raise UnknownCard(c.code, pack.name)
        if seat != self.turn:
            raise IllegalPlay("not_your_turn", **self._params(seat, turn=self.turn))
        if self.hands is not None:
            hand = self.hands[seat]
            for slot in slots:
                if hand >> slot & 1:
                    break
            else:
                if pack.slot(c, ~self.played) < 0:
                    raise IllegalPlay("already_played", **self._params(seat, card=c.code))
                raise IllegalPlay("not_in_hand", **self._params(seat, card=c.code))
            legal = self._legal_cache
            if legal < 0 or self._legal_cache_hand != hand:
                legal = self._turn_legal()
            if not legal >> slot & 1:
                reason, suit = self._refusal(seat, hand, slot)
                raise self.refused(reason, **self._params(seat, card=c.code, suit=suit))
            return c, slot
        if pack.slot(c, ~self.played) < 0:
            raise IllegalPlay("already_played", **self._params(seat, card=c.code))
        others = 0
        for s in range(self.n):
            if s != seat:
                others |= self.known[s]
        free = pack.slot(c, ~self.played & ~others)
        if free < 0:
            raise IllegalPlay("not_in_hand", **self._params(seat, card=c.code))
        own = pack.slot(c, ~self.played & self.known[seat])
        return c, (own if own >= 0 else free)

    def refused(self, reason: str, **params: object) -> IllegalPlay:
        """The refusal for `reason`, its sentence from the game's catalogue
        (a `_refusal` hook may answer one of the game's own codes)."""
        return self.game.refusal(reason, **params)

    def _refusal(self, seat: int, hand: int, slot: int) -> tuple[str, str]:
        """Hook: the reason code and suit for an illegal held card."""
        return refusal(self.family, self.tables, hand, self.trick, slot)

    def play(self, seat: int, card: Card | str) -> PlayOutcome:
        """Play `card` from `seat`. Raises `IllegalPlay` (nothing changes) when refused."""
        legal = self._legal_cache
        if legal >= 0 and type(card) is Card:
            # The legal set of this very position is known (`_turn_legal`, a
            # subset of the hand): a card of it, from the seat to play, is
            # what `_validate` accepts, at the slot it would pick (the card's
            # first slot in the hand). `_fast_slot` sends a class that checks
            # or plays its own way, and a card not in the pack, to `_validate`.
            slot = self._fast_slot[card.index]
            hands = self.hands
            if seat == self.turn and hands is not None and not self.finished:
                hand = hands[seat]
                if hand == self._legal_cache_hand and legal >> slot & 1:
                    if self.revokes:   # only an int play record says "none before it"
                        return self._apply(seat, card, slot)
                    # `_apply` for hands known, in locals (a property test
                    # holds the two to the same states and outcomes).
                    bit = 1 << slot
                    hands[seat] = hand ^ bit
                    self.played |= bit
                    trick = self.trick
                    trick.append(slot)
                    k = len(trick)
                    t = self.tables
                    if k == 1:
                        self._win = (t.bids[t.eff[slot]], t.power[slot], 0)
                    else:
                        bids, best, _ = self._win
                        if bids & bit and t.power[slot] > best:
                            self._win = (bids, t.power[slot], k - 1)
                    self._legal_cache = -1
                    n = self.n
                    key = slot << 3 | seat
                    if k < n:
                        self.turn = (seat + 1) % n
                        self._history.append(key)
                        return self._outcomes[key]
                    done = self._close_trick()
                    self._history.append((seat, slot, self.voids[seat], (), 0, done))
                    if self._is_over():
                        self.finished = True
                    return _outcome((seat, card, done, None, self.finished))
        c, slot = self._validate(seat, card)
        return self._apply(seat, c, slot)

    def playout(self, rng: random.Random) -> None:
        """Play the rest of the hand with uniformly random legal cards (hands
        known) or random plausible cards (hands unknown): for bots and analysis.
        Every play can be taken back with `undo`, as after `play`.

        Hands unknown, a seat whose every remaining card is known (shown) plays
        one of those, so that the hand can always be played to its end."""
        randrange = rng.randrange
        cards = self.pack.cards
        known = self.known
        hand_size = self.game.hand_size
        # A single pack (four byte tables, or more slots), played as `Deal` plays.
        plain = type(self)._plain_play and (self._bytes4 is not None
                                            or slot_tables(self.pack).cards_in is not None)
        fast = plain and (self.hands is None or self._follow is not None)
        while not self.finished:
            if fast and not self.trick:
                if self.hands is None:
                    self._playout_unknown(rng)
                else:
                    self._playout_known(rng)
                return
            seat = self.turn
            mask = self.legal_mask(seat)
            if self.hands is None:
                mine = known[seat] & ~self.played
                if mine and mine.bit_count() >= hand_size - len(self.tricks):
                    mask &= mine   # every card it still holds is known
            for _ in range(randrange(mask.bit_count())):
                mask &= mask - 1
            slot = (mask & -mask).bit_length() - 1
            self._apply(seat, cards[slot], slot)

    def _playout_known(self, rng: random.Random) -> None:
        """`playout` from the start of a trick, hands known, for a deal that
        plays as `Deal` does with a single pack and a legal family of
        `BY_LED_SUIT`: `_apply` and `_close_trick` unrolled into one loop over
        locals (a property test holds it to the same states as `play`). Each
        trick goes into the history whole, as its `Trick`; `undo` splits it
        into plays when it reaches it (`_split_trick`)."""
        t = self.tables
        eff, power, points_of, bids_of = t.eff, t.power, t.points, t.bids
        by_slot = self._follow   # `follow_by_slot(self.family, t)`: a plain class
        assert by_slot is not None and self.hands is not None
        cards = self.pack.cards
        n = self.n
        hands = self.hands
        tricks = self.tricks
        append = self._history.append
        points, won = self.points, self.won
        randrange = rng.randrange
        is_decided = self.game.is_decided
        last = self.tricks_per_hand
        played = self.played
        seat = self.turn
        followers = range(n - 1)
        while True:
            leader = seat
            h = hands[seat]
            m = h
            k = randrange(h.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            slot = low.bit_length() - 1
            hands[seat] = h ^ low
            played |= low
            trick = [cards[slot]]
            led = eff[slot]
            bids = bids_of[led]
            best = power[slot]
            winner = seat
            pts = points_of[slot]
            first, second = by_slot[slot]
            for _ in followers:
                seat = (seat + 1) % n
                h = hands[seat]
                m = h & first or h & second or h
                k = randrange(m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                low = m & -m
                slot = low.bit_length() - 1
                hands[seat] = h ^ low
                played |= low
                trick.append(cards[slot])
                if low & bids and power[slot] > best:
                    best = power[slot]
                    winner = seat
                pts += points_of[slot]
            done = _trick((len(tricks) + 1, leader, tuple(trick), winner, pts))
            tricks.append(done)
            points[winner] += pts
            won[winner] += 1
            append(done)
            self.leader = self.turn = seat = winner
            self.played = played
            if len(tricks) >= last or is_decided(self):
                self.finished = True
                break
        self._legal_cache = -1

    def _playout_unknown(self, rng: random.Random) -> None:
        """`playout` from the start of a trick, hands unknown, for a deal that
        plays as `Deal` does with a single pack: `_apply`, `_track_voids`,
        `_mark_void` and `_close_trick` unrolled into one loop over locals (a
        property test holds it to the same states as `play`)."""
        t = self.tables
        eff, power, points_of, bids_of, suit_mask = t.eff, t.power, t.points, t.bids, t.suit_mask
        shown = _voids_shown(self.family)
        letter = t.suit_letter
        cards = self.pack.cards
        n = self.n
        known = self.known
        everyone = 0
        for m in known:
            everyone |= m
        others = [everyone & ~m for m in known]   # a seat's own known cards stay open to it
        unplayed = self.pack.full_mask & ~self.played
        tricks = self.tricks
        append = self._history.append
        points, won, voids, void_trick, revokes = (self.points, self.won, self.voids,
                                                   self.void_trick, self.revokes)
        randrange = rng.randrange
        is_decided = self.game.is_decided
        last = self.tricks_per_hand
        hand_size = self.game.hand_size
        seat = self.turn
        while True:
            leader = seat
            number = len(tricks) + 1
            left = hand_size - number + 1   # cards each seat holds before it plays
            trick: list[Card] = []
            bids = best = winner = pts = 0
            row = shown[0]
            for i in range(n):
                m = unplayed & ~others[seat]
                mine = known[seat] & unplayed
                if mine and mine.bit_count() >= left:
                    m = mine       # every card it still holds is known
                k = randrange(m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                low = m & -m
                slot = low.bit_length() - 1
                e = eff[slot]
                void = prev_void = voids[seat]
                n_revokes = len(revokes)
                if void >> e & 1:                   # it showed a void in this suit
                    prev_tricks = tuple(void_trick[seat])
                    revokes.append(Revoke(seat, void_trick[seat][e], letter(e)))
                    voids[seat] = void = void & ~(1 << e)
                    void_trick[seat][e] = 0
                else:
                    prev_tricks = ()
                if i == 0:
                    row = shown[e]
                    bids = bids_of[e]
                    best = power[slot]
                    winner = seat
                    pts = points_of[slot]
                else:
                    for v in row[e]:                # it fails to follow (or to trump)
                        if mine & suit_mask[v]:
                            revokes.append(Revoke(seat, number, letter(v)))
                            break
                        if not void >> v & 1:
                            voids[seat] = void = void | 1 << v
                            void_trick[seat][v] = number
                    if low & bids and power[slot] > best:
                        best = power[slot]
                        winner = seat
                    pts += points_of[slot]
                unplayed ^= low
                trick.append(cards[slot])
                if i < n - 1:
                    append((seat, slot, prev_void, prev_tricks, n_revokes, None))
                    seat = (seat + 1) % n
            done = _trick((number, leader, tuple(trick), winner, pts))
            tricks.append(done)
            points[winner] += pts
            won[winner] += 1
            append((seat, slot, prev_void, prev_tricks, n_revokes, done))
            self.leader = self.turn = seat = winner
            self.played = self.pack.full_mask & ~unplayed
            if len(tricks) >= last or is_decided(self):
                self.finished = True
                break
        self._legal_cache = -1

    def _split_trick(self) -> None:
        """Replace a whole trick at the top of the history (`_playout_known`)
        by the n plays `_apply` would have recorded for it."""
        done = self._history.pop()
        assert isinstance(done, Trick)
        by_index = self.pack._by_index
        n_revokes = len(self.revokes)
        last = len(done.cards) - 1
        for i, c in enumerate(done.cards):
            seat = (done.leader + i) % self.n
            self._history.append((seat, by_index[c.index][0], self.voids[seat], (), n_revokes,
                                  done if i == last else None))

    def _apply(self, seat: int, c: Card, slot: int) -> PlayOutcome:
        bit = 1 << slot
        key = slot << 3 | seat
        hands = self.hands
        t = self.tables
        revoke: Revoke | None = None
        if hands is not None:
            hands[seat] &= ~bit
            prev: _Play | int = key if not self.revokes else (
                seat, slot, self.voids[seat], (), len(self.revokes), None)
        else:
            e = t.eff[slot]
            void = self.voids[seat]
            # The void tricks change only where a void is recorded (they were
            # 0) or cleared by a revoke: only then does undo need a copy.
            prev = (seat, slot, void, tuple(self.void_trick[seat]) if void >> e & 1 else (),
                    len(self.revokes), None)
            revoke = self._track_voids(seat, e)
        self.played |= bit
        trick = self.trick
        trick.append(slot)
        k = len(trick)
        # The trick's winning card so far, kept as it goes (`_close_trick`).
        if k == 1:
            self._win = (t.bids[t.eff[slot]], t.power[slot], 0)
        else:
            bids, best, _ = self._win
            if bids & bit and t.power[slot] > best:
                self._win = (bids, t.power[slot], k - 1)
        self._legal_cache = -1
        n = self.n
        if k < n:
            self.turn = (seat + 1) % n
            self._history.append(prev)
            if revoke is None:
                return self._outcomes[key]
            return _outcome((seat, c, None, revoke, False))
        done = self._close_trick()
        self._history.append((seat, slot, self.voids[seat], (), 0, done) if isinstance(prev, int)
                             else (seat, slot, prev[2], prev[3], prev[4], done))
        if self._is_over():
            self.finished = True
        return _outcome((seat, c, done, revoke, self.finished))

    def _track_trick(self) -> None:
        """Find the trick's winning card so far again (after an undo)."""
        t = self.tables
        trick = self.trick
        if not trick:
            return
        bids = t.bids[t.eff[trick[0]]]
        best, best_at = t.power[trick[0]], 0
        for i in range(1, len(trick)):
            s = trick[i]
            if bids >> s & 1 and t.power[s] > best:
                best, best_at = t.power[s], i
        self._win = (bids, best, best_at)

    def _track_voids(self, seat: int, e: int) -> Revoke | None:
        """Hands unknown: `seat` plays a card of effective suit `e`. A suit it
        showed void in proves a revoke back then; failing to follow (or to
        trump) shows voids (`_voids_shown`). A void's trick number is 0 while
        the void is not on record."""
        revoke = None
        bit = 1 << e
        if self.voids[seat] & bit:
            letter = self.tables.suit_letter(e)
            revoke = Revoke(seat, self.void_trick[seat][e], letter)
            self.revokes.append(revoke)
            self.voids[seat] &= ~bit
            self.void_trick[seat][e] = 0
        if self.trick:
            for v in _voids_shown(self.family)[self.tables.eff[self.trick[0]]][e]:
                proven = self._mark_void(seat, v)
                if proven is not None:
                    if revoke is None:
                        revoke = proven
                    break
        return revoke

    def _mark_void(self, seat: int, e: int) -> Revoke | None:
        """`seat` shows it has no card of effective suit `e`. If a public card
        of that suit is still known to be in its hand, that is a revoke now
        (returned, and recorded); otherwise the void is remembered."""
        if self.known[seat] & ~self.played & self.tables.suit_mask[e]:
            revoke = Revoke(seat, len(self.tricks) + 1, self.tables.suit_letter(e))
            self.revokes.append(revoke)
            return revoke
        if not self.voids[seat] >> e & 1:
            self.voids[seat] |= 1 << e
            self.void_trick[seat][e] = len(self.tricks) + 1
        return None

    def _close_trick(self) -> Trick:
        t = self.tables
        trick = self.trick
        winner = (self.leader + self._win[2]) % self.n
        points = t.points
        pts = 0
        for s in trick:
            pts += points[s]
        # A trick has two cards or more: `itemgetter` answers a tuple.
        done = _trick((len(self.tricks) + 1, self.leader, itemgetter(*trick)(self.pack.cards),
                       winner, pts))
        self.tricks.append(done)
        self.points[winner] += pts
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        self.turn = winner
        return done

    def _is_over(self) -> bool:
        return len(self.tricks) >= self.tricks_per_hand or self.game.is_decided(self)

    def undo(self) -> PlayOutcome:
        """Take back the last play; the state is exactly as before it."""
        if not self._history:
            raise IllegalPlay("nothing_to_undo")
        if isinstance(self._history[-1], Trick):
            self._split_trick()
        seat, slot, prev_void, prev_void_trick, n_revokes, done = self._pop_play()
        if done is not None:
            self.tricks.pop()
            self.points[done.winner] -= done.points
            self.won[done.winner] -= 1
            self.leader = done.leader
            # The trick's other slots are the previous n-1 plays, exactly as played.
            self.trick = [self._slot_played(h)
                          for h in self._history[len(self._history) - (self.n - 1):]]
            self.trick.append(slot)
        self.trick.pop()
        self.played &= ~(1 << slot)
        if self.hands is not None:
            self.hands[seat] |= 1 << slot
        if prev_void_trick:
            self.void_trick[seat] = list(prev_void_trick)
        else:   # voids this play recorded go back to 0
            added = self.voids[seat] & ~prev_void
            while added:
                low = added & -added
                self.void_trick[seat][low.bit_length() - 1] = 0
                added ^= low
        self.voids[seat] = prev_void
        del self.revokes[n_revokes:]
        self.turn = seat
        self.finished = False
        self._legal_cache = -1
        self._track_trick()
        return PlayOutcome(seat, self.pack.cards[slot])

    def _pop_play(self) -> _Play:
        h = self._history.pop()
        if type(h) is int:
            seat = h & 7
            return seat, h >> 3, self.voids[seat], (), 0, None
        assert not isinstance(h, Trick | int)   # `undo` splits a whole trick first
        return h

    @staticmethod
    def _slot_played(h: _Entry) -> int:
        if type(h) is int:
            return h >> 3
        assert not isinstance(h, Trick | int)   # a trick's plays are all split or all whole
        return h[1]

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def snapshot(self) -> tuple[object, ...]:
        """Everything that defines the state, for equality checks."""
        return (
            self.trump, self.leader, self.turn, tuple(self.trick), tuple(self.tricks),
            tuple(self.points), tuple(self.won), self.played,
            tuple(self.hands) if self.hands is not None else None,
            tuple(self.known), tuple(self.voids), tuple(tuple(v) for v in self.void_trick),
            tuple(self.revokes), self.finished,
            sum(self.n if isinstance(h, Trick) else 1 for h in self._history),
        )
