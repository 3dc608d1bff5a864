"""`cardtable hub`, `cardtable club-sim` and `cardtable sim --club`: a
clear message and status 2 for what cannot work, no traceback; a demo
table's whole match reaches a real hub."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.club.services import Amqtt, HubRunner

ROOT = Path(__file__).resolve().parents[2]


def cardtable(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("args, words", [
    (["hub", "--db", "ftp://x", "--mqtt-port", "0", "--port", "0"], "must be a file"),
    (["hub", "--broker", "http://h"], "mqtt:// or mqtts://"),
    (["hub", "--broker", "mqtt://127.0.0.1:1", "--db", "/nonexistent/dir/hub.sqlite"],
     "cannot be used"),
    (["club-sim", "--club", "mqtt://x:99999"], "not a number"),
    (["club-sim", "--tables", "0"], "--tables must be 1..256"),
    (["sim", "--demo", "--headless", "--club", "http://x"], "mqtt:// or mqtts://"),
    (["sim", "--demo", "--headless", "--club", "mqtt://h", "--table-name", "a b"],
     "--table-name"),
])
def test_what_cannot_work_is_said_plainly(args, words):
    r = cardtable(*args)
    assert r.returncode == 2, r.stderr
    assert words in r.stderr
    assert "Traceback" not in r.stderr


def test_a_taken_port_is_said_plainly():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = cardtable("hub", "--mqtt-host", "127.0.0.1", "--mqtt-port", str(port))
        assert r.returncode == 2
        assert "the port is taken" in r.stderr and "Traceback" not in r.stderr
        r = cardtable("hub", "--broker", "mqtt://127.0.0.1:1", "--host", "127.0.0.1",
                      "--port", str(port), "--db", ":memory:")
        assert r.returncode == 2
        assert "--port" in r.stderr and "Traceback" not in r.stderr


def test_a_demo_table_plays_its_match_into_the_room(amqtt: Amqtt, tmp_path: Path):
    runner = HubRunner(tmp_path, amqtt.url())
    hub = runner.start()
    try:
        r = cardtable("sim", "--demo", "--headless", "--game", "filicau", "--options",
                      '{"match_length": 1}', "--club", amqtt.url(),
                      "--table-name", "demo-1", "--state", str(tmp_path / "t"), timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "the hub holds them all" in r.stdout
        (line,) = hub.snapshot()[1]
        assert line["name"] == "demo-1" and line["game"] == "Filicău"
        assert line["state"] == "over" and line["hands"] == 1
    finally:
        runner.stop()


def test_a_table_with_a_club_section_publishes_its_match(amqtt: Amqtt, tmp_path: Path):
    from tests.table.test_run import match_events

    text, _ = match_events(3, knowledge="open", match_length=1)
    (tmp_path / "m.txt").write_text(text)
    (tmp_path / "config.toml").write_text(
        f'[table]\ngame = "filicau"\nknowledge = "open"\n\n'
        f'[club]\nbroker = "{amqtt.url()}"\ntable = "table-9"\n')
    runner = HubRunner(tmp_path, amqtt.url())
    hub = runner.start()
    try:
        r = cardtable("run", "--hardware", "mock", "--config", str(tmp_path / "config.toml"),
                      "--events", str(tmp_path / "m.txt"), "--state", str(tmp_path / "s"),
                      "--option", "match_length=1", "--seed", "3", "--quiet")
        assert r.returncode == 0, r.stderr
        assert "publishing to the club" in r.stdout
        (line,) = hub.snapshot()[1]
        assert line["name"] == "table-9" and line["hands"] == 1
        assert runner.store.count() == line["mark"] > 30
    finally:
        runner.stop()
