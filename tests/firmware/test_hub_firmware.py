"""The hub firmware's logic, under CPython and under the real MicroPython
(tests/firmware/conftest.py): a fake `machine` whose SPI and pins reach
emulated MFRC522s, the firmware's own files."""

from __future__ import annotations

import pytest

from hw_mocks.mfrc522 import MifareClassic1K, Ntag213, State, crc_a
from hw_mocks.mfrc522.chip import TX_CONTROL
from hw_mocks.mfrc522.frames import to_bytes
from hw_mocks.mfrc522.pico import PicoBoard
from hw_mocks.micropython_pico import MicroPythonPico

from .hubs import FW, RemoteHub, make_hub

wire = FW["wire"]
VERSION = FW["cardhub"].VERSION
STICKER = "04A1B2C3D4E5F6"


def parse(line):
    assert line.startswith("$") and line[-5] == "*", line
    body = line[1:-5]
    assert int(line[-4:], 16) == wire.crc16(body.encode()), line
    seq, kind, *fields = body.split(",")
    return int(seq), kind, fields


def kinds(port):
    return [parse(line)[1:] for line in port.lines()]


def put(board, card, channel):
    board.place(card, board.readers[channel])
    board.clock.sleep(0.002)


def test_crc16_ccitt_false_check_value():
    assert wire.crc16(b"123456789") == 0x29B1
    with MicroPythonPico(PicoBoard(channels=1)) as pico:
        assert pico.eval("__import__('wire').crc16(b'123456789')") == 0x29B1


def test_boot_banner_is_line_zero_with_name_version_channels(interpreter, request):
    board = PicoBoard(channels=2)
    h, port = make_hub(interpreter, board, request)
    h.boot()
    assert [parse(line) for line in port.lines()] == [
        (0, "BOOT", ["cardtable-hub", VERSION, "2", "power"])]


def test_cards_on_and_off_with_channel_and_whole_uid(hub):
    h, board, port = hub
    h.boot()
    port.lines()
    card = Ntag213(STICKER)
    put(board, card, 1)
    h.step()
    assert kinds(port) == [("ON", ["1", STICKER])]
    for _ in range(10):
        h.step()
    assert [k for k in kinds(port) if k[0] != "CARDS"] == []  # lying still: nothing
    board.remove(card)
    for _ in range(4):
        h.step()
    assert kinds(port) == [("OFF", ["1", STICKER])]


def test_a_card_lying_still_is_halted_and_found_by_its_uid_at_every_poll(hub):
    h, board, port = hub
    h.boot()
    card = Ntag213(STICKER)
    put(board, card, 2)
    h.step()
    chip = board.readers[2]
    chip.catch_up()  # the HLTA reaches the air
    assert card.state is State.HALT  # read, then halted
    select1 = b"\x93\x70\x88\x04\xa1\xb2\x9f"  # CT 04 A1 B2, BCC
    select2 = b"\x95\x70\xc3\xd4\xe5\xf6\x04"  # C3 D4 E5 F6, BCC
    for _ in range(10):
        sent = len(chip.frames_sent)
        h.step()
        chip.catch_up()
        frames = [to_bytes(bits) for bits in chip.frames_sent[sent:]]
        assert frames == [(bytes([0x26]), 7), (bytes([0x52]), 7),  # REQA unanswered, WUPA
                          (select1 + crc_a(select1), 0), (select2 + crc_a(select2), 0),
                          (b"\x50\x00" + crc_a(b"\x50\x00"), 0)]  # SELECT by UID, HLTA
        assert card.state is State.HALT
    assert [k for k in kinds(port) if k[0] == "ON"] == [("ON", ["2", STICKER])]


def test_sequence_numbers_count_every_line(hub):
    h, board, port = hub
    h.boot()
    put(board, MifareClassic1K("A1B2C3D4"), 0)
    for _ in range(5):
        h.step()
    seqs = [parse(line)[0] for line in port.lines()]
    assert seqs == list(range(len(seqs))) and len(seqs) >= 3


def test_cards_snapshot_after_boot_and_on_request(hub):
    h, board, port = hub
    put(board, Ntag213(STICKER), 0)
    put(board, MifareClassic1K("A1B2C3D4"), 2)
    put(board, MifareClassic1K("01020304"), 2)
    h.boot()
    for _ in range(3):
        h.step()
    snapshot = [k for k in kinds(port) if k[0] == "CARDS"]
    assert len(snapshot) == 1
    fields = snapshot[0][1]
    assert fields[0] == STICKER and fields[1] == ""
    assert sorted(fields[2].split("+")) == ["01020304", "A1B2C3D4"]
    port.inbox = b"$CARDS*" + b"%04X" % wire.crc16(b"CARDS") + b"\n"
    h.step()
    assert [k[0] for k in kinds(port)] == ["CARDS"]


def test_heartbeat_every_second_with_online_mask_and_rate(hub):
    h, board, port = hub
    h.boot()
    board.readers[2].unplug()
    for _ in range(60):
        h.step()
        board.clock.sleep(0.02)
    beats = [f for k, f in kinds(port) if k == "HB"]
    assert len(beats) == 1 and beats[0][1:] == ["03", "50"]


def test_a_reader_that_stops_answering_is_reported_and_comes_back(hub):
    h, board, port = hub
    h.boot()
    port.lines()
    board.readers[1].unplug()
    h.step()
    assert kinds(port) == [("ERR", ["1", "OFFLINE", "VersionReg 0x00"])]
    board.readers[1].plug()
    board.clock.sleep(1.1)
    h.step()
    assert [k for k in kinds(port) if k[0] != "HB"] == [("BACK", ["1"])]


@pytest.mark.parametrize("command, answer", [
    (b"VER", ("VER", ["cardtable-hub", VERSION, "1"])),
    (b"RATE,120", ("OK", ["RATE", "120"])),
    (b"RATE,0", ("ERR", ["-", "BADARG", "RATE"])),
    (b"RATE,fast", ("ERR", ["-", "BADARG", "RATE"])),
    (b"PLAY", ("ERR", ["-", "BADCMD", "PLAY"])),
    (b"PL*A$Y2", ("ERR", ["-", "BADCMD", "PLAY2"])),  # echoed without what breaks a line
    (b"\x03V\x7fER\x00", ("VER", ["cardtable-hub", VERSION, "1"])),  # control bytes ignored
    (b"$VER*0000", ("ERR", ["-", "BADCRC"])),
    (b"$VER*1234", ("ERR", ["-", "BADCRC"])),
    (b"$VER*12G4", ("ERR", ["-", "BADCRC"])),
    (b"$VER", ("ERR", ["-", "BADCRC"])),
    (b"F00", ("ERR", ["-", "BADCMD", "F00"])),
    (b",,,", ("ERR", ["-", "BADCMD"])),
    (b"$*FFFF", ("ERR", ["-", "BADCMD"])),  # the empty body's checksum is FFFF
    (b"\xff\xfe", ("ERR", ["-", "BADCHAR"])),
    (b"V\xc3\x89R", ("ERR", ["-", "BADCHAR"])),  # valid UTF-8, not ASCII
    (b"$V\xc3\x89R*0000", ("ERR", ["-", "BADCHAR"])),
    (b"x" * 200, ("ERR", ["-", "LONG"])),
])
def test_commands_and_bad_commands(hub, command, answer):
    h, board, port = hub
    h.boot()
    port.lines()
    port.inbox = command + b"\r\n"
    h.step()
    assert kinds(port) == [answer]


BADCHAR_CHECK = """
import wire
def codes():
    out = []
    for byte in range(0x80, 0x100):
        for line in (bytes([byte]) + b"VER", b"VER" + bytes([byte]), b"RATE,5" + bytes([byte])):
            try:
                wire.parse_command(line)
                out.append("accepted")
            except wire.BadCommand as exc:
                out.append(exc.code)
    return out
"""


def test_any_byte_above_0x7f_is_badchar_before_anything_else(interpreter):
    if interpreter == "cpython":
        namespace = {}
        exec(BADCHAR_CHECK.replace("import wire", ""), {"wire": wire}, namespace)
        codes = namespace["codes"]()
        assert wire.parse_command(b"VER") == ("VER", [])
    else:
        with MicroPythonPico(PicoBoard(channels=1)) as pico:
            pico.exec(BADCHAR_CHECK)
            codes = pico.eval("codes()")
            assert pico.eval("wire.parse_command(b'VER')") == ("VER", [])
    assert codes == ["BADCHAR"] * 384


def test_every_bad_command_leaves_the_hub_answering_and_polling(hub):
    """One after the other, on one hub: each is answered with ERR, and the
    hub goes on (under MicroPython a crash here used to end Hub.run)."""
    h, board, port = hub
    h.boot()
    port.lines()
    bad = [b"$VER*1234", b"F00", b",,,", b"\xc3\xa9", b"$VER*0000", b"RATE,x", b"USE,ZZ",
           b"$" + b"A" * 100, b"*", b"$", b"$*", b"1VER", b"V E R"]
    for command in bad:
        port.inbox = command + b"\n"
        h.step()
        got = kinds(port)
        assert [k for k, _ in got if k not in ("HB", "CARDS")] == ["ERR"], (command, got)
    put(board, Ntag213(STICKER), 0)
    port.inbox = b"VER\n"
    h.step()
    assert [k for k in kinds(port) if k[0] != "CARDS"] == [
        ("VER", ["cardtable-hub", VERSION, "1"]), ("ON", ["0", STICKER])]


RUN_RECORDING_SLEEPS = """
def run_recording_sleeps(h, cycles):
    calls = []
    sleep = h.sleep_ms
    def recording(ms):
        calls.append(ms)
        sleep(ms)
    h.sleep_ms = recording
    ticks = iter(range(cycles))
    h.run(keep_going=lambda: next(ticks, None) is not None)
    return calls
"""


def run_recording_sleeps(h, cycles):
    """Hub.run for `cycles` cycles; the sleeps it asked for, in ms."""
    if isinstance(h, RemoteHub):
        h.pico.exec(RUN_RECORDING_SLEEPS)
        return h.pico.eval(f"run_recording_sleeps(h, {cycles})")
    namespace = {}
    exec(RUN_RECORDING_SLEEPS, namespace)
    return namespace["run_recording_sleeps"](h, cycles)


def test_a_checksummed_command_works_and_the_rate_is_used(hub):
    h, board, port = hub
    h.boot()
    body = b"RATE,10"
    port.inbox = b"$" + body + b"*%04X\n" % wire.crc16(body)
    h.step()
    assert h.rate == 10
    port.lines()
    calls = run_recording_sleeps(h, 3)
    assert len(calls) == 3 and all(90 <= ms <= 100 for ms in calls)


def test_update_stops_the_loop_after_answering_and_switches_the_antennas_off(hub):
    h, board, port = hub
    put(board, Ntag213(STICKER), 0)
    port.inbox = command(b"UPDATE")
    before = board.clock.now()
    calls = run_recording_sleeps(h, 50)
    got = kinds(port)
    assert got[0][0] == "BOOT" and got[-1] == ("OK", ["UPDATE"])
    assert len(calls) <= 1  # the cycle that read it, not 50
    assert board.clock.now() - before < 0.5
    assert h.running is False
    assert [r.antenna_on for r in board.readers] == [False, False, False]


def test_a_command_split_over_reads_and_garbage_between(hub):
    h, board, port = hub
    h.boot()
    port.lines()
    for chunk in (b"\x00\x03garbage\n", b"V", b"E", b"R\n"):
        port.inbox = chunk
        h.step()
    assert [k[0] for k in kinds(port) if k[0] != "CARDS"] == ["ERR", "VER"]


def command(body):
    return b"$" + body + b"*%04X\n" % wire.crc16(body)


def test_channels_out_of_use_have_their_antenna_off_and_get_no_spi_traffic(hub):
    h, board, port = hub
    h.boot()
    put(board, Ntag213(STICKER), 1)
    for _ in range(3):
        h.step()
    assert ("ON", ["1", STICKER]) in kinds(port)
    port.inbox = command(b"USE,05")  # channels 0 and 2
    h.step()
    assert kinds(port) == [("OK", ["USE", "05"])]
    dark = board.readers[1]
    assert dark.regs[TX_CONTROL] & 0x03 == 0  # Tx1RFEn and Tx2RFEn off
    before = dark.transfers
    put(board, MifareClassic1K("A1B2C3D4"), 1)
    for _ in range(10):
        h.step()
    assert kinds(port) == []  # no ON, no OFF: the channel is not looked at
    assert dark.transfers == before
    assert [r.antenna_on for r in board.readers] == [True, False, True]
    port.inbox = command(b"CARDS")
    h.step()
    assert kinds(port) == [("CARDS", ["", "", ""])]
    port.inbox = command(b"USE,FF")  # back in use (bits past the hub's 3 channels dropped)
    h.step()
    h.step()
    got = kinds(port)
    assert got[0] == ("OK", ["USE", "07"]) and dark.antenna_on
    assert sorted(got[1:]) == [("ON", ["1", STICKER]), ("ON", ["1", "A1B2C3D4"])]


def test_a_channel_back_in_use_that_does_not_answer_is_reported_offline(hub):
    h, board, port = hub
    h.boot()
    port.inbox = b"USE,06\n"  # typed in a terminal: channels 1 and 2
    h.step()
    board.readers[0].unplug()
    board.clock.sleep(1.5)
    for _ in range(3):
        h.step()
    assert ("OK", ["USE", "06"]) in kinds(port)  # nothing said about channel 0
    port.inbox = b"USE,07\n"
    h.step()
    assert [k for k in kinds(port) if k[0] != "HB"] == [
        ("ERR", ["0", "OFFLINE", "VersionReg 0x00"]), ("OK", ["USE", "07"])]


@pytest.mark.parametrize("bad", [b"USE", b"USE,5", b"USE,GG", b"USE,0F,1", b"USE,+F", b"USE,100"])
def test_use_with_a_bad_mask_is_refused_and_changes_nothing(hub, bad):
    h, board, port = hub
    h.boot()
    port.lines()
    port.inbox = bad + b"\n"
    h.step()
    assert kinds(port) == [("ERR", ["-", "BADARG", "USE"])]
    assert h.used == [True, True, True]


def test_every_example_line_in_protocol_md_has_a_right_checksum():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md").read_text()
    examples = re.findall(r"\$[^\s`*]*\*[0-9A-F]{4}", text)
    assert len(examples) >= 8
    for line in examples:
        body, crc = line[1:].rsplit("*", 1)
        assert wire.crc16(body.encode()) == int(crc, 16), line
