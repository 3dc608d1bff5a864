"""A hand of Sueca: follow suit only, and the denounce of a revoke (renúncia).

With `revoke_mode` `strict` this is a plain `Deal` of family F: a card that
fails to follow suit when the seat could is refused. With a `denounce_*` mode
the table accepts every card held (the cards are on the cloth already, as at a
real table); a failure to follow is remembered, not announced, and only an
opponent's denounce brings it out:

* hands known: the deal knows at once that a play was a revoke;
* hands unknown: a revoke is proven when the seat later plays the suit it
  showed void in (the generic void tracking of `Deal`, which the referee
  reports as the spec says).

A denounce of a proven revoke ends the hand with a penalty against the
revoking team; a false denounce is refused (`denounce_match_loss`) or ends the
hand with the penalty against the accusers (`denounce_hand_120`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.deal import Deal, DealRules, PlayOutcome, Revoke
from engine.games.sueca.messages import Refusal
from engine.legal import legal_mask

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence


@dataclass(frozen=True, slots=True)
class Penalty:
    """The hand ended by a denounce. `team` is the team that pays: the revoking
    team (`reason` "revoke") or the accusers (`reason` "false_denounce")."""

    team: int
    reason: str
    accuser: int
    accused: int
    revoke: Revoke | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"team": self.team, "reason": self.reason,
                                  "accuser": self.accuser, "accused": self.accused}
        if self.revoke is not None:
            out["revoke"] = {"seat": self.revoke.seat, "trick": self.revoke.trick,
                             "suit": self.revoke.suit}
        return out


class SuecaDeal(Deal):
    """A Sueca hand; see the module docstring for the two revoke modes."""

    def __init__(self, game: DealRules, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None, *,
                 known: Mapping[int, Iterable[Card]] | None = None) -> None:
        super().__init__(game, trump, leader, hands, known=known)
        self.denounce_mode = game.options["revoke_mode"] != "strict"
        self.penalty: Penalty | None = None
        self._finished_before_penalty = False
        #: The hand ended by a granted redeal claim (`end_by_redeal`).
        self.redealt = False

    def _legal(self, seat: int, hand: int) -> int:
        if self.denounce_mode:
            return hand
        return super()._legal(seat, hand)

    def _apply(self, seat: int, c: Card, slot: int) -> PlayOutcome:
        hidden: Revoke | None = None
        if self.denounce_mode and self.hands is not None and self.trick:
            strict = legal_mask("F", self.tables, self.hands[seat], self.trick)
            if not strict >> slot & 1:
                led = self.tables.eff[self.trick[0]]
                hidden = Revoke(seat, self.trick_number, self.tables.suit_letter(led))
        outcome = super()._apply(seat, c, slot)
        if hidden is not None:
            # Recorded after the history entry, so `undo` forgets it again.
            self.revokes.append(hidden)
        return outcome

    def held(self, seat: int) -> int:
        """How many cards `seat` still holds."""
        played = len(self.tricks) + (1 if self._in_trick(seat) else 0)
        return self.game.hand_size - played

    def _in_trick(self, seat: int) -> bool:
        return (seat - self.leader) % self.n < len(self.trick)

    def fully_known(self, seat: int) -> int:
        """With hands unknown: the seat's remaining cards when all of them are
        known (shown for a redeal claim), else 0."""
        if self.hands is not None:
            return 0
        mine = self.known[seat] & ~self.played
        return mine if mine and mine.bit_count() == self.held(seat) else 0

    def _validate(self, seat: int, card: Card | str) -> tuple[Card, int]:
        c, slot = super()._validate(seat, card)
        hand = self.fully_known(seat)
        if hand:
            # The whole hand is on record: check the play as if hands were known.
            if not hand >> slot & 1:
                raise Refusal("not_in_hand", seat=seat, card=c.code,
                                  family=self.pack.family)
            if not self._legal(seat, hand) >> slot & 1:
                reason, suit = self._refusal(seat, hand, slot)
                raise Refusal(reason, seat=seat, card=c.code, suit=suit,
                                  family=self.pack.family)
        return c, slot

    def revokes_by(self, seat: int) -> list[Revoke]:
        """The revokes `seat` has made (hands known) or been proven to make."""
        return [r for r in self.revokes if r.seat == seat]

    def end_by_redeal(self) -> None:
        """A redeal was granted before the first card: the hand ends here."""
        self.redealt = True
        self.finished = True
        self._changed()

    def denounce(self, accuser: int, accused: int) -> Penalty:
        """`accuser` says `accused` (an opponent) revoked. Ends the hand with a
        `Penalty`, or raises `IllegalPlay` and changes nothing."""
        family = self.pack.family
        if not self.denounce_mode:
            raise Refusal("denounce_off", seat=accuser, family=family)
        for s in (accuser, accused):
            if not 0 <= s < self.n:
                raise Refusal("not_expected", seat=s, family=family)
        if self.penalty is not None:
            raise Refusal("hand_over")
        if self.game.team_of(accuser) == self.game.team_of(accused):
            raise Refusal("denounce_partner", seat=accuser, accused=accused, family=family)
        proven = self.revokes_by(accused)
        if proven:
            penalty = Penalty(self.game.team_of(accused), "revoke", accuser, accused, proven[0])
        elif self.game.options["revoke_mode"] == "denounce_hand_120":
            penalty = Penalty(self.game.team_of(accuser), "false_denounce", accuser, accused)
        else:
            raise Refusal("no_revoke", seat=accuser, accused=accused, family=family)
        self._finished_before_penalty = self.finished
        self.penalty = penalty
        self.finished = True
        return penalty

    def undo_denounce(self) -> Penalty:
        """Take back the denounce that ended the hand."""
        if self.penalty is None:
            raise Refusal("nothing_to_undo")
        penalty = self.penalty
        self.penalty = None
        self.finished = self._finished_before_penalty
        return penalty

    def undo(self) -> PlayOutcome:
        if self.penalty is not None:
            raise Refusal("hand_over")
        return super().undo()

    def snapshot(self) -> tuple[object, ...]:
        return (*super().snapshot(), self.penalty)

