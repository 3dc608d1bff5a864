"""`cardtable export` writes a whole match so that `cardtable referee` replays
it to the same results: every game, every way of knowing the hands, bots
playing a short match at the fake table. The table's side comes from its
journal, never from the referee."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Card, card
from engine.games import game_class, game_ids
from hw_mocks.simulator.headless import run_demo
from table.controller.session import Selection, Session
from table.export import export_hands, export_match
from table.journal import Journal
from table.referee.session import Referee
from table.settings import TableSettings

ROOT = Path(__file__).resolve().parents[2]


def short_match(game: str) -> dict:
    """Options that make a match a hand or a few."""
    names = {s.name for s in game_class(game).option_specs}
    if "match_length" in names:
        return {"match_length": 1}
    if game == "fildinsky":
        return {"target": 300}
    if "target" in names:
        return {"target": 1}
    return {}


def table_hands(journal) -> list[tuple[list[int], list[int], dict]]:
    """Each hand the table finished, from its journal: the seats that won the
    tricks (from the plays it accepted), the points and the match state after."""
    session = Session(Selection("filicau"))
    out = []
    for e in journal.entries():
        if e.kind == "next":
            hand = session.match.hand
            winners = [a.event.outcome.trick.winner for a in hand.actions
                       if a.event.outcome is not None and a.event.outcome.trick is not None]
            out.append((winners, list(e.data["points"]), e.data["state"]))
        session.apply(e)
    return out


def referee_hands(requests: list[dict]) -> tuple[list[dict], list[tuple[list[int], list, dict]]]:
    """Every answer, and per hand (a `new_hand` starts one) the trick winners,
    the points and the last match state the referee gave."""
    referee = Referee()
    answers = []
    hands: list[list] = []
    for req in requests:
        answer = json.loads(referee.answer_line(json.dumps(req)))
        answers.append((req, answer))
        if req["op"] == "new_hand":
            hands.append([[], None, None])
        current = hands[-1]
        if "trick" in answer:
            current[0].append(answer["trick"]["winner"])
        result = answer.get("hand")
        if result is not None:
            # a redealt hand scores nothing (Sueca's `points` there are the
            # claimant's card points)
            current[1] = [0, 0] if "redeal" in result else result.get("points")
            current[2] = result.get("state", current[2])
        if "state" in answer:   # the Servant chosen after the hand
            current[2] = answer["state"]
    return answers, [tuple(h) for h in hands]


def check_replay(journal) -> int:
    requests = list(export_match(journal))
    answers, got = referee_hands(requests)
    refused = [(q, a) for q, a in answers if not a["ok"]]
    assert not refused, refused[:2]
    expected = table_hands(journal)
    assert got == expected
    return len(expected)


@pytest.mark.parametrize("knowledge", ["open", "scan", "dealt"])
@pytest.mark.parametrize("game", game_ids())
def test_a_whole_match_replays_in_the_referee_to_the_table_results(game, knowledge, tmp_path):
    settings = TableSettings(game=game, options=short_match(game), knowledge=knowledge)
    sim = run_demo(settings, seed=3)
    try:
        assert sim.state == "match_over"
        assert check_replay(sim.rig.ctl.journal) >= 1
    finally:
        sim.close()


# ----- more options: the steps a default match rarely takes ------------------------------

VARIANTS = [
    ("filko5", {"teams": "rich_poor", "match_length": 1}, "scan"),
    ("filcau20", {"no_binding": "next_dealer", "tie_break": "redeal"}, "open"),
    ("sueca", {"revoke_mode": "denounce_hand_120", "target": 1}, "open"),
    ("fildinsky", {"target": 300, "deece_exchange_to": "hand"}, "scan"),
]


@pytest.mark.parametrize(("game", "options", "knowledge"), VARIANTS)
def test_matches_under_other_options_replay_too(game, options, knowledge):
    sim = run_demo(TableSettings(game=game, options=options, knowledge=knowledge), seed=3)
    try:
        assert sim.state == "match_over"
        assert check_replay(sim.rig.ctl.journal) >= 1
    finally:
        sim.close()


# ----- hands played step by step at the table (its session and journal) --------------------

class Table:
    """A table's session writing its journal, with the real cards dealt."""

    def __init__(self, game: str, options: dict, knowledge: str = "open", seed: int = 1):
        self.journal = Journal(":memory:")
        self.session = Session(Selection(game, options, knowledge), store=self.journal)
        self.session.start_match(seed)
        self.rng = random.Random(seed)
        self.real: list[list[Card]] = []

    @property
    def hand(self):
        return self.session.hand()

    @property
    def game(self):
        return self.hand.game

    def deal(self, hands=None) -> None:
        """The real cards (given, or dealt at random); a scan table reads them."""
        if hands is None:
            hands = self.game.deal(self.rng, self.hand.dealer).hands
        self.real = [[card(c) if isinstance(c, str) else c for c in h] for h in hands]
        if self.hand.knowledge == "scan":
            for seat, h in enumerate(self.real):
                for c in h:
                    self.session.scan(seat, f"{c.code}#1", c)

    def step(self):
        return self.hand.step()

    def card(self, seat: int, c: Card | str):
        c = card(c) if isinstance(c, str) else c
        return self.session.card(seat, c, f"{c.code}#1")

    def choose(self, choice: str, seat: int | None = None):
        return self.session.choose(self.step().seat if seat is None else seat, choice)

    def play(self, count: int = 1000) -> None:
        """Play `count` legal cards (or to the end) from the real hands."""
        for _ in range(count):
            step = self.step()
            if step.kind != "play":
                return
            deal = self.hand.flow.deal
            mine = self.real[step.seat]
            legal = self.game.legal_subset(deal.trump, deal.current_trick, mine) or mine
            c = legal[0]
            self.card(step.seat, c)
            mine.remove(c)


def test_a_granted_redeal_claim_at_an_open_table_is_written_with_the_cards_shown():
    t = Table("sueca", {}, "open")
    dealer = t.hand.dealer
    leader = (dealer + 1) % 4
    weak = "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d".split()          # no card points at all
    t.card(dealer, "7h")                                    # the turned-up card: hearts
    assert t.step().choices == (f"redeal:{leader}",)
    t.choose(f"redeal:{leader}")
    for c in weak:
        t.card(leader, c)
    assert t.hand.done
    t.session.next_hand()
    requests = list(export_match(t.journal))
    assert requests[1] == {"op": "redeal", "game": "sueca", "seat": leader, "hand": weak}
    answers, got = referee_hands(requests)
    assert all(a["ok"] for _, a in answers)
    assert got == table_hands(t.journal)
    assert got[0][2]["dealer"] == dealer                    # the same dealer deals again


def test_a_refused_claim_is_left_out_and_the_hand_goes_on():
    t = Table("sueca", {}, "open", seed=4)
    dealer = t.hand.dealer
    leader = (dealer + 1) % 4
    t.deal()
    turned = t.real[dealer][-1]
    t.card(dealer, turned)
    t.choose(f"redeal:{leader}")
    for c in t.real[leader]:
        t.card(leader, c)
    assert t.step().kind == "play"                          # refused: more than 10 points
    t.play()
    t.session.next_hand()
    requests = [r for r in export_match(t.journal)]
    assert [r["op"] for r in requests] == ["new_hand"] + ["play"] * 40
    answers, got = referee_hands(requests)
    assert all(a["ok"] for _, a in answers)
    assert got == table_hands(t.journal)


def test_a_claim_at_a_scan_table_and_a_denounce_are_written_with_their_ops():
    t = Table("sueca", {"revoke_mode": "denounce_match_loss"}, "scan")
    dealer = t.hand.dealer
    leader = (dealer + 1) % 4
    hands = [[] for _ in range(4)]
    hands[leader] = "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d".split()
    hands[(leader + 1) % 4] = "Ac 7c Kc Jc Qc 7d Jd Qd Kd Ad".split()
    hands[(leader + 2) % 4] = "2s 3s 4s 5s 6s 7s Js Qs Ks As".split()
    hands[dealer] = "2h 3h 4h 5h 6h 7h Jh Qh Kh Ah".split()
    t.deal(hands)
    t.card(dealer, "Ah")                                    # hearts are trumps
    t.choose(f"redeal:{leader}")                            # granted at once: the table knows
    t.session.next_hand()
    # the same dealer again; now the player after the leader revokes and is denounced
    t.deal(hands)
    t.card(dealer, "Ah")
    t.card(leader, "2c")
    t.card((leader + 1) % 4, "7d")                          # he holds clubs
    t.choose(f"denounce:{(leader + 1) % 4}")
    assert t.hand.done
    t.session.next_hand()
    requests = list(export_match(t.journal))
    ops = [(r["op"], r.get("seat"), r.get("accused")) for r in requests]
    assert ("redeal", leader, None) in ops
    assert ("denounce", (leader + 2) % 4, (leader + 1) % 4) in ops
    answers, got = referee_hands(requests)
    assert all(a["ok"] for _, a in answers), [a for _, a in answers if not a["ok"]]
    assert got == table_hands(t.journal)
    assert got[-1][2]["winner"] == leader % 2               # revoking loses the match


def test_taken_back_steps_and_thrown_away_hands_stay_out():
    t = Table("filcau20", {}, "open", seed=2)
    dealer = t.hand.dealer
    left = (dealer + 1) % 4
    t.deal()
    t.choose("knock")
    t.session.abort()                                       # thrown away: dealt again
    t.deal()
    t.choose("cut")
    t.choose("deal", seat=left)                             # the dealer's act, from any seat
    t.choose("bind:4:A")
    t.session.undo()                                        # taken back
    t.choose("bind:3:U")
    for _ in range(3):
        t.choose("pass")
    assert t.step().prompt == "filcau20_prove"
    t.card(left, t.real[left][0])
    t.session.undo()
    t.choose("withdraw")                                    # nobody binds: dealt again
    assert t.hand.done
    t.session.next_hand()
    # the next hand stops in the middle of a proof: the proof is not written yet
    t.deal()
    t.choose("knock")
    t.choose("bind:3:U")
    for _ in range(3):
        t.choose("pass")
    t.card((dealer + 1) % 4, t.real[(dealer + 1) % 4][0])
    requests = list(export_match(t.journal))
    g = {"game": "filcau20"}
    assert [{k: v for k, v in r.items() if k not in ("options", "state")}
            for r in requests] == [
        {"op": "new_hand", **g, "cut": True},
        {"op": "fris", **g, "seat": dealer, "deal": True},
        {"op": "bind", **g, "seat": left, "call": "3:U"},
        *[{"op": "bind", **g, "seat": (left + k) % 4, "call": "pass"} for k in (1, 2, 3)],
        {"op": "bind", **g, "seat": left, "withdraw": True},
        {"op": "new_hand", **g, "cut": False},
        {"op": "bind", **g, "seat": left, "call": "3:U"},
        *[{"op": "bind", **g, "seat": (left + k) % 4, "call": "pass"} for k in (1, 2, 3)],
    ]
    answers, got = referee_hands(requests)
    assert all(a["ok"] for _, a in answers)
    assert got[:1] == table_hands(t.journal)
    assert answers[-1][1]["next"]["prompt"] == "filcau20_prove"


def test_a_game_without_its_own_export_gets_the_plays_and_a_note(monkeypatch):
    import table.export

    # Every 20-card Filcău hand has a step that is not a play (cut or knock).
    sim = run_demo(TableSettings(game="filcau20", knowledge="scan"), seed=3, max_moves=200)
    try:
        monkeypatch.setattr(table.export, "export_hook", lambda game: None)
        hands = list(export_hands(sim.rig.ctl.journal))
        ops = [r["op"] for r in hands[0].requests]
        assert ops[0] == "new_hand" and set(ops[1:]) <= {"play"}
        assert "filcau20's own referee ops" in hands[0].note
    finally:
        sim.close()


def test_cardtable_export_and_referee_on_the_command_line(tmp_path):
    state = tmp_path / "state"
    sim = run_demo(TableSettings(game="filcau20", knowledge="open"), seed=5, state_dir=state,
                   max_moves=400)   # the first hands; the last one is unfinished
    try:
        expected = table_hands(sim.rig.ctl.journal)
    finally:
        sim.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    exported = subprocess.run([sys.executable, "-m", "table.cli", "export", "--state",
                               str(state)], capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=120)
    assert exported.returncode == 0 and exported.stderr == ""
    ops = {json.loads(line)["op"] for line in exported.stdout.splitlines()}
    assert {"new_hand", "fris", "bind", "play"} <= ops
    answered = subprocess.run([sys.executable, "-m", "table.cli", "referee"],
                              input=exported.stdout, capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=120)
    assert answered.returncode == 0
    answers = [json.loads(line) for line in answered.stdout.splitlines()]
    requests = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(answers) == len(requests) and all(a["ok"] for a in answers)
    got = referee_hands(requests)[1]
    assert len(got) == len(expected) + 1 and got[:-1] == expected
