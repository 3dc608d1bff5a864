"""The masters status shared by the Romanian-scored games (Filicău, Filcău-20,
Filkó with Romanian scoring): how it is written and the Romanian status table.

A team is either *masters* or both teams are *even*. In JSON the status is
`"even"` or `"masters:T"` (T the team). The Romanian table (RULES.md §2.A):
after a hand of 8 points, 6 or 7 make that team masters, 8–0 makes both teams
even again ("running away"), 4–4 and 5–3 change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import BadRequest


def parse_status(value: object) -> int | None:
    """`"even"` -> None, `"masters:T"` -> T."""
    if value == "even":
        return None
    if isinstance(value, str) and value in ("masters:0", "masters:1"):
        return int(value[-1])
    raise BadRequest('status must be "even", "masters:0" or "masters:1"')


def status_text(masters: int | None) -> str:
    """The JSON form of a status: None -> `"even"`, T -> `"masters:T"`."""
    return "even" if masters is None else f"masters:{masters}"


def romanian_status_after(masters: int | None, points: Sequence[int]) -> int | None:
    """The Romanian status table: 6–7 masters, 8–0 even, 4–4 and 5–3 unchanged."""
    p0, p1 = points
    if p0 == 8 or p1 == 8:
        return None
    if p0 >= 6:
        return 0
    if p1 >= 6:
        return 1
    return masters
