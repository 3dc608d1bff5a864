"""A blind player plays a whole match in the simulator by ear and buttons.

The player at seat 1 never looks at the screen or the table's state: it
holds its cards (it knows them by touch, in the order they were dealt) and
decides only from what the table says aloud (`RecordingSpeaker`: the same
sentences espeak-ng would speak) — whose turn it is, the trump, each card
played, each refusal and its rule, the end of a hand ("Press OK"). The other
seats are the simulator's bots.
"""

from __future__ import annotations

import re

import pytest

from engine import get_game
from engine.cards import Card
from hw_mocks.simulator.driver import SimTable
from hw_mocks.voice import RecordingSpeaker
from table.settings import TableSettings
from table.voice import Utterance
from table.voice.announce import attach
from table.voice.words import card_words, suit_words

ME = 0            # seat "1" as people number it


class BlindPlayer:
    def __init__(self, sim: SimTable, speaker: RecordingSpeaker) -> None:
        self.sim = sim
        game = sim.match.game if sim.match else get_game(sim.settings.game)
        family = game.pack.family
        self.cards = {card_words(c.code, family, "en"): c for c in game.pack.distinct_cards}
        self.suits = {suit_words(c.suit, family, "en"): c.suit for c in game.pack.distinct_cards}
        self.heard: list[str] = []
        self.new: list[str] = []
        speaker.listeners.append(self.hear)
        self.trump: str | None = None
        self.led: str | None = None
        self.refusals = 0
        self.played = 0
        self.hands = 0
        self.shown = 0

    def hear(self, u: Utterance) -> None:
        self.heard.append(u.text)
        self.new.append(u.text)
        text = u.text
        if m := re.fullmatch(r"Trumps are (\w+)\.", text):
            self.trump = self.suits[m.group(1)]
            self.led = None
        elif re.fullmatch(r"Seat \d+ takes the trick, .*", text):
            self.led = None
        elif (m := re.fullmatch(r"Seat \d+: (.+)\.", text)) and m.group(1) in self.cards:
            if self.led is None:
                c = self.cards[m.group(1)]
                self.led = "trump" if self.is_trump(c) else c.suit

    def is_trump(self, c: Card) -> bool:
        """What a Filicău player knows: the Overs are trumps too."""
        return c.suit == self.trump or c.rank == "O"

    def hand(self) -> list[Card]:
        """The cards in my hand (I feel them), in the order they were dealt."""
        return self.sim.hand_of(ME)

    def listen(self) -> list[str]:
        out, self.new = self.new, []
        return out

    def act(self) -> bool:
        """Do what the last sentence asks; False when the match is over."""
        said = self.listen()
        assert said, "the table fell silent while waiting for me"
        last = said[-1]
        if last == "Press OK to close the match.":
            self.hands += 1
            self.sim.press("ok")
            return False
        if last == "Press OK for the next hand.":
            self.hands += 1
            self.sim.press("ok")
            return True
        if last == "Seat 1: show the cards for trumps":
            self.show()
            return True
        if last == "Seat 1 to play":
            self.play()
            return True
        raise AssertionError(f"I do not know what to do after {said[-3:]}")

    def show(self) -> None:
        # the dealer's first cards fix trumps: show them in order until the table moves on
        hand = self.hand()
        self.sim.play(ME, hand[self.shown % len(hand)])
        self.shown += 1

    def play(self) -> None:
        self.shown = 0
        candidates = self.preferred(self.hand())
        for c in candidates:
            before = len(self.heard)
            self.sim.play(ME, c)
            answer = self.heard[before:]
            refused = [t for t in answer if t.startswith("Seat 1 must") or
                       t.startswith("Seat 1 has no")]
            if not refused:
                self.played += 1
                return
            self.refusals += 1
            self.new = [t for t in self.new if t not in refused]
            rule = refused[-1]
            if m := re.search(r"must follow suit: (\w+)\.", rule):
                self.led = "trump" if m.group(1) == "trumps" else self.suits[m.group(1)]
                candidates[:] = self.preferred(candidates)
            elif "must play a trump" in rule:
                self.led = "trump"
                candidates[:] = self.preferred(candidates)
        raise AssertionError(f"no card of {candidates} was taken; heard {self.heard[-5:]}")

    def preferred(self, hand: list[Card]) -> list[Card]:
        """What the rules I heard ask: the suit led, else a trump, else anything."""
        led = [c for c in hand if (self.is_trump(c) if self.led == "trump" else
                                   c.suit == self.led and not self.is_trump(c))]
        trumps = [c for c in hand if self.is_trump(c) and c not in led]
        rest = [c for c in hand if c not in led and c not in trumps]
        return led + trumps + rest


@pytest.mark.parametrize("seed", [3, 11])
def test_a_blind_player_plays_a_whole_match_by_ear(seed):
    settings = TableSettings(game="filicau", knowledge="scan",
                             options={"match_length": 2})
    sim = SimTable(settings, humans=[ME], seed=seed)
    speaker = RecordingSpeaker()
    attach(sim.rig.ctl, speaker)
    try:
        blind = BlindPlayer(sim, speaker)
        blind.listen()
        sim.press("ok")                   # "No match is running: press OK to start one."
        for _ in range(2000):
            sim.run_bots()
            if not blind.act():
                break
        else:
            raise AssertionError("the match did not end")
        assert sim.state == "match_over"
        assert blind.hands >= 2
        assert blind.played == 8 * blind.hands     # all my cards, every hand
        ends = [t for t in blind.heard if t.startswith("The match is over. ")]
        assert len(ends) == 1 and ends[0] in (
            "The match is over. Seats 1 and 3 win the match.",
            "The match is over. Seats 2 and 4 win the match.",
            "The match is over. No winner: a draw."), ends
    finally:
        sim.close()


def test_the_blind_player_learns_the_rule_from_a_refusal():
    """Playing without listening to the cards led, a refusal's words alone
    lead it to a legal card."""
    settings = TableSettings(game="filicau", knowledge="scan", options={"match_length": 2})
    for seed in range(1, 30):
        sim = SimTable(settings, humans=[ME], seed=seed)
        speaker = RecordingSpeaker()
        attach(sim.rig.ctl, speaker)
        try:
            blind = BlindPlayer(sim, speaker)
            blind.hear = lambda u, b=blind: (b.heard.append(u.text), b.new.append(u.text))
            speaker.listeners[:] = [blind.hear]
            blind.suits = {suit_words(s, "german", "en"): s for s in "alhb"}
            sim.press("ok")
            for _ in range(200):
                sim.run_bots()
                if not blind.act() or blind.refusals:
                    break
            if blind.refusals:
                assert any(t.startswith(("Seat 1 must", "Seat 1 has no")) for t in blind.heard)
                return
        finally:
            sim.close()
    raise AssertionError("no deal made the deaf-to-the-cards player try a wrong card")
