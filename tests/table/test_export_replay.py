"""`cardtable sim --script` replays an export at the fake table, every game's
own steps included (calls, bindings, fris, claims, melds, draws: the buttons
and readers they were made with), and the table records the same match again."""

from __future__ import annotations

import json

import pytest

from engine.games import game_ids
from hw_mocks.simulator.headless import read_script, replay, run_demo
from table.settings import TableSettings
from tests.table.test_export_referee import short_match

CASES = [(game, short_match(game), "scan") for game in game_ids()] + [
    ("filcau20", {}, "open"),                  # proofs of bindings, cards turned on the fris
    ("fildinsky", {"target": 300}, "open"),
    ("sueca", {"revoke_mode": "denounce_hand_120", "target": 1}, "dealt"),
]

#: 20-card Filcău has no short match: its first hands (the last one unfinished) do.
MOVES = {"filcau20": 400}


@pytest.mark.parametrize(("game", "options", "knowledge"), CASES)
def test_an_exported_match_replays_at_the_table_to_the_same_export(game, options, knowledge,
                                                                   tmp_path):
    script = tmp_path / "match.jsonl"
    sim = run_demo(TableSettings(game=game, options=options, knowledge=knowledge), seed=3,
                   export=script, max_moves=MOVES.get(game, 20_000))
    sim.close()
    result = replay(script, knowledge=knowledge)
    assert result.problems == [] and result.matched
    assert result.got == read_script(script)


def test_a_step_the_table_does_not_offer_is_named(tmp_path):
    script = tmp_path / "match.jsonl"
    sim = run_demo(TableSettings(game="filcau20", knowledge="scan"), seed=3, export=script,
                   max_moves=300)
    sim.close()
    lines = read_script(script)
    first = next(i for i, r in enumerate(lines) if r["op"] == "bind" and "call" in r)
    lines[first]["call"] = "closed"            # the seat's cards do not make a closed hand
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in lines))
    result = replay(bad, knowledge="scan")
    assert not result.matched
    assert "'closed'" in result.problems[0] and "does not offer" in result.problems[0]


def test_the_replay_shows_the_same_frames_button_choices_included(tmp_path):
    # five-player Filkó at an open table: the Old Man shows his Over, then
    # names trumps and calls a card with MENU and OK
    settings = TableSettings(game="filko5", options={"match_length": 1}, knowledge="open")
    sim = run_demo(settings, seed=3, frames=tmp_path / "a", export=tmp_path / "m.jsonl")
    sim.close()
    assert {r["op"] for r in read_script(tmp_path / "m.jsonl")} == {"new_hand", "call", "play"}
    result = replay(tmp_path / "m.jsonl", frames=tmp_path / "b", knowledge="open")
    assert result.matched
    a = sorted((tmp_path / "a").glob("frame_*.png"))
    b = sorted((tmp_path / "b").glob("frame_*.png"))
    assert len(a) == len(b) > 30
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
