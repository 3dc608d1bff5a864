"""The hub's host driver: what it makes of the hub's lines, good and bad.
Lines go in through `feed` (the bytes the reading thread got) or through
pyserial's loop:// port; time comes from a fake clock."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.drivers.hub_protocol import crc16
from table.drivers.hub_readers import HubReaders, find_hub_port, open_from_config
from table.ports import (
    DEALER,
    CardArrived,
    CardLeft,
    PlaceSelectingReaders,
    ReaderBack,
    ReaderOffline,
)

STICKER = "04A1B2C3D4E5F6"


class Clock:
    def __init__(self):
        self.t = 100.0

    def now(self):
        return self.t


class Wire:
    """A serial port that records what the driver writes."""

    def __init__(self):
        self.written = b""
        self.closed = False
        self.in_waiting = 0

    def write(self, data):
        self.written += data

    def read(self, n):
        return b""

    def close(self):
        self.closed = True


def line(seq, kind, *fields):
    body = ",".join([str(seq), kind, *map(str, fields)]).encode()
    return b"$" + body + b"*%04X\n" % crc16(body)


def driver(places=None, synced=True, **kw):
    """A connected driver; `synced`: the hub has answered its VER (line 0)."""
    events = []
    clock = Clock()
    wire = Wire()
    hub = HubReaders(places or {0: 0, 1: 1, DEALER: 7}, clock=clock,
                     find_port=lambda: "/dev/fake", open_port=lambda path: wire, **kw)
    hub._post = events.append
    assert hub.connect()
    if synced:
        hub.feed(line(0, "VER", "cardtable-hub", "1.2.0", 1))
    return hub, events, clock, wire


def test_connecting_asks_for_version_and_cards():
    hub, events, clock, wire = driver(poll_rate=80)
    assert wire.written == b"$VER*A87C\n$RATE,80*%04X\n$CARDS*6DAE\n" % crc16(b"RATE,80")


def test_lines_before_the_answer_to_ver_are_stale_and_change_nothing():
    """Fault 9 of issue 12: after a (re)connection the hub's USB serial may
    first hand over lines written while nobody listened."""
    hub, events, clock, wire = driver(synced=False)
    hub.cards[1].add("A1B2C3D4")  # known from before the connection
    hub.feed(line(30, "ON", 0, STICKER) + line(31, "OFF", 1, "A1B2C3D4")
             + line(32, "CARDS", "01020304", "", "", "", "", "", "", "")
             + line(33, "HB", 9, "00", 50) + line(34, "ERR", 7, "OFFLINE", "x")
             + line(35, "BACK", 7))
    assert events == [] and hub.counters["stale"] == 6 and not hub.synced
    hub.feed(line(36, "VER", "cardtable-hub", "1.2.0", 1)
             + line(37, "CARDS", "", "A1B2C3D4", "", "", "", "", "", ""))
    assert hub.synced and events == []  # A1B2C3D4 still there, nothing new
    assert hub.cards == {0: set(), 1: {"A1B2C3D4"}, DEALER: set()}
    hub.feed(line(38, "ON", 0, STICKER))  # from now on, news
    assert events[-1] == CardArrived(0, STICKER)


def test_a_stale_line_numbered_far_ahead_does_not_make_the_fresh_ones_replays():
    hub, events, clock, wire = driver(synced=False)
    hub.feed(line(500, "ON", 0, "A1B2C3D4"))  # from before the hub restarted
    hub.feed(line(4, "VER", "cardtable-hub", "1.2.0", 1) + line(5, "ON", 0, STICKER))
    assert events == [CardArrived(0, STICKER)]
    assert hub.counters["replayed"] == 0 and hub.counters["stale"] == 1


def test_a_hub_that_does_not_answer_ver_is_asked_again_every_sync_interval():
    hub, events, clock, wire = driver(synced=False, sync_s=1.0)
    wire.written = b""
    clock.t += 0.5
    hub.read_once()
    assert wire.written == b""
    clock.t += 0.6
    hub.read_once()
    assert wire.written == b"$VER*A87C\n$CARDS*6DAE\n"
    assert hub.counters["sync_retries"] == 1 and hub.connected


def test_a_boot_line_before_the_answer_to_ver_asks_again_and_is_no_sync():
    hub, events, clock, wire = driver(synced=False, poll_rate=80)
    wire.written = b""
    hub.feed(line(0, "BOOT", "cardtable-hub", "1.2.0", 8, "power") + line(1, "ON", 0, STICKER))
    assert wire.written == (b"$VER*A87C\n$CARDS*6DAE\n$RATE,80*%04X\n" % crc16(b"RATE,80"))
    assert events == [] and not hub.synced
    hub.feed(line(2, "VER", "cardtable-hub", "1.2.0", 1) + line(3, "ON", 0, STICKER))
    assert events == [CardArrived(0, STICKER)]


def test_cards_on_and_off_become_events_once():
    hub, events, clock, wire = driver()
    hub.feed(line(1, "ON", 1, STICKER) + line(2, "ON", 1, STICKER) + line(3, "ON", 7, "A1B2C3D4"))
    hub.feed(line(4, "OFF", 1, STICKER) + line(5, "OFF", 1, STICKER))
    assert events == [CardArrived(1, STICKER), CardArrived(DEALER, "A1B2C3D4"),
                      CardLeft(1, STICKER)]


def test_channels_not_used_by_the_table_are_ignored():
    hub, events, clock, wire = driver()
    hub.feed(line(1, "ON", 4, STICKER) + line(2, "ERR", 5, "OFFLINE", "x"))
    assert events == []


def test_the_cards_snapshot_turns_only_differences_into_events():
    hub, events, clock, wire = driver()
    hub.feed(line(1, "ON", 0, STICKER) + line(2, "ON", 1, "A1B2C3D4"))
    events.clear()
    hub.feed(line(3, "CARDS", STICKER + "+01020304", "", "", "", "", "", "", ""))
    assert events == [CardArrived(0, "01020304"), CardLeft(1, "A1B2C3D4")]


def test_readers_offline_and_back_from_errors_heartbeats_and_snapshots():
    hub, events, clock, wire = driver()
    hub.feed(line(1, "ERR", 1, "OFFLINE", "VersionReg 0x00"))
    hub.feed(line(2, "HB", 5, "7D", 50))  # channels 1 and 7 (the dealer's) not answering
    hub.feed(line(3, "BACK", 1))
    hub.feed(line(4, "CARDS", "", "", "", "", "", "", "", ""))
    assert events == [ReaderOffline(1, "the reader does not answer (VersionReg 0x00)"),
                      ReaderOffline(DEALER, "the reader does not answer"),
                      ReaderBack(1), ReaderBack(DEALER)]


def test_a_gap_in_sequence_numbers_asks_for_the_cards_again():
    hub, events, clock, wire = driver()
    wire.written = b""
    clock.t += 1  # (resynchronisations are at least 0.5 s apart)
    hub.feed(line(1, "HB", 1, "FF", 50) + line(5, "ON", 0, STICKER))
    assert events == [CardArrived(0, STICKER)]
    assert hub.counters["gaps"] == 1 and wire.written == b"$CARDS*6DAE\n"


def test_replayed_lines_are_dropped_and_counted():
    hub, events, clock, wire = driver()
    on = line(1, "ON", 0, STICKER)
    hub.feed(on + line(2, "OFF", 0, STICKER) + on)
    assert events == [CardArrived(0, STICKER), CardLeft(0, STICKER)]
    assert hub.counters["replayed"] == 1


def test_a_hub_that_reboots_starts_counting_again():
    hub, events, clock, wire = driver()
    hub.feed(line(40, "HB", 1, "FF", 50))
    hub.feed(line(0, "BOOT", "cardtable-hub", "1.0.0", 8, "power") + line(1, "ON", 0, STICKER))
    assert events == [CardArrived(0, STICKER)] and hub.counters["boots"] == 1
    assert hub.hub_version == ("cardtable-hub", "1.0.0")


def use(mask):
    body = b"USE," + mask
    return b"$" + body + b"*%04X\n" % crc16(body)


def test_the_places_in_use_are_sent_as_channels_when_connecting():
    events = []
    wire = Wire()
    hub = HubReaders({0: 0, 1: 1, DEALER: 7}, clock=Clock(), find_port=lambda: "/dev/fake",
                     open_port=lambda path: wire, poll_rate=80)
    assert isinstance(hub, PlaceSelectingReaders)
    hub._post = events.append
    hub.use_places(frozenset({0, DEALER, 5}))  # 5: not on the hub, ignored
    assert hub.connect()
    assert wire.written == (b"$VER*A87C\n$RATE,80*%04X\n" % crc16(b"RATE,80")
                            + use(b"81") + b"$CARDS*6DAE\n")
    assert events == []


def test_places_left_out_lose_their_cards_and_report_nothing_more():
    hub, events, clock, wire = driver()
    hub.feed(line(1, "ON", 0, STICKER) + line(2, "ON", 1, "A1B2C3D4"))
    events.clear()
    wire.written = b""
    hub.use_places(frozenset({0, DEALER}))
    hub.read_once()  # the reading thread takes it up
    assert wire.written == use(b"81")
    assert events == [CardLeft(1, "A1B2C3D4")]
    events.clear()
    hub.feed(line(3, "ON", 1, "01020304") + line(4, "ERR", 1, "OFFLINE", "x")
             + line(5, "HB", 1, "81", 50) + line(6, "CARDS", STICKER, "01020304", "", "", "",
                                                 "", "", ""))
    assert events == []  # a hub that does not know USE: its reports are ignored
    hub.use_places(frozenset({0, 1, DEALER}))
    hub.read_once()
    assert wire.written.endswith(use(b"83"))
    hub.feed(line(7, "ON", 1, "01020304"))
    assert events == [CardArrived(1, "01020304")]


def test_a_hub_that_rebooted_is_told_its_rate_and_channels_again():
    hub, events, clock, wire = driver(poll_rate=80)
    hub.use_places(frozenset({0}))
    hub.read_once()
    wire.written = b""
    hub.feed(line(0, "BOOT", "cardtable-hub", "1.0.0", 8, "watchdog"))
    assert wire.written == b"$RATE,80*%04X\n" % crc16(b"RATE,80") + use(b"01")


def test_a_flooding_hub_is_cut_to_the_line_budget_and_resynchronised():
    hub, events, clock, wire = driver(max_lines_per_s=100)
    flood = b"".join(line(i + 1, "HB", 1, "FF", 50) for i in range(1000))
    hub.feed(flood)
    # the VER answer was one of this second's 100 lines
    assert hub.counters["flooded"] == 901 and hub.counters["lines"] == 100
    wire.written = b""
    clock.t += 1.5
    hub.read_once()
    assert wire.written == b"$CARDS*6DAE\n"


def test_silence_takes_the_readers_offline_and_closes_the_port():
    hub, events, clock, wire = driver(silence_s=3.0)
    hub.feed(line(1, "HB", 1, "FF", 50))
    clock.t += 3.5
    hub.read_once()
    assert wire.closed and not hub.connected
    assert {e.seat for e in events} == {0, 1, DEALER}
    assert all(isinstance(e, ReaderOffline) and "3 s" in e.detail for e in events)


def test_hub_not_found_is_reported_once_per_reader():
    events = []
    hub = HubReaders({0: 0}, clock=Clock(), find_port=lambda: None)
    hub._post = events.append
    assert not hub.connect() and not hub.connect()
    assert events == [ReaderOffline(0, "the hub is not plugged in (no serial port with its "
                                       "USB id)")]


def test_bad_configuration_is_refused():
    with pytest.raises(ValueError):
        HubReaders({0: 0, 1: 0})
    with pytest.raises(ValueError):
        HubReaders({0: 8})


# ----- bad input, with hypothesis ------------------------------------------------

garbage = st.binary(max_size=120).map(lambda b: b.replace(b"\n", b"") + b"\n")
good = st.tuples(st.sampled_from(["ON", "OFF"]), st.integers(0, 2),
                 st.sampled_from([STICKER, "A1B2C3D4", "01020304"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(good, garbage), max_size=40), st.lists(st.integers(1, 64),
                                                                max_size=30))
def test_garbage_between_good_lines_changes_nothing_else(items, cuts):
    """Random bytes, truncated and spoiled lines between the good ones: the
    events are exactly those of the good lines; everything else is counted."""
    stream, clean, seq, bad = b"", b"", 0, 0
    for item in items:
        if isinstance(item, bytes):
            stream += item
            bad += item != b"\n"
        else:
            seq += 1
            good_line = line(seq, item[0], item[1], item[2])
            stream += good_line
            clean += good_line
    hub, events, _, _ = driver({0: 0, 1: 1, 2: 2})
    at = 0
    for cut in cuts:
        hub.feed(stream[at:at + cut])
        at += cut
    hub.feed(stream[at:])
    reference, expected, _, _ = driver({0: 0, 1: 1, 2: 2})
    reference.feed(clean)
    assert events == expected
    dropped = sum(hub.counters[k] for k in ("not_ascii", "malformed", "bad_checksum",
                                            "unknown_kind", "overlong"))
    assert dropped == bad and hub.counters["lines"] == 1 + seq  # the VER answer first


@settings(max_examples=100, deadline=None)
@given(st.lists(good, min_size=1, max_size=15), st.data())
def test_truncated_and_bit_flipped_lines_are_dropped(items, data):
    hub, events, _, _ = driver({0: 0, 1: 1, 2: 2})
    for seq, item in enumerate(items, start=1):
        raw = line(seq, *item)
        how = data.draw(st.sampled_from(["truncate", "flip"]))
        if how == "truncate":
            raw = raw[:data.draw(st.integers(1, len(raw) - 2))] + b"\n"
        else:
            at = data.draw(st.integers(1, len(raw) - 2))
            raw = raw[:at] + bytes([raw[at] ^ (1 << data.draw(st.integers(0, 6)))]) + raw[at + 1:]
        hub.feed(raw)
    assert events == []


@settings(max_examples=60, deadline=None)
@given(st.lists(good, min_size=1, max_size=12), st.data())
def test_replaying_any_earlier_line_posts_nothing(items, data):
    hub, events, _, _ = driver({0: 0, 1: 1, 2: 2})
    sent = [line(seq, *item) for seq, item in enumerate(items, start=1)]
    hub.feed(b"".join(sent))
    before = list(events)
    replays = data.draw(st.lists(st.sampled_from(sent), min_size=1, max_size=10))
    hub.feed(b"".join(replays))
    assert events == before and hub.counters["replayed"] == len(replays)


def test_an_endless_line_does_not_grow_memory_or_stop_reading():
    hub, events, _, _ = driver()
    for _ in range(2000):
        hub.feed(b"A" * 4096)
    hub.feed(b"\n" + line(1, "ON", 0, STICKER))
    assert events == [CardArrived(0, STICKER)] and hub.counters["overlong"] == 1


# ----- pyserial's loop:// and the reading thread --------------------------------

def test_the_thread_reads_a_loop_port_and_counts_its_own_echoed_commands():
    import serial

    port = serial.serial_for_url("loop://", timeout=0.05)
    got = []
    arrived = threading.Event()
    hub = HubReaders({0: 0}, find_port=lambda: "loop://", open_port=lambda path: port)

    def post(event):
        got.append(event)
        arrived.set()

    hub.start(post)
    try:
        port.write(line(1, "VER", "cardtable-hub", "1.2.0", 1) + line(2, "ON", 0, STICKER))
        assert arrived.wait(5)
    finally:
        hub.stop()
    assert got == [CardArrived(0, STICKER)]
    assert hub.counters["malformed"] >= 2  # VER and CARDS came back through the loop


def test_the_hub_is_found_by_its_usb_id(monkeypatch, tmp_path):
    from serial.tools import list_ports, list_ports_common

    def info(device, vid, pid):
        port = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        port.vid, port.pid = vid, pid
        return port

    monkeypatch.setattr(list_ports, "comports", lambda: [
        info("/dev/ttyUSB0", 0x0403, 0x6001), info("/dev/ttyACM1", 0x2E8A, 0x0005)])
    assert find_hub_port(str(tmp_path / "none"), "2e8a:0005") == "/dev/ttyACM1"
    assert find_hub_port(str(tmp_path / "none"), "2e8a:000a") is None
    link = tmp_path / "cardtable-hub"
    link.write_text("")
    assert find_hub_port(str(link), "2e8a:0005") == str(link)


def test_open_from_config_maps_places_to_channels():
    from table.config import HubConfig, HubReader

    hub = open_from_config({0: HubReader(3), DEALER: HubReader(0)}, HubConfig())
    assert hub.places == {3: 0, 0: DEALER}


class ScriptedPort:
    """A serial port that hands out `chunks` one read at a time; an
    exception among them is raised instead."""

    def __init__(self, chunks):
        self.chunks = list(chunks)
        self.written = b""

    @property
    def in_waiting(self):
        return len(self.chunks[0]) if self.chunks and isinstance(self.chunks[0], bytes) else 0

    def read(self, n):
        if not self.chunks:
            time.sleep(0.01)
            return b""
        chunk = self.chunks.pop(0)
        if isinstance(chunk, Exception):
            raise chunk
        return chunk

    def write(self, data):
        self.written += data

    def close(self):
        pass


def test_the_reading_thread_outlives_an_unforeseen_error_and_reports_the_readers_back(caplog):
    ver = line(0, "VER", "cardtable-hub", "1.2.0", 1)  # each connection's answer (synced)
    ports = [ScriptedPort([ver, line(1, "HB", 1, "03", 50), RuntimeError("a driver bug")]),
             ScriptedPort([ver, line(1, "ON", 0, STICKER)])]
    hub = HubReaders({0: 0, 1: 1}, find_port=lambda: "/dev/fake",
                     open_port=lambda path: ports.pop(0), retry_s=0.05)
    events = []
    hub.start(events.append)
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and CardArrived(0, STICKER) not in events:
            time.sleep(0.01)
    finally:
        hub.stop()
    assert events == [ReaderOffline(0, "the hub's reading failed (RuntimeError: a driver bug)"),
                      ReaderOffline(1, "the hub's reading failed (RuntimeError: a driver bug)"),
                      ReaderBack(0), CardArrived(0, STICKER)]
    assert hub.counters["thread_errors"] == 1 and hub.counters["connects"] == 2
    assert "a driver bug" in caplog.text and "Traceback" in caplog.text
