"""The doctor asks the reader hub for its version and its channels (VER and
CARDS, firmware/PROTOCOL.md) and names every seat whose reader does not
answer the hub: on the real firmware running on a fake hub (pty pair)."""

from __future__ import annotations

import pytest

from hw_mocks.fake_hub import FakeHub
from hw_mocks.mfrc522 import Ntag213
from table.cli import main
from table.config import loads
from table.doctor import Doctor, DoctorParts, summary
from table.drivers.hub_readers import HubReaders
from table.drivers.reader_wiring import hub_places

HUB_TABLE = "".join(f'[[seats]]\nreader = {{ type = "hub", channel = {i} }}\n'
                    for i in (0, 1, 2, 3)) + '[dealer]\nreader = { type = "hub", channel = 5 }\n'


@pytest.fixture
def hub():
    h = FakeHub(channels=6)
    h.plug()
    yield h
    h.unplug()


def ask(config, find_port, wait=3.0):
    channels = {place: r.channel for place, r in hub_places(config).items()}
    parts = DoctorParts(open_hub=lambda: HubReaders(channels, find_port=find_port))
    lines = []
    findings = Doctor(config, parts, out=lines.append, sleep=lambda s: None, live=False,
                      check_nodes=False, hub_wait_s=wait).run()
    return {f.topic: f for f in findings}, findings


def test_a_healthy_hub_gives_its_version_and_every_channel_answers(hub):
    got, findings = ask(loads(HUB_TABLE), hub.find_port)
    assert got["hub"].status == "ok"
    assert got["hub"].text == f"{hub.path}: cardtable-hub 1.2.0, protocol 1"
    # seats are listed clockwise and play goes anticlockwise: seat "4" is on channel 3
    for topic, channel in (("seat 1", 0), ("seat 2", 1), ("seat 3", 2), ("seat 4", 3),
                           ("the dealer's reader", 5)):
        assert (got[topic].status, got[topic].text) == (
            "ok", f"hub channel {channel}: the reader answers")
    assert not [f for f in findings if f.status == "fail"]


def test_channels_that_do_not_answer_are_named_with_their_wires(hub):
    hub.board.readers[2].unplug()          # seat 3's reader lost its wires
    config = loads(HUB_TABLE.replace("channel = 5", "channel = 7"))   # no reader there at all
    got, findings = ask(config, hub.find_port)
    assert got["hub"].status == "ok"
    assert (got["seat 3"].status, got["seat 3"].text) == (
        "fail", "hub channel 2: the reader does not answer")
    assert "GP21" in got["seat 3"].fix and "3.3 V" in got["seat 3"].fix
    assert (got["the dealer's reader"].status, got["the dealer's reader"].text) == (
        "fail", "hub channel 7: the reader does not answer")
    assert "GP15" in got["the dealer's reader"].fix
    assert {t for t, f in got.items() if f.status == "ok"} == {
        "config", "hub", "seat 1", "seat 2", "seat 4"}
    # five readers on the hub: more than the Pico's 3V3(OUT) feeds
    assert got["power"].status == "warn"
    text = summary(findings)
    assert text.startswith("2 problems, 1 warning.")
    assert "seat 3: hub channel 2: the reader does not answer" in text


def test_a_card_lying_on_a_reader_is_mentioned(hub):
    hub.place(Ntag213("04A1B2C3D4E5F6"), 1)
    got, _ = ask(loads(HUB_TABLE), hub.find_port)
    assert got["seat 2"].text == "hub channel 1: the reader answers; a card lies on it " \
                                 "(04A1B2C3D4E5F6)"


def test_no_hub_plugged_in():
    got, _ = ask(loads(HUB_TABLE), lambda: None)
    assert got["hub"].status == "fail"
    assert got["hub"].text == ("/dev/cardtable-hub: the hub is not plugged in (no serial port "
                               "with its USB id)")
    assert "plug the hub into a USB port" in got["hub"].fix
    assert "seat 1" not in got             # nothing more to say about its channels


def test_a_hub_that_does_not_answer(hub):
    hub.freeze()                           # a serial port, but no firmware talking
    got, _ = ask(loads(HUB_TABLE), hub.find_port, wait=0.5)
    assert got["hub"].status == "fail"
    assert got["hub"].text == f"{hub.path}: no answer to VER in 0.5 s"
    assert "firmware" in got["hub"].fix
    assert (got["seat 1"].status, got["seat 1"].text) == (
        "fail", "hub channel 0: the hub did not list its channels in 0.5 s")
    hub.thaw()


def test_the_command_asks_the_fake_hub_on_mock_hardware(tmp_path, capsys):
    f = tmp_path / "hub.toml"
    f.write_text(HUB_TABLE)
    assert main(["doctor", "--hardware", "mock", "--no-live", "--quick", "--config",
                 str(f)]) == 0
    out = capsys.readouterr().out
    assert ": cardtable-hub 1.2.0, protocol 1" in out
    assert "OK    the dealer's reader: hub channel 5: the reader answers" in out


def test_the_chip_selects_named_are_the_firmware_s():
    import ast
    from pathlib import Path

    from table.drivers.hub_readers import HUB_CS_PINS

    source = (Path(__file__).resolve().parents[2] / "firmware" / "hubconfig.py").read_text()
    tree = ast.parse(source)
    (value,) = [n.value for n in tree.body if isinstance(n, ast.Assign)
                and getattr(n.targets[0], "id", "") == "CS_PINS"]
    assert ast.literal_eval(value) == HUB_CS_PINS
