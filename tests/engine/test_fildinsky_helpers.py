"""Helpers for the Fildinsky tests: hand-made deals and a way to reach the last
eight tricks with chosen hands. (No tests here.)"""

from __future__ import annotations

from collections import Counter

from engine import card, cards, get_game
from engine.games.fildinsky import FildinskyState
from engine.packs import FRENCH_64_DOUBLE


def game(**options):
    return get_game("fildinsky", options)


def rest_of_pack(*groups):
    """The pack minus the given cards (a multiset), in pack order."""
    left = Counter(FRENCH_64_DOUBLE.cards)
    for g in groups:
        left.subtract(g)
    assert all(n >= 0 for n in left.values()), "a card is used more often than the pack has it"
    out = []
    for c in FRENCH_64_DOUBLE.cards[:32]:
        out += [c] * left[c]
    return out


def make_deal(g, hand0, hand1, turn_up, stock_top=(), *, leader=0, known=True,
              stock_known=True, score=(0, 0)):
    """A deal with these hands; the stock starts with `stock_top` (top first),
    then the rest of the pack in pack order."""
    h0, h1, top = cards(hand0), cards(hand1), cards(stock_top)
    tu = card(turn_up)
    stock = top + rest_of_pack(h0, h1, [tu], top)
    state = FildinskyState(1 - leader, score, g.options["target"])
    return g.new_hand(state, tu, [h0, h1] if known else None,
                      stock if (known and stock_known) else None)


def filler_of(deal, seat, target):
    """The one card of the seat's hand that is not in its target multiset."""
    extra = Counter(deal.hand_of(seat))
    extra.subtract(target)
    left = [c for c, n in extra.items() if n > 0]
    assert len(left) == 1, left
    return left[0]


def _phase_one(g, seats_targets, turn_up, fillers):
    h0 = seats_targets[0] + [fillers[0]]
    h1 = seats_targets[1] + [fillers[1]]
    stock = fillers[2:] + [turn_up]
    deal = g.new_deal(turn_up.suit, 0, [h0, h1], turn_up=turn_up, stock=stock)
    targets = [Counter(seats_targets[0]), Counter(seats_targets[1])]
    plays = []
    while len(deal.tricks) < 24:
        stage, seat = deal.pending()
        if stage == "meld":
            deal.close_melds(seat)
            continue
        assert stage == "play", stage
        c = filler_of(deal, seat, targets[seat])
        deal.play(seat, c)
        plays.append((seat, c))
    if deal.stage == "meld":
        deal.close_melds(deal.declarer)
    return deal, plays


def phase_one_plays(g, lead_hand, follow_hand, turn_up="9h"):
    """Plays of a stock phase after which the leader of trick 25 holds
    `lead_hand` and the follower `follow_hand` (7 cards each), plus a copy of
    `turn_up` each; seat 0 leads trick 1, each player only plays cards he drew,
    melds are passed. Returns (the deal at trick 25, the plays, the leader)."""
    tu = card(turn_up)
    lead, follow = cards(lead_hand), cards(follow_hand)
    fillers = rest_of_pack(lead, follow, [tu, tu])
    deal, plays = _phase_one(g, [lead, follow], tu, fillers)
    if deal.turn != 0:
        deal, plays = _phase_one(g, [follow, lead], tu, fillers)
    leader = deal.turn
    assert Counter(deal.hand_of(leader)) == Counter(lead + [tu])
    return deal, plays, leader


def reach_last_eight(g, lead_hand, follow_hand, turn_up="9h", *, know_hands=True):
    """A deal at trick 25 where the leader holds `lead_hand` and the follower
    `follow_hand` (7 cards each) plus one copy of `turn_up` each (see
    `phase_one_plays`). With `know_hands=False` the same plays are replayed on
    a deal whose hands and draws the table did not see. Returns (deal, leader).
    """
    tu = card(turn_up)
    deal, plays, leader = phase_one_plays(g, lead_hand, follow_hand, turn_up)
    if know_hands:
        return deal, leader
    blind = g.new_deal(tu.suit, 0, None, turn_up=tu)
    for seat, c in plays:
        while blind.stage != "play":
            stage, s = blind.pending()
            if stage == "meld":
                blind.close_melds(s)
            else:
                blind.draw(s, None)
        blind.play(seat, c)
    while blind.stage != "play":
        stage, s = blind.pending()
        if stage == "meld":
            blind.close_melds(s)
        else:
            blind.draw(s, None)
    assert blind.turn == leader
    return blind, leader


def run_policy(deal, until=None, melds=False):
    """Play on with a fixed policy: the first legal card (pack order), no melds
    unless `melds` (then the highest legal meld each time), unknown draws."""
    until = until or (lambda d: d.finished)
    while not until(deal):
        stage, seat = deal.pending()
        if stage == "play":
            deal.play(seat, next(iter(deal.legal_cards())))
        elif stage == "meld":
            legal = deal.legal_melds() if melds else []
            if legal:
                deal.declare(seat, max(legal, key=lambda k: k.points).name)
            else:
                deal.close_melds(seat)
        elif stage == "draw":
            deal.draw(seat, None)
        else:
            break
    return deal
