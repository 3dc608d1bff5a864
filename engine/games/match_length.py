"""Matches that end after a set number of hands (`match_length`), won by the
side with the best tally: Filicău and the Filkó family, where the rules set no
end of their own."""

from __future__ import annotations


class LengthLimited:
    """Mixin for a match state with `hands` (played so far), `match_length`
    (0: no end) and `tally()` (what each side has won, per team or per seat)."""

    hands: int
    match_length: int

    def tally_of_sides(self) -> tuple[int, ...]:
        return tuple(self.tally)

    @property
    def over(self) -> bool:
        return self.match_length > 0 and self.hands >= self.match_length

    @property
    def winner(self) -> int | None:
        """The side with the best tally once the match is over; None on a tie."""
        if not self.over:
            return None
        tally = self.tally_of_sides()
        best = max(tally)
        leaders = [side for side, t in enumerate(tally) if t == best]
        return leaders[0] if len(leaders) == 1 else None
