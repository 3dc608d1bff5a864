"""The CardReaders port's contract, held by the fake readers and by both
real drivers: the direct-SPI driver (the real `mfrc522` package on the
register-level MFRC522 emulator) and the USB hub's driver (the real hub
firmware on a pty pair).

What the controller relies on: a card put on a reader is reported once,
with the reader's place (a seat in order of play, or DEALER), for as long as
it lies there; taking it away is reported once; cards lying when the
readers start, or that came and went while they were stopped, are reported
when they start; nothing is posted while stopped; a reader that stops
answering is reported offline once, and back when it answers again."""

from __future__ import annotations

import pytest

from table.ports import DEALER, CardArrived, CardLeft, ReaderBack, ReaderOffline
from tests.contract.harness import UIDS, ReadersHarness

A, B, C = UIDS


@pytest.fixture(params=["fake", "spi", "hub"])
def readers(request):
    h = ReadersHarness(request.param)
    yield h
    h.close()


def test_a_card_is_reported_once_while_it_lies_and_once_when_it_goes(readers):
    readers.start()
    readers.put(1, A)
    assert readers.expect(1) == [CardArrived(1, A)]
    assert readers.quiet() == []
    readers.take(1, A)
    assert readers.expect(1) == [CardLeft(1, A)]
    assert readers.quiet() == []


def test_each_reader_reports_its_own_place(readers):
    readers.start()
    readers.put(DEALER, A)
    readers.put(2, B)
    readers.put(0, C)
    assert sorted(map(repr, readers.expect(3))) == sorted(map(repr, [
        CardArrived(DEALER, A), CardArrived(2, B), CardArrived(0, C)]))
    assert readers.quiet() == []


def test_cards_lying_at_start_are_reported(readers):
    readers.put(0, A)
    readers.put(DEALER, B)
    assert readers.quiet() == []
    readers.start()
    assert sorted(map(repr, readers.expect(2))) == sorted(map(repr, [
        CardArrived(0, A), CardArrived(DEALER, B)]))


def test_stopped_readers_post_nothing_and_catch_up_when_started(readers):
    readers.start()
    readers.put(0, A)
    assert readers.expect(1) == [CardArrived(0, A)]
    readers.port.stop()
    readers.take(0, A)
    readers.put(2, B)
    assert readers.quiet() == []
    readers.start()
    assert sorted(map(repr, readers.expect(2))) == sorted(map(repr, [
        CardLeft(0, A), CardArrived(2, B)]))
    assert readers.quiet() == []


def test_a_reader_that_stops_answering_is_offline_once_then_back(readers):
    readers.start()
    readers.put(0, A)
    assert readers.expect(1) == [CardArrived(0, A)]
    readers.unplug(1)
    (offline,) = readers.expect(1)
    assert isinstance(offline, ReaderOffline) and offline.seat == 1
    assert readers.quiet(1.2) == []         # no repeats while it stays away
    readers.plug(1)
    assert readers.expect(1) == [ReaderBack(1)]
    readers.put(1, B)                       # and it reads again
    assert readers.expect(1) == [CardArrived(1, B)]
