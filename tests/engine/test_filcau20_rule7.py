"""Rule 7 of 20-card Filcău, "a player is obliged to bind the highest trump"
(RULES.md §1.2, FC-A11), under both settings of the option `rule7`.

`strongest` (the default): the binder calls his strongest binding.
`highest_card_suit` (FC-A11 option C, "name the suit of his highest trump"):
his Overs are trumps whatever suit he names and never count as cards of the
suit printed on them (§2.0, FC-A3), so the highest trump that has a suit is
his highest card that is not an Over, taken among the suits he may bind; on
equal highest cards the stronger binding decides. The expectations below are
worked out by hand from those sentences."""

from __future__ import annotations

import pytest

from engine import IllegalPlay, cards, get_game
from engine.games.filcau20 import Filcau20State
from engine.games.filcau20.binding import naming_suits, required


def calls_and_suits(hand, rule7):
    must = required(cards(hand), rule7)
    return (must.call if must else None), naming_suits(cards(hand), rule7)


@pytest.mark.parametrize("hand, strongest, highest_card_suit", [
    # acorns four, the Under (top card the King); hearts three, the Ten
    ("Oa Ol Ua Ka Th", ("4:U", ["a"]), ("3:T", ["h"])),
    # bells three, the Under (top card the Ace); hearts three, the King (top the Ten).
    # The Over of acorns is the highest trump, but acorns cannot even be bound.
    ("Oa Ab Ub Th Kh", ("3:K", ["h"]), ("3:U", ["b"])),
    # The highest card (the Ace of hearts) is in a suit he cannot bind (two
    # trumps): of the suits he may bind, acorns holds the highest card.
    ("Oa Ua Ka Kl Ah", ("3:U", ["a"]), ("3:U", ["a"])),
    # Both suits' highest cards are Aces: the stronger binding, bells three the King.
    ("Oa Ah Uh Ab Kb", ("3:K", ["b"]), ("3:K", ["b"])),
    # Closed in bells; acorns, leaves and hearts each bind the three Overs and
    # hold no card of their own: any of them, not just the acorns of the top Over.
    ("Oa Ol Oh Ab Kb", ("3:Oh", ["a", "l", "h"]), ("3:Oh", ["a", "l", "h"])),
])
def test_the_binding_rule_7_requires(hand, strongest, highest_card_suit):
    assert calls_and_suits(hand, "strongest") == strongest
    assert calls_and_suits(hand, "highest_card_suit") == highest_card_suit


#: Seat 3 deals; seat 0 (his left) calls first. Seat 0 as in the second case
#: above; the others hold no binding they must call.
HANDS = ("Oa Ab Ub Th Kh", "Ol Ua Ul Uh Kb", "Oh Ka Kl Ah Tb", "Ob Ta Aa Tl Al")


@pytest.mark.parametrize("rule7, call, other, suit", [
    ("strongest", "bind:3:K", "bind:3:U", "h"),
    ("highest_card_suit", "bind:3:U", "bind:3:K", "b"),
])
def test_at_the_table_only_the_call_rule_7_requires_is_offered_and_names_its_suit(
        rule7, call, other, suit):
    game = get_game("filcau20", {"rule7": rule7})
    f = game.hand_flow(Filcau20State(None, (0, 0), 3), [cards(h) for h in HANDS])
    f.choose(2, "knock")
    assert f.pending().choices == ("pass", call)
    with pytest.raises(IllegalPlay) as refused:
        f.choose(0, other)
    assert refused.value.reason == "binding_rule7"
    for seat, choice in zip((0, 1, 2, 3), (call, "pass", "pass", "pass"), strict=True):
        f.choose(seat, choice)
    step = f.pending()
    assert (step.kind, step.seat, step.choices) == ("choose", 0, (suit,))
    with pytest.raises(IllegalPlay) as refused:
        f.choose(0, "a")                    # the suit of his highest trump, the Over of acorns
    assert refused.value.reason == "binding_suit"
    f.choose(0, suit)
    assert f.trump == suit
