"""Headless simulator: bot demos of every game, the replay of an exported match
frame for frame, and faults injected at the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.games import game_ids
from hw_mocks.simulator.driver import SimTable
from hw_mocks.simulator.headless import (
    ScriptError,
    demo_settings,
    read_script,
    replay,
    run_demo,
)
from table.settings import TableSettings

ROOT = Path(__file__).resolve().parents[2]


def cardtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=240,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def short_match(game: str) -> dict:
    """Options that make a match short enough for a test."""
    from engine.games import game_class

    names = {s.name for s in game_class(game).option_specs}
    if "match_length" in names:
        return {"match_length": 1}
    if game == "fildinsky":
        return {"target": 300}
    if "target" in names:
        return {"target": 1}
    return {}


@pytest.mark.parametrize("knowledge", ["open", "scan", "dealt"])
@pytest.mark.parametrize("game", game_ids())
def test_bots_play_a_whole_match_of_every_game(game, knowledge):
    settings = TableSettings(game=game, options=short_match(game), knowledge=knowledge)
    sim = run_demo(settings, seed=3)
    try:
        assert sim.state == "match_over", [line.text for line in sim.log[-5:]]
        assert not [line for line in sim.log if line.kind == "error"]
    finally:
        sim.close()


def test_demo_and_replay_from_the_command_line_frame_for_frame(tmp_path):
    first = cardtable("sim", "--demo", "--headless", "--fast", "--knowledge", "scan",
                      "--frames", str(tmp_path / "a"), "--export", str(tmp_path / "m.jsonl"))
    assert first.returncode == 0, first.stderr
    assert "match_over" in first.stdout
    gif = tmp_path / "a" / "match.gif"
    with Image.open(gif) as anim:
        assert anim.n_frames > 50
    again = cardtable("sim", "--script", str(tmp_path / "m.jsonl"), "--knowledge", "scan",
                      "--frames", str(tmp_path / "b"), "--expect-frames", str(tmp_path / "a"))
    assert again.returncode == 0, again.stderr
    assert "replay matched" in again.stdout
    a = sorted((tmp_path / "a").glob("frame_*.png"))
    b = sorted((tmp_path / "b").glob("frame_*.png"))
    assert len(a) == len(b) > 50
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))


def test_the_export_replays_through_the_referee_to_the_same_results(tmp_path):
    sim = run_demo(demo_settings("filicau", knowledge="open"), seed=5,
                   export=tmp_path / "m.jsonl")
    sim.close()
    proc = subprocess.run([sys.executable, "-m", "table.cli", "referee"],
                          input=(tmp_path / "m.jsonl").read_text(), capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert answers and all(a["ok"] for a in answers)
    assert sum(1 for a in answers if "hand" in a) == 3


def test_a_tampered_script_does_not_match(tmp_path):
    sim = run_demo(demo_settings("filicau", knowledge="scan"), seed=6,
                   export=tmp_path / "m.jsonl")
    sim.close()
    lines = read_script(tmp_path / "m.jsonl")
    plays = [i for i, r in enumerate(lines) if r["op"] == "play"]
    a, b = plays[0], plays[1]
    lines[a], lines[b] = lines[b], lines[a]  # two plays out of turn
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines))
    result = replay(bad, knowledge="scan")
    assert not result.matched and result.problems
    proc = cardtable("sim", "--script", str(bad))
    assert proc.returncode == 1 and "did NOT match" in proc.stderr


def test_a_script_that_is_not_an_export_is_a_clear_error(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"op": "legal"}\n')
    proc = cardtable("sim", "--script", str(bad))
    assert proc.returncode == 2 and "new_hand or play" in proc.stderr


def test_sim_without_a_terminal_says_how_to_run_headless():
    proc = cardtable("sim", "--game", "filicau")
    assert proc.returncode == 2 and "--demo --headless" in proc.stderr


def test_bad_arguments_are_named():
    proc = cardtable("sim", "--demo", "--headless", "--game", "filicau",
                     "--options", '{"bogus": 1}')
    assert proc.returncode == 2 and "bogus" in proc.stderr
    proc = cardtable("sim", "--seat", "9", "--game", "filicau")
    assert proc.returncode == 2 and "seats 1..4" in proc.stderr


# ----- faults -----------------------------------------------------------------------------

def human_sim(**kw) -> SimTable:
    sim = SimTable(TableSettings(game="filicau", knowledge="scan"), humans=(0,), seed=9, **kw)
    sim.start()
    sim.run_bots()
    while sim.step().kind == "show":  # seat 1 deals: show the cards for trumps
        sim.play(0, sim.hand_of(0)[len(sim._hand().flow.shown)])
        sim.run_bots()
    return sim


def test_a_misread_is_refused_and_changes_nothing():
    sim = human_sim()
    try:
        before = sim.rig.snapshot()
        sim.misread(0)
        assert sim.rig.snapshot() == before
        assert any("enroll" in line.text.lower() for line in sim.log[-3:])
    finally:
        sim.close()


def test_crosstalk_from_a_card_lying_at_another_seat_is_ignored():
    sim = human_sim()
    try:
        deal = sim._hand().flow.deal
        sim.play(0, next(iter(deal.legal_cards(0))))
        before = sim.rig.snapshot()
        sim.crosstalk(1)  # seat 2's reader also sees the card seat 1 just played
        assert sim.rig.snapshot() == before
        assert not any(line.kind == "error" for line in sim.log[-2:])
    finally:
        sim.close()


def test_a_reader_going_offline_shows_and_coming_back_clears(tmp_path):
    sim = human_sim()
    try:
        sim.set_offline(0, True)
        offline_frame = sim.frame.tobytes()
        sim.set_offline(0, False)
        assert sim.frame.tobytes() != offline_frame
        assert sim.faults.offline == set()
    finally:
        sim.close()


def test_a_power_cut_resumes_exactly_from_the_journal(tmp_path):
    sim = human_sim(state_dir=tmp_path)
    try:
        deal = sim._hand().flow.deal
        sim.play(0, next(iter(deal.legal_cards(0))))
        sim.run_bots()
        before = sim.rig.snapshot()
        hand_before = sim.hand_of(0)
        sim.power_cut()
        assert sim.rig.snapshot() == before
        assert sim.hand_of(0) == hand_before
        # and the game goes on
        deal = sim._hand().flow.deal
        assert sim.play(0, next(iter(deal.legal_cards(0))))
    finally:
        sim.close()


@pytest.mark.parametrize("game,options", [
    # the Old Man shows his Over on his own reader (a step any seat may take)
    ("filko5", {"teams": "rich_poor", "match_length": 1}),
    # the cards turned up on the fris are ones the table has not seen yet
    ("filcau20", {"fris_priority": "highest_over"}),
])
def test_bots_finish_variants_with_steps_any_seat_may_take(game, options):
    sim = run_demo(TableSettings(game=game, options=options, knowledge="open"), seed=2)
    try:
        assert sim.state == "match_over", [line.text for line in sim.log[-3:]]
    finally:
        sim.close()


@pytest.mark.parametrize("knowledge", ["open", "scan", "dealt"])
@pytest.mark.parametrize("game", ["filicau", "sueca", "filko"])
def test_a_simulator_killed_mid_match_resumes_from_its_journal(tmp_path, game, knowledge):
    """A new simulator on the same state folder (as after `kill -9` and a
    restart with the same --state and --seed) finishes the match with no refusal."""
    settings = demo_settings(game, {} if game == "sueca" else {"match_length": 2}, knowledge)
    first = SimTable(settings, seed=5, state_dir=tmp_path)
    first.start()
    for _ in range(45):  # into the second hand
        first.advance()
    # dropped without closing anything, as a killed process would be
    second = SimTable(settings, seed=5, state_dir=tmp_path)
    try:
        second.start()
        assert second.match is not None and second.match.hand is not None
        second.run_bots()
        assert second.state == "match_over", [line.text for line in second.log[-3:]]
        assert not [line for line in second.log if line.kind == "error"]
    finally:
        second.close()


def test_fildinsky_bots_play_a_whole_game_to_2000_without_a_refusal():
    """With hands unknown the bots must still play only legal cards in the last
    eight tricks (they ask with the deal's context: the stock is empty)."""
    sim = run_demo(TableSettings(game="fildinsky", knowledge="open"), seed=2)
    try:
        assert sim.state == "match_over"
        assert not [line.text for line in sim.log if line.kind == "error"]
    finally:
        sim.close()


def test_frames_that_differ_make_the_replay_fail(tmp_path):
    """A match the export cannot reproduce frame for frame: the knowledge mode
    is not given again (a dealt match replayed as scanned), or a refused tap
    (the export does not hold it)."""
    sim = run_demo(demo_settings("filicau", knowledge="dealt"), seed=4, frames=tmp_path / "a",
                   export=tmp_path / "m.jsonl")
    sim.close()
    assert replay(tmp_path / "m.jsonl", knowledge="dealt", expect_frames=tmp_path / "a").matched
    wrong = replay(tmp_path / "m.jsonl", expect_frames=tmp_path / "a")  # replayed as scan
    assert not wrong.matched and "frame" in wrong.problems[0]

    sim = SimTable(demo_settings("filicau", knowledge="open"), seed=4)
    from hw_mocks.simulator.headless import FrameRecorder, attach_recorder, write_export

    rec = FrameRecorder(tmp_path / "c")
    attach_recorder(sim, rec)
    sim.start()
    for _ in range(6):
        sim.advance()
    sim.misread(sim.waiting_for() or 0)  # refused: an error screen the export cannot hold
    sim.run_bots()
    rec.close()
    write_export(sim.rig, tmp_path / "n.jsonl")
    sim.close()
    proc = cardtable("sim", "--script", str(tmp_path / "n.jsonl"), "--expect-frames",
                     str(tmp_path / "c"))
    assert proc.returncode == 1 and "frame" in proc.stderr
    assert cardtable("sim", "--script", str(tmp_path / "n.jsonl")).returncode == 0


@pytest.fixture(scope="module")
def open_export(tmp_path_factory) -> list[dict]:
    """A short Filicău match played open (the export holds no hands)."""
    path = tmp_path_factory.mktemp("export") / "m.jsonl"
    run_demo(demo_settings("filicau", {"match_length": 1}), seed=3, export=path).close()
    return read_script(path)


@pytest.mark.parametrize("change, words", [
    ({"game": "poker"}, "There is no game called 'poker'"),
    ({"options": {"match_length": "many"}}, "Option 'match_length' of filicau cannot be"),
])
def test_a_script_for_a_game_or_option_that_does_not_exist_is_a_clear_error(
        tmp_path, open_export, change, words):
    lines = [dict(open_export[0], **change), *open_export[1:]]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(ScriptError, match=words):
        replay(bad)
    proc = cardtable("sim", "--script", str(bad))
    assert proc.returncode == 2 and words in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_script_replayed_where_the_table_takes_no_card_does_not_match(tmp_path, open_export):
    """Dealt knowledge waits for the dealing, which an open export does not
    hold: the first play is named as not taken (it was a traceback)."""
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in open_export))
    assert replay(path).matched
    result = replay(path, knowledge="dealt")
    assert not result.matched
    assert "the table takes no card now (it is in match_deal_dealt)" in result.problems[0]
    with pytest.raises(ScriptError, match="knowledge is one of scan, dealt, open"):
        replay(path, knowledge="peek")
