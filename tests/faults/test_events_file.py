"""Events files: seats, places and cards out of range are mistakes listed
with their line numbers, like every other mistake, and nothing runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import get_game
from table.events_script import EventsError, Limits, parse
from tests.faults.helpers import played_rig

ROOT = Path(__file__).resolve().parents[2]


def limits(game="filicau", seats=6, dealer=True):
    g = get_game(game)
    return Limits(seats, dealer, g.players, g.pack, game)


def mistakes(text, lim):
    with pytest.raises(EventsError) as info:
        parse(text, "f.txt", lim.seats, limits=lim)
    return info.value.problems


def test_a_seat_the_game_does_not_have_is_a_mistake_with_its_line():
    text = "press ok\ntap 0 Kb\ntap 5 Kb\narrive 4 Ab\nleave 3 Ab\n"
    assert mistakes(text, limits()) == [
        "line 3: seat 5 is not in the game: filicau is played by seats 0..3 or dealer",
        "line 4: seat 4 is not in the game: filicau is played by seats 0..3 or dealer",
    ]


def test_seats_beyond_the_table_and_a_missing_dealer_reader():
    text = "tap 6 Kb\noffline 9\nback 6\ntap dealer Kb\noffline 5\n"
    assert mistakes(text, limits(dealer=False)) == [
        "line 1: there is no seat 6: seats are 0..5",
        "line 2: there is no seat 9: seats are 0..5",
        "line 3: there is no seat 6: seats are 0..5",
        "line 4: this table has no dealer's reader: write a seat 0..3",
    ]


def test_cards_the_games_pack_does_not_have():
    text = "tap 0 2h\ntap 1 Kh#2\ntap 2 Zz\ntap 3 Kb\ntap 0 04A1B2C3D4\n"
    assert mistakes(text, limits()) == [
        "line 1: '2h' is not a card of the german32 pack that filicau is played with",
        "line 2: 'Kh#2': the german32 pack has one copy of each card",
        "line 3: 'Zz' is neither a card (like Kh, 10h, Oa) nor a UID (hexadecimal, "
        "like 04A1B2C3)",
    ]


def test_a_double_pack_takes_second_copies_and_a_six_player_game_its_seats():
    assert len(parse("tap 5 Kb\n", "f", 6, limits=limits("filko6"))) == 1
    assert mistakes("tap 5 Kb\n", limits("filko5")) == [
        "line 1: seat 5 is not in the game: filko5 is played by seats 0..4 or dealer"]
    double = limits("fildinsky")
    assert [e.card for e in parse("tap 0 Ks#2\n", "f", 6, limits=double)] == ["Ks#2"]


def test_both_mistakes_of_one_line_are_listed():
    assert mistakes("leave 4 Xx\n", limits()) == [
        "line 1: seat 4 is not in the game: filicau is played by seats 0..3 or dealer; "
        "'Xx' is neither a card (like Kh, 10h, Oa) nor a UID (hexadecimal, like 04A1B2C3)"]


def run(*args):
    return subprocess.run([sys.executable, "-m", "table.cli", "run", "--hardware", "mock",
                           *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_the_command_lists_them_and_runs_nothing(tmp_path):
    events = tmp_path / "e.txt"
    events.write_text("press ok\ntap 0 Kb\ntap 5 Kb\n")
    state = tmp_path / "s"
    proc = run("--events", str(events), "--state", str(state), "--game", "filicau")
    assert proc.returncode == 2
    assert "line 3: seat 5 is not in the game" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not state.exists()                    # nothing ran, nothing was written


def test_the_game_in_the_state_folder_is_the_one_checked(tmp_path):
    """A journal whose match is Filicău (4 seats) is checked as such, whatever
    --game says for a new match."""
    rig = played_rig(tmp_path / "s", moves=2)
    rig.close()
    events = tmp_path / "e.txt"
    events.write_text("tap 4 Kb\n")
    proc = run("--events", str(events), "--state", str(tmp_path / "s"), "--game", "sueca")
    assert proc.returncode == 2 and "seat 4 is not in the game: filicau" in proc.stderr
