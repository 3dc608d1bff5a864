"""20-card Filcău's binding is public, and the sampled deals agree with it.

The flow hands every seat's call and the binder's seat to the deal the bots
play in (the bench's hands known, the table's hands unknown); the deals the
sampled bot draws give the binder exactly the trumps he called and the other
binders theirs. The expected hands are checked with the binding rules
(`binding_in`, `required`), not with the deal's own `hand_fits`."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, cards, get_game
from engine.analysis import sampling as sampling_module
from engine.analysis.bot import SampledBot, hint
from engine.analysis.sampling import FittingDraw
from engine.games.filcau20 import Filcau20State
from engine.games.filcau20.binding import binding_in, parse_call, required
from tests.analysis.helpers import bound_deal

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import bots_bench  # noqa: E402

START = Filcau20State(None, (3, 4), 3)
#: 0: acorns 3:U. 1: leaves 4:T (strongest). 2: acorns 3:T. 3: no Over.
BIND_HANDS = ("Oa Ua Ka Th Kb", "Ol Oh Al Tl Ub", "Ob Ta Aa Ah Kh", "Ul Kl Uh Tb Ab")


def _bound_flow(hands: tuple[str, ...] | None) -> Any:
    """Seat 2 knocks; seats 0 and 1 bind (3:U, 4:T), 2 and 3 pass; 1 names leaves."""
    game = get_game("filcau20")
    f = game.hand_flow(START, None if hands is None else [cards(h) for h in hands])
    f.choose(2, "knock")
    for seat, call in zip(f.order, ("bind:3:U", "bind:4:T", "pass", "pass"), strict=True):
        f.choose(seat, call)
    if hands is None:  # the table: the winner taps his five cards to prove his call
        for c in cards(BIND_HANDS[1]):
            f.card(1, c)
    f.choose(1, "l")
    return f


def test_the_flow_gives_the_deal_every_call_and_the_binder() -> None:
    for hands in (BIND_HANDS, None):  # the bench's hands known; the table's unknown
        deal = _bound_flow(hands).deal
        assert deal.calls == {0: "3:U", 1: "4:T", 2: "pass", 3: "pass"}
        assert deal.binder == 1 and deal.trump == "l"
        assert deal.hand_fits(1, cards(BIND_HANDS[1]))
        # Three leaves trumps, not the four he called.
        assert not deal.hand_fits(1, cards("Ol Oh Al Ub Kb"))
        # Four trumps, the lowest the Ten, but in hearts: not the suit he named.
        assert not deal.hand_fits(1, cards("Ol Oh Ah Th Ub"))
        assert deal.hand_fits(0, cards(BIND_HANDS[0]))
        assert not deal.hand_fits(0, cards("Oa Ta Ka Th Kb"))  # 3:K, not 3:U
        assert deal.hand_fits(2, cards("Oa Ob Oh Ol Ua"))  # a pass tells nothing


def test_a_fris_leaves_no_calls() -> None:
    game = get_game("filcau20")
    f = game.hand_flow(START, [cards(h) for h in
                              ("Ua Th Ab Oa Kh", "Ol Tl Ka Ul Ub", "Ta Aa Ah Kl Tb",
                               "Oh Ob Al Uh Kb")])
    f.choose(2, "cut")
    f.choose(0, "pass")
    f.card(1, cards("Ol")[0])
    f.choose(1, "h")
    assert f.deal.calls == {} and f.deal.binder is None
    assert f.deal.hand_fits(1, cards("Ol Tl Ka Ul Ub"))


def _random_bound_deal(seed: int, plays: int) -> Any:
    """A hand of random cards bound after a knock (random calls among those
    the flow offers), then `plays` random legal cards; None if nobody bound."""
    rng = random.Random(seed)
    deal = bound_deal(get_game("filcau20"), rng)
    if deal is None:
        return None
    for _ in range(plays):
        deal.play(deal.turn, rng.choice(list(deal.legal_cards())))
    return deal


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 14), samples=st.integers(1, 4))
def test_no_sampled_deal_contradicts_the_binding(seed: int, plays: int, samples: int) -> None:
    deal = _random_bound_deal(seed, plays)
    if deal is None:
        return
    seat = deal.turn
    hand = deal.hand_of(seat)
    drawn: list[list[list[Card]]] = []

    class Recording(FittingDraw):
        def __call__(self, rng: random.Random) -> list[list[Card]] | None:
            hands = super().__call__(rng)
            if hands is not None:
                drawn.append(hands)
            return hands

    played: list[list[Card]] = [[] for _ in range(4)]
    for t in (*deal.tricks, ):
        for i, c in enumerate(t.cards):
            played[(t.leader + i) % 4].append(c)
    for i, c in enumerate(deal.current_trick):
        played[(deal.leader + i) % 4].append(c)
    original = sampling_module.FittingDraw   # the hint draws through `sampling.drawer`
    sampling_module.FittingDraw = Recording  # type: ignore[misc]
    try:
        found = hint(deal, seat, hand, random.Random(seed), samples)
    finally:
        sampling_module.FittingDraw = original  # type: ignore[misc]
    assert found is not None and found.card in deal.legal_cards()
    assert len(drawn) == samples
    everything = sorted(c.code for c in deal.game.pack.cards)
    for hands in drawn:
        assert sorted(c.code for c in hands[seat]) == sorted(c.code for c in hand)
        assert sorted(c.code for s in range(4) for c in (*hands[s], *played[s])) == everything
        for s, call in deal.calls.items():
            if s == seat or call == "pass":
                continue
            dealt = [*hands[s], *played[s]]
            binding = parse_call(call)
            if call == "closed":
                continue
            assert binding is not None
            assert required(dealt) == binding, (s, call, dealt)
            if s == deal.binder:
                assert binding_in(dealt, deal.trump) == binding, (call, deal.trump, dealt)


def test_calls_no_hand_can_make_fall_back_on_the_plays() -> None:
    """At the table only the winner proves his call: a loser's call that no
    hand left can make (seat 3 called four Overs; seat 0 holds the acorn
    Over) is ignored, and the bot still plays from deals of the plays."""
    game = get_game("filcau20")
    deal = game.new_deal("l", 0, [cards(h) for h in BIND_HANDS])
    deal.calls = {0: "3:U", 1: "4:T", 3: "4:Ob"}
    deal.binder = 1
    found = hint(deal, 0, deal.hand_of(0), random.Random(3), 4)
    assert found is not None and found.samples == 4
    assert found.card in deal.legal_cards()


def test_seeded_boards_of_the_bot_are_the_same_and_every_card_legal() -> None:
    game = get_game("filcau20")
    bot = SampledBot("careful")
    for seed in range(2):
        results = []
        for _ in range(2):
            rng = random.Random(f"det-{seed}")
            state = game.new_match(rng)
            dealt = game.deal(rng, state.dealer)
            # The flow refuses an illegal card (an exception, not a result).
            results.append(bots_bench.play_board(game, state, dealt, (bot, bots_bench.SimpleBot()),
                                                 rng, f"calls-{seed}"))
        assert results[0] == results[1]


def test_the_simulators_bots_see_the_calls() -> None:
    """The simulator and the table ask a bot through `bot_action` with the
    flow's own deal: the bot sees the calls and the binder."""
    from engine.bots import SimpleBot, bot_action

    seen: list[tuple[dict[int, str], int | None]] = []

    class Watching(SimpleBot):
        def play(self, deal, seat, hand, rng):  # type: ignore[no-untyped-def]
            seen.append((dict(deal.calls), deal.binder))
            return super().play(deal, seat, hand, rng)

    f = _bound_flow(BIND_HANDS)
    kind, seat, card = bot_action(f, [cards(h) for h in BIND_HANDS], Watching(),
                                  random.Random(1))
    assert kind == "card" and seat == 0
    assert seen == [({0: "3:U", 1: "4:T", 2: "pass", 3: "pass"}, 1)]
