"""One hand of five-player Filkó, whose teams may be secret (§2.B.3, §2.B.5).

The Old Man's partner is the holder of a *partner card*: the card he called,
or under Rich and Poor the second top Over. The partnership becomes known
when that card is played. Under Rich and Poor, if the Old Man holds the
partner card himself, the next card of a *chain* decides (FK-13: Ol, then Oh,
then Ob); when the Old Man holds the whole chain, he plays alone.

Who knows what: a seat knows its own cards (when the table knows the hands),
every card played and who played it. `teams_seen_by(seat)` is the team of
every seat as far as that seat can tell; `teams_seen_by(None)` is what
everybody knows. The points per team are public only once every team is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from engine.cards import Card
from engine.deal import Deal, DealRules, PlayOutcome
from engine.errors import BadRequest
from engine.games.filko.messages import Refusal

#: `holder` answers meaning "nobody can tell" and "not the Old Man, but who is unknown".
UNKNOWN = -1
NOT_OLD_MAN = -2


def resolve_partner(chain: Sequence[Card], old_man: int, holder: Callable[[Card], int]
                    ) -> int:
    """The partner's seat, `old_man` when he plays alone, or `UNKNOWN`.
    `holder(card)` is a seat, `UNKNOWN` or `NOT_OLD_MAN`."""
    for c in chain:
        h = holder(c)
        if h == old_man:
            continue
        return h if h >= 0 else UNKNOWN
    return old_man


class Filko5Deal(Deal):
    """A `Deal` that knows the Old Man, the partner chain (or fixed teams) and
    who played each card. Team 0 is the Old Man's side."""

    def __init__(self, game: DealRules, trump: str | None, leader: int,
                 hands: Sequence[Iterable[Card]] | None = None, *,
                 known: Mapping[int, Iterable[Card]] | None = None,
                 old_man: int, chain: Sequence[Card] = (),
                 teams: Sequence[int] | None = None, forbid_own_call: bool = False) -> None:
        super().__init__(game, trump, leader, hands, known=known)
        if teams is None and not chain:
            raise BadRequest("five-player Filkó needs a called card or fixed teams")
        self.old_man = old_man
        self.chain = tuple(chain)
        self.fixed_teams = tuple(teams) if teams is not None else None
        self.forbid_own_call = forbid_own_call
        self.initial = list(self.hands) if self.hands is not None else None
        self.player_of: dict[int, int] = {}

    # ----- who holds what, as a viewer sees it ----------------------------------------

    def _slot(self, c: Card) -> int:
        return self.pack.slots_of(c)[0]

    def holder_seen_by(self, c: Card, viewer: int | None) -> int:
        slot = self._slot(c)
        if slot in self.player_of:
            return self.player_of[slot]
        if viewer is not None:
            if self.initial is not None:
                if self.initial[viewer] >> slot & 1:
                    return viewer
                if viewer == self.old_man:
                    return NOT_OLD_MAN
            elif self.known[viewer] >> slot & 1:
                return viewer
        return UNKNOWN

    def teams_seen_by(self, viewer: int | None) -> tuple[int | None, ...]:
        """Each seat's team (0 = the Old Man's side) as `viewer` can tell."""
        if self.fixed_teams is not None:
            return self.fixed_teams
        partner = resolve_partner(self.chain, self.old_man,
                                  lambda c: self.holder_seen_by(c, viewer))
        if partner != UNKNOWN:
            return tuple(0 if s in (self.old_man, partner) else 1 for s in range(self.n))
        teams: list[int | None] = [None] * self.n
        teams[self.old_man] = 0
        if viewer is not None and viewer != self.old_man and self.initial is not None:
            mine = self.initial[viewer]
            if not any(mine >> self._slot(c) & 1 for c in self.chain):
                teams[viewer] = 1  # he holds no partner card: he is not the partner
        return tuple(teams)

    def teams(self) -> tuple[int, ...] | None:
        """Every seat's team once the partnership is public, else None."""
        seen = self.teams_seen_by(None)
        if any(t is None for t in seen):
            return None
        return tuple(t for t in seen if t is not None)

    def partner_public(self) -> bool:
        return self.teams() is not None

    def team_points_seen_by(self, viewer: int | None) -> tuple[int, int] | None:
        teams = self.teams_seen_by(viewer)
        if any(t is None for t in teams):
            return None
        out = [0, 0]
        for seat, p in enumerate(self.points):
            out[teams[seat] or 0] += p
        return out[0], out[1]

    # ----- play and undo ----------------------------------------------------------------

    def _validate(self, seat: int, card: Card | str) -> tuple[Card, int]:
        c, slot = super()._validate(seat, card)
        if self.forbid_own_call and seat == self.old_man and self.chain and c == self.chain[0]:
            raise Refusal("filko5_called_own", seat=seat, card=c.code,
                              family=self.pack.family)
        return c, slot

    def _apply(self, seat: int, c: Card, slot: int) -> PlayOutcome:
        self.player_of[slot] = seat
        return super()._apply(seat, c, slot)

    def undo(self) -> PlayOutcome:
        taken = super().undo()
        self.player_of.pop(self._slot(taken.card), None)
        return taken

    def snapshot(self) -> tuple[object, ...]:
        return (*super().snapshot(), tuple(sorted(self.player_of.items())))


