"""The hub's host driver against a fake hub on a pty pair: the real firmware
(under CPython, on emulated MFRC522s) on one end, pyserial on the other."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from hw_mocks.fake_hub import FakeHub
from hw_mocks.mfrc522 import MifareClassic1K, Ntag213
from table.drivers.hub_protocol import crc16
from table.drivers.hub_readers import HubReaders
from table.ports import DEALER, CardArrived, CardLeft, ReaderBack, ReaderOffline

STICKER = "04A1B2C3D4E5F6"


@pytest.fixture
def rig():
    hub = FakeHub(channels=4)
    hub.plug()
    events = queue.Queue()
    driver = HubReaders({0: 0, 1: 1, 2: 2, DEALER: 3}, find_port=hub.find_port, retry_s=0.1,
                        silence_s=1.5, poll_rate=100)
    driver.start(events.put)
    yield hub, driver, events
    driver.stop()
    hub.unplug()


def take(events, count, timeout=5.0):
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        try:
            got.append(events.get(timeout=0.05))
        except queue.Empty:
            pass
    return got


def quiet(events, seconds=0.4):
    return take(events, 1, seconds) == []


def wait_connected(driver):
    deadline = time.monotonic() + 5
    while not driver.counters["lines"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert driver.counters["lines"]


def test_cards_on_and_off_through_the_hub(rig):
    hub, driver, events = rig
    wait_connected(driver)
    card = Ntag213(STICKER)
    hub.place(card, 3)
    assert take(events, 1) == [CardArrived(DEALER, STICKER)]
    assert quiet(events)  # lying still: no flicker
    hub.remove(card)
    assert take(events, 1) == [CardLeft(DEALER, STICKER)]
    assert hub.hub.rate == 100  # the driver's RATE command was obeyed


def test_an_unplugged_hub_loses_nothing(rig):
    hub, driver, events = rig
    wait_connected(driver)
    stays, goes = Ntag213(STICKER), MifareClassic1K("A1B2C3D4")
    hub.place(stays, 0)
    hub.place(goes, 1)
    assert sorted(map(str, take(events, 2))) == sorted(map(str, [
        CardArrived(0, STICKER), CardArrived(1, "A1B2C3D4")]))
    hub.unplug()
    gone = take(events, 4)
    assert {e.seat for e in gone} == {0, 1, 2, DEALER}
    assert all(isinstance(e, ReaderOffline) for e in gone)
    hub.remove(goes)  # taken away while the hub was unplugged
    hub.plug()
    back = take(events, 5)
    assert sorted(map(str, back)) == sorted(map(str, [
        ReaderBack(0), ReaderBack(1), ReaderBack(2), ReaderBack(DEALER),
        CardLeft(1, "A1B2C3D4")]))
    assert quiet(events)
    assert driver.cards[0] == {STICKER}


def wait_until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.02)
    return predicate()


def test_seats_out_of_the_match_are_dark_on_the_hub_also_after_a_reconnect(rig):
    hub, driver, events = rig
    wait_connected(driver)
    hub.place(Ntag213(STICKER), 2)
    assert take(events, 1) == [CardArrived(2, STICKER)]
    driver.use_places(frozenset({0, 1, DEALER}))  # place 2 is channel 2
    assert take(events, 1) == [CardLeft(2, STICKER)]
    dark = hub.board.readers[2]
    assert wait_until(lambda: not dark.antenna_on)
    before = dark.transfers
    hub.place(MifareClassic1K("A1B2C3D4"), 2)
    assert quiet(events)
    assert dark.transfers == before  # the hub no longer polls it
    hub.unplug()
    gone = take(events, 3)
    assert all(isinstance(e, ReaderOffline) for e in gone)
    assert sorted(e.seat for e in gone) == sorted([0, 1, DEALER])  # not the dark place 2
    hub.plug()  # the firmware boots with every channel in use, until told again
    assert sorted(map(str, take(events, 3))) == sorted(map(str, [
        ReaderBack(0), ReaderBack(1), ReaderBack(DEALER)]))
    assert wait_until(lambda: hub.hub.used == [True, True, False, True]
                      and not dark.antenna_on)
    assert quiet(events)  # what lies on the dark reader is never reported
    assert driver.counters["connects"] == 2
    hub.place(MifareClassic1K("01020304"), 1)
    assert take(events, 1) == [CardArrived(1, "01020304")]


def test_a_hub_that_hangs_is_reported_and_found_again(rig):
    hub, driver, events = rig
    wait_connected(driver)
    hub.freeze()
    assert {type(e) for e in take(events, 4)} == {ReaderOffline}
    hub.thaw()
    assert {type(e) for e in take(events, 4)} == {ReaderBack}
    assert driver.counters["disconnects"] == 1 and driver.counters["connects"] == 2


def test_garbage_and_floods_on_the_wire_are_dropped_and_reading_goes_on(rig):
    hub, driver, events = rig
    wait_connected(driver)
    hub.inject(b"\x00\xff\x13garbage\n$1,ON,0,04A1B2C3D4E5F6*0000\n" + b"Z" * 5000 + b"\n")
    flooding = threading.Event()

    def flood():
        while not flooding.is_set():
            hub.inject(b"$9,HB,1,FF,50*0000\n" * 50)
            time.sleep(0.001)

    flooder = threading.Thread(target=flood, daemon=True)
    flooder.start()
    try:
        card = Ntag213(STICKER)
        hub.place(card, 2)
        assert take(events, 1) == [CardArrived(2, STICKER)]
    finally:
        flooding.set()
        flooder.join()
    assert driver.counters["bad_checksum"] >= 50
    assert driver.counters["not_ascii"] == 1 and driver.counters["overlong"] == 1
    driver.stop()  # returns with the reading thread ended, though the wire was flooded
    assert not any(t.name == "hub-readers" and t.is_alive() for t in threading.enumerate())
    assert not driver.connected


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_stale_lines_handed_over_at_connection_make_no_card_events(interpreter):
    """Fault 9 of issue 12: lines the hub wrote while no host listened wait
    in the port (MicroPython's USB serial hands its last bytes over when a
    host connects): a card put down and lifted again then, and a line from
    before, must not become arrivals or removals. The firmware runs under
    CPython, and in the real MicroPython."""
    hub = FakeHub(channels=4, interpreter=interpreter)
    hub.plug()
    try:
        flicker = Ntag213(STICKER)
        hub.place(flicker, 1)
        assert wait_until(lambda: b",ON,1," in hub._port.unheard, 10)  # read, nobody heard
        hub.remove(flicker)
        assert wait_until(lambda: b",OFF,1," in hub._port.unheard, 10)
        hub.inject(b"$500,ON,2,A1B2C3D4*%04X\n" % crc16(b"500,ON,2,A1B2C3D4"))
        events = queue.Queue()
        driver = HubReaders({0: 0, 1: 1, 2: 2, DEALER: 3}, find_port=hub.find_port,
                            retry_s=0.1)
        driver.start(events.put)
        try:
            assert wait_until(lambda: driver.counters["cards_lines"] > 0)
            got = take(events, 5, 0.4)
            assert got == [], (got, driver.counters)
            assert driver.counters["stale"] >= 3  # ON, OFF, the injected ON (and more)
            hub.place(MifareClassic1K("01020304"), 0)
            assert take(events, 1) == [CardArrived(0, "01020304")]
            assert quiet(events)
        finally:
            driver.stop()
    finally:
        hub.unplug()
