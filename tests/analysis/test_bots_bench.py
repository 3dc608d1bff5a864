"""bench/bots_bench.py in its quick mode, so the 10,000-hand measurement
cannot rot: two matches a game, the checkpoint file, resuming, refusing a
checkpoint of other settings, and the Wilson interval."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import bots_bench  # noqa: E402


def test_quick_mode_plays_two_matches_and_checkpoints(tmp_path, capsys):
    out = tmp_path / "bots.json"
    args = ["--quick", "--games", "filicau", "--tricks-left", "2", "--samples", "2",
            "--out", str(out)]
    tallies = bots_bench.main(args)
    t = tallies["filicau"]
    assert t.matches == 2 and 0 <= t.wins + t.ties <= 2
    assert t.points_for + t.points_against == 2 * 2 * 8     # Filicău: 8 points a hand
    saved = json.loads(out.read_text())
    assert saved["settings"]["bot"] == "sampled-2-last2"
    assert saved["games"]["filicau"]["matches"] == 2
    assert set(saved["games"]["filicau"]["ratings"]) == {"sampled-2-last2", "simple", "random"}
    printed = capsys.readouterr().out
    assert "| filicau | 2 | 4 |" in printed
    # Run again: the file already holds the two matches, nothing is played again.
    again = bots_bench.main(args)
    assert again["filicau"].to_json() == saved["games"]["filicau"]


def test_a_checkpoint_of_other_settings_is_refused(tmp_path):
    out = tmp_path / "bots.json"
    bots_bench.main(["--quick", "--games", "filicau", "--tricks-left", "1", "--out", str(out)])
    with pytest.raises(SystemExit, match="other settings"):
        bots_bench.main(["--quick", "--games", "filicau", "--tricks-left", "2",
                         "--out", str(out)])


def test_the_wilson_interval():
    lo, hi = bots_bench.wilson(60, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.502, 0.691)   # the textbook values
    assert bots_bench.wilson(0, 0) == (0.0, 1.0)


def test_every_game_is_played_through_its_flow(tmp_path):
    """Five-player Filkó (a trump named, a card called: secret partners),
    20-card Filcău (cut or knock, the fris, trumps named), Sueca and
    Fildinsky (a stock, melds) play whole matches too."""
    games = ["filko5", "filcau20", "sueca", "fildinsky"]
    tallies = bots_bench.main(["--quick", "--games", *games, "--tricks-left", "2",
                               "--samples", "2", "--out", str(tmp_path / "b.json")])
    assert all(tallies[g].matches == 2 for g in games)
    # Every card point of both boards of both matches went to one side or the other.
    assert tallies["filko5"].points_for + tallies["filko5"].points_against == 2 * 2 * 8
    assert tallies["filcau20"].points_for + tallies["filcau20"].points_against == 2 * 2 * 8
    assert tallies["sueca"].points_for + tallies["sueca"].points_against == 2 * 2 * 120
    assert tallies["fildinsky"].points_for + tallies["fildinsky"].points_against > 0



def test_the_bots_deal_knows_the_cards_shown_to_fix_trumps():
    """Six-player Filkó's cut shows the trump-fixing card (and any Overs
    under it); they are dealt to known seats, and the deal the bots play in
    says so, as the table's deal does (hands unknown, `known` cards)."""
    import random

    from engine import get_game
    from engine.bots import SimpleBot

    class Watching(SimpleBot):
        def play(self, deal, seat, hand, rng):  # type: ignore[no-untyped-def]
            self.known = {s: deal.pack.cards_of(m) for s, m in enumerate(deal.known) if m}
            self.hands = [deal.hand_of(s) for s in range(deal.n)]
            return super().play(deal, seat, hand, rng)

    game = get_game("filko6")
    rng = random.Random(5)
    state = game.new_match(rng)
    dealt = game.deal(rng, state.dealer)
    bot = Watching()
    bots_bench.play_board(game, state, dealt, (bot, bot), rng, "calls")
    assert dealt.shown
    # The shown cards, each in the hand of the seat the deal says holds it.
    assert sorted(c for cs in bot.known.values() for c in cs) == sorted(dealt.shown)
    for seat, cards in bot.known.items():
        assert all(c in dealt.hands[seat] for c in cards)


def test_the_reading_level_is_named_in_the_checkpoint(tmp_path):
    out = tmp_path / "r.json"
    bots_bench.main(["--quick", "--games", "filcau20", "--level", "reading", "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved["settings"]["bot"] == "sampled-reading"
    assert saved["games"]["filcau20"]["matches"] == 2


def test_the_bots_deal_knows_no_card_that_was_not_shown():
    """Fildinsky's flow, knowing the hands, calls every card known: the bots
    are not told the other hand."""
    import random

    from engine import get_game
    from engine.bots import SimpleBot

    class Watching(SimpleBot):
        known: int = 0

        def play(self, deal, seat, hand, rng):  # type: ignore[no-untyped-def]
            self.known |= sum(deal.known)
            return super().play(deal, seat, hand, rng)

    game = get_game("fildinsky")
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_match(rng)
        dealt = game.deal(rng, state.dealer)
        bot = Watching()
        bots_bench.play_board(game, state, dealt, (bot, bot), rng, f"calls-{seed}")
        assert bot.known == 0
