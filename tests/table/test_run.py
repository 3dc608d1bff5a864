"""The command line: a whole Filicău match from an events file on the fake
table, resuming on a second run, the export replayed by the referee, clear
errors for bad input (nothing written), and the card registry's commands."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import get_game
from hw_mocks.bot import Bot
from table.cli import main
from table.ports import DEALER

ROOT = Path(__file__).resolve().parents[2]


def match_events(seed, knowledge="scan", match_length=2, bot_seed=4):
    """An events file for a whole match, from a bot that deals real hands.
    `cardtable run --seed` picks the first dealer the same way."""
    game = get_game("filicau", {"match_length": match_length})
    seeds = random.Random(seed)
    state = game.state_from_json(game.new_match(random.Random(seeds.randrange(2**62))).to_json())
    bot = Bot(game, random.Random(bot_seed), lambda c, k: f"{c.code}#{k}")
    lines = ["# a whole match", "press ok"]
    hands = []
    while not state.over:
        bot.new_hand(state, knowledge)
        moves = bot.scan_moves() if knowledge == "scan" else \
            bot.deal_moves() if knowledge == "dealt" else []
        while (m := bot.next_move()) is not None:
            moves.append(m)
        for m in moves:
            place = "dealer" if m.place == DEALER else m.place
            lines.append(f"tap {place} {m.uid}")
        hands.append(list(bot.shadow.result().points))
        state = game.state_from_json(bot.shadow.settled().to_json())
        lines += ["pause 1.5", "press ok"]
    lines.append("press ok")           # the match is over: back to the start
    return "\n".join(lines) + "\n", hands


def cardtable(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "table.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_a_whole_filicau_match_from_the_command_line(tmp_path):
    text, hands = match_events(8)
    events = tmp_path / "match.txt"
    events.write_text(text)
    out = cardtable("run", "--hardware", "mock", "--events", events, "--state",
                    tmp_path / "state", "--game", "filicau", "--option", "match_length=2",
                    "--knowledge", "scan", "--seed", 8)
    assert out.returncode == 0, out.stderr
    printed = [ln for ln in out.stdout.splitlines() if ln.startswith("hand ")]
    # "hand 1: points 1+3: 5, 2+4: 3; 1+3 masters, 2+4 slaves": teams by their seats
    assert [[int(p) for p in re.findall(r"[0-9]\+[0-9]: ([0-9]+)", ln)] for ln in printed] \
        == hands
    assert "match over" in out.stdout
    assert "state: ready;" in out.stdout
    assert "refused" not in out.stdout
    # the export, answered by the referee, gives the same hands
    exported = cardtable("export", "--state", tmp_path / "state")
    assert exported.returncode == 0 and exported.stderr == ""
    referee = subprocess.run([sys.executable, "-m", "table.cli", "referee"],
                             input=exported.stdout, capture_output=True, text=True, cwd=ROOT)
    answers = [json.loads(ln) for ln in referee.stdout.splitlines()]
    assert all(a["ok"] for a in answers)
    assert [a["hand"]["points"] for a in answers if "hand" in a] == hands
    listed = cardtable("export", "--state", tmp_path / "state", "--list")
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["match", "game", "knowledge", "hands", "ended"]
    assert lines[2].split()[1:] == ["filicau", "scan", "2", "over"]


def test_a_second_run_on_the_same_state_resumes(tmp_path):
    text, hands = match_events(3, knowledge="open", match_length=1)
    lines = text.splitlines()
    cut = len(lines) // 2
    (tmp_path / "one.txt").write_text("\n".join(lines[:cut]) + "\n")
    (tmp_path / "two.txt").write_text("\n".join(lines[cut:]) + "\n")
    state = tmp_path / "state"
    common = ["--hardware", "mock", "--state", state, "--option", "match_length=1",
              "--knowledge", "open", "--seed", 3]
    first = cardtable("run", "--events", tmp_path / "one.txt", *common)
    assert first.returncode == 0, first.stderr
    assert "state: match_hand_play" in first.stdout
    second = cardtable("run", "--events", tmp_path / "two.txt", *common)
    assert second.returncode == 0, second.stderr
    assert "resumed from the journal" in second.stdout
    # the teams by their seats as people count them, and who won, in words
    first_team, second_team = hands[0]
    assert f"hand 1: points 1+3: {first_team}, 2+4: {second_team}; " in second.stdout
    result = ("No winner: a draw" if first_team == second_team else
              f"{'1+3' if first_team > second_team else '2+4'} win the match")
    assert result in second.stdout
    assert "state: ready;" in second.stdout


def test_a_bad_events_file_names_its_lines_and_runs_nothing(tmp_path, capsys):
    events = tmp_path / "bad.txt"
    events.write_text("press ok\ntapp 1 Kh\ntap 9 Kh\ntap 1 Zz\npause soon\nhold start\n")
    state = tmp_path / "state"
    assert main(["run", "--hardware", "mock", "--events", str(events),
                 "--state", str(state)]) == 2
    err = capsys.readouterr().err
    for line, what in [(2, "unknown event 'tapp'"), (3, "there is no seat 9"),
                       (4, "'Zz' is neither a card"), (5, "'soon' is not a number"),
                       (6, "hold takes a button")]:
        assert f"line {line}: {what}" in err
    assert "5 mistakes" in err
    assert not state.exists()


def test_an_unknown_game_or_option_is_refused_before_anything_runs(tmp_path, capsys):
    assert main(["run", "--hardware", "mock", "--game", "poker", "--state",
                 str(tmp_path / "s")]) == 2
    assert "no game called 'poker'" in capsys.readouterr().err
    assert main(["run", "--hardware", "mock", "--option", "match_length=many", "--state",
                 str(tmp_path / "s")]) == 2
    assert "match_length" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_events_belong_to_the_fake_table_only(capsys, tmp_path):
    (tmp_path / "e.txt").write_text("press ok\n")
    assert main(["run", "--hardware", "pi", "--events", str(tmp_path / "e.txt")]) == 2
    assert "--events plays fake hardware" in capsys.readouterr().err


def test_the_pi_without_its_drivers_says_so(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "table.drivers", None)
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["run", "--hardware", "pi", "--config", str(config),
                 "--state", str(tmp_path / "s")]) == 2
    assert "hardware drivers are not available" in capsys.readouterr().err


def test_a_damaged_journal_stops_the_run_and_is_left_alone(tmp_path, capsys):
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite").write_bytes(b"not a database" * 50)
    # 78: the stored state needs a person (systemd does not restart the service)
    assert main(["run", "--hardware", "mock", "--state", str(state)]) == 78
    assert "cannot be read" in capsys.readouterr().err
    assert (state / "journal.sqlite").read_bytes() == b"not a database" * 50


def test_the_registry_commands_list_export_and_import(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    (tmp_path / "e.txt").write_text("tap 0 Kh\n")      # enrolls a virtual pack on the fake
    assert main(["run", "--hardware", "mock", "--events", str(tmp_path / "e.txt"),
                 "--state", str(one), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["enroll", "--state", str(one)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split() == ["pack", "type", "cards", "state", "name"]
    assert listed[2].split() == ["1", "german32", "32/32", "complete", "virtual", "german32"]
    assert main(["enroll", "--state", str(one), "--export", str(tmp_path / "p.json")]) == 0
    two.mkdir()
    assert main(["enroll", "--state", str(two), "--import", str(tmp_path / "p.json")]) == 0
    assert "imported pack 1" in capsys.readouterr().out
    assert main(["enroll", "--state", str(two), "--import", str(tmp_path / "p.json")]) == 1
    assert "already enrolled here" in capsys.readouterr().err
    assert main(["enroll", "--state", str(two), "--remove", "1"]) == 0
    assert main(["enroll", "--state", str(tmp_path / "nowhere")]) == 2


@pytest.mark.parametrize("args, message", [
    (["export", "--state", "NOWHERE"], "there is no journal"),
])
def test_export_without_a_journal_says_so(tmp_path, capsys, args, message):
    args = [a.replace("NOWHERE", str(tmp_path / "x")) for a in args]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_the_pi_run_opens_the_configured_ports_and_hands_over_to_systemd(
        monkeypatch, capsys, tmp_path):
    import table.drivers
    import table.sd_notify
    from hw_mocks.table import MockTable

    mock = MockTable(seats=4)
    closed = []
    monkeypatch.setattr(table.drivers, "build_ports", lambda config, **_: mock.ports)
    monkeypatch.setattr(table.drivers, "close_ports", lambda ports: closed.append(ports))
    seen = {}

    def supervise(alive, stop, status=""):
        seen["alive"] = alive(2.0)          # the controller thread answers
        seen["status"] = status
        return 0

    monkeypatch.setattr(table.sd_notify, "supervise", supervise)
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["run", "--hardware", "pi", "--config", str(config),
                 "--state", str(tmp_path / "state")]) == 0
    assert seen == {"alive": True, "status": "4 seats, filicau, ready"}
    assert "ready (4 seats, filicau, ready)" in capsys.readouterr().out
    assert (tmp_path / "state" / "journal.sqlite").exists()
    assert closed == [mock.ports]
    assert mock.display.image is not None
    mock.close()


def test_the_example_of_the_events_docs_prints_what_the_docs_say(tmp_path):
    text = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    section = text.split("## Example", 1)[1].split("## Other options", 1)[0]
    blocks, current = [], []
    for line in section.splitlines():
        if line.startswith("    "):
            current.append(line[4:])
        elif current:
            blocks.append(current)
            current = []
    events, printed = blocks[0], blocks[1]
    (tmp_path / "example.txt").write_text("\n".join(events) + "\n")
    out = cardtable("run", "--hardware", "mock", "--events", tmp_path / "example.txt",
                    "--knowledge", "open", "--seed", 5, "--state", tmp_path / "s")
    assert out.returncode == 0, out.stderr
    got = [ln for ln in out.stdout.splitlines() if ln and set(ln) - {".", "#"}]
    assert got[:-1] == printed[:-1]
    assert got[-1].startswith(printed[-1].split("/tmp/")[0])
