"""The deal's fast paths (issue 15) against its plain ones: `playout()` ends
in the state that playing the same cards one by one reaches, `undo()` takes
a played-out hand back to its start (and to every state on the way), the
trick's winner kept as cards come and go is the trick's winner by the rules,
and a hands-unknown playout with shown cards always reaches the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.cards import cards
from engine.deal import Deal
from engine.errors import IllegalPlay, UnknownCard

GAMES = [
    ("filicau", {}),
    ("filicau", {"early_stop_when_decided": True}),
    ("filko", {}),
    ("filko6", {}),
    ("sueca", {}),                                   # a subclass: the plain loop
    ("sueca", {"revoke_mode": "denounce_hand_120"}),
]


def fresh(game, seed):
    d = game.deal(random.Random(seed), seed % game.players)
    return d, game.new_deal(d.trump, d.leader, d.hands)


def plays_of(deal):
    """(seat, card) of every card played, in order, from the finished tricks."""
    out = []
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            out.append(((t.leader + i) % deal.n, c))
    for i, slot in enumerate(deal.trick):
        out.append(((deal.leader + i) % deal.n, deal.pack.cards[slot]))
    return out


@pytest.mark.parametrize("gid,options", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), before=st.integers(0, 40))
def test_playout_ends_where_playing_the_same_cards_one_by_one_ends(gid, options, seed,
                                                                    before):
    game = get_game(gid, options)
    d, deal = fresh(game, seed)
    rng = random.Random(seed)
    start = deal.snapshot()
    for _ in range(before):          # the playout may start in the middle of a trick
        if deal.finished:
            break
        legal = list(deal.legal_cards())
        deal.play(deal.turn, legal[rng.randrange(len(legal))])
    deal.playout(rng)
    assert deal.finished
    replay = game.new_deal(d.trump, d.leader, d.hands)
    states = [replay.snapshot()]
    outcomes = []
    for seat, c in plays_of(deal):
        outcomes.append(replay.play(seat, c))
        states.append(replay.snapshot())
    assert replay.snapshot() == deal.snapshot()
    assert replay.tricks == deal.tricks
    assert outcomes[-1].hand_over
    # Undo walks back through every state of the card-by-card hand.
    for state in reversed(states[:-1]):
        undone = deal.undo()
        assert deal.snapshot() == state
        assert undone.card in deal.hand_of(undone.seat)
    assert deal.snapshot() == start
    assert not deal.can_undo


@pytest.mark.parametrize("gid,options", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.lists(st.integers(0, 9), max_size=80))
def test_the_trick_winner_kept_through_plays_and_undos_is_the_rules_winner(gid, options,
                                                                         seed, steps):
    game = get_game(gid, options)
    d, deal = fresh(game, seed)
    rng = random.Random(seed)
    for step in steps:
        if deal.finished or (step < 3 and deal.can_undo):
            deal.undo()
            continue
        legal = list(deal.legal_cards())
        out = deal.play(deal.turn, legal[rng.randrange(len(legal))])
        if out.trick is not None:
            idx = game.trick_winner(list(out.trick.cards), d.trump)
            assert out.trick.winner == (out.trick.leader + idx) % deal.n
            assert out.trick.points == game.trick_points(list(out.trick.cards), d.trump)


def test_undo_after_a_playout_then_playing_on_gives_the_same_hand_as_without_the_undo():
    game = get_game("filicau")
    d, deal = fresh(game, 5)
    deal.playout(random.Random(9))
    record = deal.snapshot()
    played = plays_of(deal)
    for _ in range(6):               # back into the middle of the second-to-last trick
        deal.undo()
    for seat, c in played[-6:]:
        deal.play(seat, c)
    assert deal.snapshot() == record


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_hands_unknown_playout_with_shown_cards_reaches_the_end(seed):
    game = get_game("filicau")
    d = game.deal(random.Random(seed), seed % 4)
    deal = game.new_deal(d.trump, d.leader, known={d.dealer: d.shown})
    deal.playout(random.Random(seed))
    assert deal.finished and len(deal.tricks) == 8
    by_seat = {}
    for seat, c in plays_of(deal):
        by_seat.setdefault(seat, []).append(c)
    assert all(c in by_seat[d.dealer] for c in d.shown)   # shown cards stay the dealer's
    assert all(len(cs) == 8 for cs in by_seat.values())
    while deal.can_undo:
        deal.undo()
    assert deal.snapshot() == game.new_deal(d.trump, d.leader,
                                            known={d.dealer: d.shown}).snapshot()


@pytest.mark.parametrize("gid,options", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), before=st.integers(0, 40), shown=st.booleans())
def test_a_hands_unknown_playout_ends_where_playing_its_cards_one_by_one_ends(
        gid, options, seed, before, shown):
    game = get_game(gid, options)
    d = game.deal(random.Random(seed), seed % game.players)
    known = {d.dealer: d.shown or d.hands[d.dealer][:2]} if shown else None
    deal = game.new_deal(d.trump, d.leader, known=known)
    rng = random.Random(seed)
    start = deal.snapshot()
    for _ in range(before):
        if deal.finished:
            break
        legal = list(deal.legal_cards())
        mine = [c for c in legal if c in deal.hand_of(deal.turn)]
        if len(mine) >= game.hand_size - len(deal.tricks):
            legal = mine          # as playout does: a seat plays its known cards then
        deal.play(deal.turn, legal[rng.randrange(len(legal))])
    deal.playout(rng)
    assert deal.finished
    replay = game.new_deal(d.trump, d.leader, known=known)
    states = [replay.snapshot()]
    for seat, c in plays_of(deal):
        replay.play(seat, c)
        states.append(replay.snapshot())
    assert replay.snapshot() == deal.snapshot()
    assert replay.revokes == deal.revokes
    for state in reversed(states[:-1]):
        deal.undo()
        assert deal.snapshot() == state
    assert deal.snapshot() == start


def checked_twin(game):
    """The game's deal class with its own `_validate` (the same checks): such
    a class never takes `play()`'s fast path, so every play goes through
    `_validate` and `_apply`."""
    base = game.deal_class

    class Checked(base):
        def _validate(self, seat, card):
            return super()._validate(seat, card)

    return Checked


@pytest.mark.parametrize("gid,options", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6),
       steps=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 99)), max_size=90))
def test_play_fast_path_answers_and_changes_what_the_checked_path_does(gid, options, seed,
                                                                       steps):
    """Card by card, with undos and refused cards (another seat's, one not
    legal now, one out of turn, a card of no pack): the same outcomes, the
    same refusals, the same legal cards and states at every step."""
    game = get_game(gid, options)
    d = game.deal(random.Random(seed), seed % game.players)
    fast = game.new_deal(d.trump, d.leader, d.hands)
    slow = checked_twin(game)(game, d.trump, d.leader, d.hands)
    assert not type(slow)._plain_validate
    for kind, pick in steps:
        if fast.finished or (kind == 0 and fast.can_undo):
            if not fast.can_undo:
                break
            assert fast.undo() == slow.undo()
        else:
            legal = list(fast.legal_cards())
            assert legal == list(slow.legal_cards())
            seat = fast.turn
            if kind == 1:       # a card of another seat's hand
                seat_card = ((seat + 1) % fast.n, fast.hand_of((seat + 1) % fast.n))
            elif kind == 2:     # a held card that is not legal now, if there is one
                seat_card = (seat, [c for c in fast.hand_of(seat) if c not in legal])
            elif kind == 3:     # the seat after the one to play
                seat_card = ((seat + 1) % fast.n, fast.hand_of((seat + 1) % fast.n))
            elif kind == 4:     # a card of no card of this pack
                seat_card = (seat, [c for c in cards("2c 3d 4h 5s") if c not in fast.pack])
            else:
                seat_card = (seat, legal)
            who, among = seat_card
            if not among:
                continue
            c = among[pick % len(among)]
            if kind == 5:
                c = c.code      # a code, as the referee sends it
            answers = []
            for deal in (fast, slow):
                try:
                    answers.append(("ok", deal.play(who, c)))
                except (IllegalPlay, UnknownCard) as refused:
                    answers.append((type(refused).__name__, str(refused), refused.args))
            assert answers[0] == answers[1]
        assert fast.snapshot() == slow.snapshot()
        assert fast.revokes == slow.revokes


def test_a_card_of_the_legal_set_just_listed_is_not_checked_again(monkeypatch):
    """The fast path is taken: after `legal_cards()`, playing one of them
    does not go through `_validate`; anything else does."""
    game = get_game("filicau")
    d = game.deal(random.Random(3), 0)
    deal = game.new_deal(d.trump, d.leader, d.hands)
    checked = []
    original = Deal._validate

    def counting(self, seat, card):
        checked.append(card)
        return original(self, seat, card)

    monkeypatch.setattr(Deal, "_validate", counting)
    while not deal.finished:
        legal = list(deal.legal_cards())
        deal.play(deal.turn, legal[-1])
    assert checked == []
    deal.undo()
    deal.play(deal.turn, deal.hand_of(deal.turn)[0])   # no legal set known: checked
    assert len(checked) == 1
