"""The hub's line protocol on the host side: framing, checks, sequence numbers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.drivers.hub_protocol import (
    MAX_LINE,
    BadLine,
    Line,
    LineSplitter,
    SequenceCheck,
    channel_mask,
    crc16,
    encode_command,
    parse_line,
)


def hub_line(seq, kind, *fields):
    body = ",".join([str(seq), kind, *map(str, fields)]).encode()
    return b"$" + body + b"*%04X" % crc16(body)


def test_crc16_ccitt_false_check_value():
    assert crc16(b"123456789") == 0x29B1


def test_commands_carry_their_checksum():
    assert encode_command("VER") == b"$VER*A87C\n"
    assert encode_command("RATE", 50) == b"$RATE,50*2573\n"


def test_the_channels_in_use_as_the_hub_s_bit_mask():
    assert channel_mask([0, 1, 2, 3]) == "0F" and channel_mask([7, 0]) == "81"
    assert channel_mask([]) == "00"
    assert encode_command("USE", channel_mask([0, 1, 2, 3])) == b"$USE,0F*CA8C\n"  # PROTOCOL.md
    with pytest.raises(ValueError, match="0..7"):
        channel_mask([8])


def test_a_good_line_parses():
    assert parse_line(b"$1,ON,0,04A1B2C3D4E5F6*58AB") == Line(1, "ON", ("0", "04A1B2C3D4E5F6"))
    assert parse_line(hub_line(7, "CARDS", "A1B2C3D4+01020304", "", "!")).fields == (
        "A1B2C3D4+01020304", "", "!")


def reason(raw):
    try:
        parse_line(raw)
    except BadLine as bad:
        return bad.reason
    return None


def test_bad_lines_are_refused_with_their_reason():
    assert reason(b"$1,ON,0,04A1B2C3D4E5F6*58AC") == "bad_checksum"
    assert reason(b"$1,ON,0,04A1B2C3D4E5F6") == "malformed"  # truncated
    assert reason(b"1,ON,0,04A1B2C3D4E5F6*58AB") == "malformed"
    assert reason(b"$1,ON,0,04A1B2\xc3D4E5F6*58AB") == "not_ascii"
    assert reason(hub_line(1, "PLAY", "0")) == "unknown_kind"
    assert reason(hub_line(1, "ON", "9", "04A1B2C3D4E5F6")) == "malformed"
    assert reason(hub_line(1, "ON", "0", "04A1B2C3D4E5")) == "malformed"  # 6 bytes
    assert reason(hub_line(1, "ON", "0", "04a1b2c3d4e5f6")) == "malformed"
    assert reason(hub_line(70000, "HB", "1", "FF", "50")) == "malformed"
    assert reason(hub_line(1, "HB", "1", "ZZ", "50")) == "malformed"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_either_parse_or_are_refused_cleanly(raw):
    try:
        line = parse_line(raw)
    except BadLine as bad:
        assert bad.reason in {"not_ascii", "malformed", "bad_checksum", "unknown_kind"}
    else:
        assert crc16(raw[1:-5]) == int(raw[-4:], 16)
        assert line.kind in {"BOOT", "ON", "OFF", "CARDS", "HB", "ERR", "BACK", "VER", "OK"}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.lists(st.integers(1, 50), max_size=60))
def test_splitting_does_not_depend_on_how_bytes_arrive(stream, cuts):
    whole = LineSplitter()
    expected = whole.feed(stream)
    pieces = LineSplitter()
    got, at = [], 0
    for cut in cuts:
        got += pieces.feed(stream[at:at + cut])
        at += cut
    got += pieces.feed(stream[at:])
    assert got == expected
    assert pieces.overlong == whole.overlong
    assert all(len(line) <= MAX_LINE and b"\n" not in line for line in got)


def test_an_endless_line_is_dropped_whole_and_the_next_one_kept():
    splitter = LineSplitter()
    good = hub_line(3, "BACK", "1")
    lines = []
    for _ in range(1000):
        lines += splitter.feed(b"x" * 1024)
    lines += splitter.feed(b"tail\n" + good + b"\n")
    assert lines == [good]
    assert splitter.overlong == 1
    assert len(splitter._buf) == 0


def check(seqs, kind="HB"):
    sc = SequenceCheck()
    return [sc.check(Line(s, kind, ())) for s in seqs], sc


def test_sequence_numbers_new_gap_replay_and_wrap():
    verdicts, sc = check([5, 6, 6, 4, 9, 10])
    assert verdicts == ["new", "new", "replay", "replay", "gap", "new"]
    assert sc.missed == 2
    assert check([65534, 65535, 0, 1])[0] == ["new"] * 4


def test_boot_starts_the_count_again():
    sc = SequenceCheck()
    sc.check(Line(500, "HB", ()))
    assert sc.check(Line(0, "BOOT", ())) == "new"
    assert sc.check(Line(1, "ON", ())) == "new"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 0xFFFF), min_size=1, max_size=40))
def test_a_replayed_line_is_never_taken_as_new(seqs):
    sc = SequenceCheck()
    accepted = []
    for s in seqs:
        if sc.check(Line(s, "HB", ())) != "replay":
            accepted.append(s)
    assert sc.check(Line(accepted[-1], "HB", ())) == "replay"
