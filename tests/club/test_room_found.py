"""Two bugs of the room found without any attack (issue 30, "Found on the
way"), on a 20-card Filcău session played by bots: a hand that opens with a
fris lost the fris Over from trick 1 on the phone pages (every later trick
shifted by a card), and hands thrown in for want of a binding counted as
0:0 hands in the standings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.games.filcau20.rules import TOTAL
from hw_mocks.simulator.club import make_tables, play
from table.club import pages
from table.club.config import parse_broker
from table.club.room import Room
from table.club.topics import Entry
from table.journal import Journal


@pytest.fixture(scope="module")
def filcau20(tmp_path_factory: pytest.TempPathFactory) -> list[Entry]:
    """The journal of a Filcău-20 table after 600 bot moves (about 22 hands,
    a dozen opened with a fris, several thrown in)."""
    root: Path = tmp_path_factory.mktemp("filcau20")
    (t,) = make_tables(parse_broker("mqtt://127.0.0.1:9"), 1, state_root=root, games=[3])
    try:
        play([t], 600, rng=random.Random(2))
        j = Journal(t.journal_path)
        entries = [Entry("t1", e.seq, e.kind, dict(e.data)) for e in j.entries()]
        j.close()
    finally:
        t.close()
    return entries


def test_every_trick_on_the_phone_page_is_the_trick_played_fris_included(filcau20):
    room = Room()
    for e in filcau20:
        room.apply(e)
    t = room.tables["t1"]
    assert t.error is None
    frises = 0
    for m in t.matches:
        for h in m.hands:
            if h.redeal is not None:
                continue
            deal, _before = t.deals[(m.id, h.number)]
            frises += deal.fris is not None
            # the engine's own tricks, card for card, in the order they were played
            assert [[c for _s, c in r.plays] for r in h.tricks] == \
                [[c.code for c in trick.cards] for trick in deal.tricks], (m.id, h.number)
            if deal.fris is not None:
                first = h.tricks[0].plays[0]
                assert first == (deal.fris.seat, deal.tricks[0].cards[0].code)
    assert frises >= 3, "the session had too few fris hands to show anything"
    html = pages.table_fragment(t.summary(), t.matches)
    assert "thrown in (nobody bound), dealt again" in html


def test_a_hand_thrown_in_is_not_a_hand_of_the_standings(filcau20):
    room = Room()
    for e in filcau20:
        room.apply(e)
    nexts = [e for e in filcau20 if e.kind == "next"]
    # every hand played out shares out all the points of the pack; one
    # thrown in (nobody bound) gives none
    played = [e for e in nexts if sum(e.data["points"]) == TOTAL]
    thrown = [e for e in nexts if sum(e.data["points"]) == 0]
    assert len(played) + len(thrown) == len(nexts)
    assert thrown and played
    rows = room.standings()
    assert rows and all(r.hands == len(played) for r in rows), \
        [(r.name, r.hands) for r in rows]
    assert sum(r.points for r in rows) == TOTAL * len(played)
