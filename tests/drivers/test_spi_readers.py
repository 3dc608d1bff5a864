"""The direct-SPI readers' driver on emulated MFRC522s, with the real
mfrc522 package's register access underneath."""

from __future__ import annotations

import errno
import logging
import queue
import threading

import pytest

from hw_mocks import fake_rpi
from hw_mocks.mfrc522 import Board, MifareClassic1K, Ntag213, State, VirtualClock, crc_a
from hw_mocks.mfrc522.chip import TX_CONTROL
from hw_mocks.mfrc522.frames import to_bytes
from table.drivers.spi_readers import ReaderSetupError, SpiReaders, Wiring
from table.ports import (
    DEALER,
    CardArrived,
    CardLeft,
    PlaceSelectingReaders,
    ReaderBack,
    ReaderOffline,
)

STICKER = "04A1B2C3D4E5F6"
#: A poll of STICKER lying still: REQA (unanswered), WUPA, SELECT at cascade
#: levels 1 (CT 04 A1 B2) and 2 (C3 D4 E5 F6) with BCC and CRC_A, HLTA.
PRESENCE_FRAMES = [
    (bytes([0x26]), 7), (bytes([0x52]), 7),
    (b"\x93\x70\x88\x04\xa1\xb2\x9f" + crc_a(b"\x93\x70\x88\x04\xa1\xb2\x9f"), 0),
    (b"\x95\x70\xc3\xd4\xe5\xf6\x04" + crc_a(b"\x95\x70\xc3\xd4\xe5\xf6\x04"), 0),
    (b"\x50\x00" + crc_a(b"\x50\x00"), 0),
]
#: Five readers on hardware chip enables (SPI0 CE0/CE1, SPI1 CE0-2) and two on
#: GPIO chip selects: places 0..5, the dealer's last.
LAYOUT = [(0, 0, None), (0, 1, None), (1, 0, None), (1, 1, None), (1, 2, None), (0, None, 5),
          (0, None, 6)]
PLACES = [0, 1, 2, 3, 4, 5, DEALER]


def make(n=1, clock=None, start_cold=False, **kw):
    board = Board(clock=clock)
    wiring = {}
    for place, (bus, ce, cs) in zip(PLACES[:n], LAYOUT[:n], strict=True):
        board.add_reader(bus, ce, cs_pin=cs, rst_pin=25)
        wiring[place] = Wiring(bus, ce, cs, 25)
    fake_rpi.install(board)
    readers = SpiReaders(wiring, clock=board.clock, sleep=board.clock.sleep, **kw)
    if not start_cold:
        assert readers.poll_once() == []  # brings the readers up
    return board, readers


def put(board, card, index=0):
    board.place(card, board.readers[index])
    board.clock.sleep(0.002)  # the card powers up


def polls(readers, count):
    events = []
    for _ in range(count):
        events += readers.poll_once()
    return events


@pytest.fixture(autouse=True)
def _no_fakes_left_behind():
    yield
    fake_rpi.uninstall()


@pytest.fixture(autouse=True)
def _quiet():
    yield
    logging.getLogger("mfrc522Logger").handlers.clear()


def test_a_sticker_is_read_whole_once_and_stays_still_without_flicker():
    board, readers = make()
    assert polls(readers, 2) == []
    put(board, Ntag213(STICKER))
    assert polls(readers, 50) == [CardArrived(0, STICKER)]


def test_a_card_taken_away_leaves_once():
    board, readers = make(misses_to_leave=3)
    card = MifareClassic1K("A1B2C3D4")
    put(board, card)
    assert polls(readers, 1) == [CardArrived(0, "A1B2C3D4")]
    board.remove(card)
    assert polls(readers, 2) == []
    assert polls(readers, 10) == [CardLeft(0, "A1B2C3D4")]


def test_two_stickers_sharing_their_first_bytes_are_told_apart():
    board, readers = make()
    put(board, Ntag213("04A1B2C3D4E5F6"))
    put(board, Ntag213("04A1B2112233FF"))
    events = polls(readers, 5)
    assert sorted(events, key=str) == [CardArrived(0, "04A1B2112233FF"),
                                       CardArrived(0, "04A1B2C3D4E5F6")]
    board.remove(board.readers[0].cards[0])
    assert polls(readers, 5) == [CardLeft(0, "04A1B2C3D4E5F6")]


def test_four_cards_arriving_together_are_all_read():
    board, readers = make()
    uids = ["01020304", "01020305", "81020304", "04A1B2C3D4E5F6"]
    for uid in uids:
        put(board, MifareClassic1K(uid) if len(uid) == 8 else Ntag213(uid))
    assert sorted(e.uid for e in polls(readers, 3)) == sorted(uids)


def test_a_card_moved_to_another_seat_leaves_one_and_arrives_at_the_other():
    board, readers = make(2)
    card = Ntag213(STICKER)
    put(board, card, 0)
    polls(readers, 1)
    put(board, card, 1)
    assert polls(readers, 5) == [CardArrived(1, STICKER), CardLeft(0, STICKER)]


@pytest.mark.parametrize("fault", ["crc", "half_frame", "no_reply"])
def test_a_damaged_answer_while_reading_never_gives_a_wrong_uid(fault):
    board, readers = make()
    for count in (1, 2, 3, 5):
        board.readers[0].inject(fault, count)
        card = Ntag213(STICKER)
        put(board, card)
        # a lost ATQA leaves the card READY: it costs the next poll too
        assert polls(readers, 2 * count + 2) == [CardArrived(0, STICKER)]
        board.remove(card)
        assert polls(readers, 5) == [CardLeft(0, STICKER)]


def test_a_card_lying_still_survives_a_few_lost_answers():
    board, readers = make(misses_to_leave=3)
    put(board, Ntag213(STICKER))
    polls(readers, 1)
    board.readers[0].inject("no_reply", 2)
    assert polls(readers, 20) == []


def test_an_empty_poll_costs_fifty_times_fewer_transfers_than_the_stock_loop():
    board, readers = make()
    polls(readers, 1)
    before = board.counters()
    polls(readers, 10)
    ours = (board.counters() - before).transfers / 10
    from mfrc522 import SimpleMFRC522

    stock = SimpleMFRC522()
    before = board.counters()
    assert stock.read_id_no_block() is None
    theirs = (board.counters() - before).transfers
    assert ours * 50 <= theirs


def test_an_unplugged_reader_goes_offline_once_and_comes_back():
    board, readers = make(2, retry_s=1.0)
    put(board, Ntag213(STICKER), 1)
    assert polls(readers, 1) == [CardArrived(1, STICKER)]
    board.readers[0].unplug()
    events = polls(readers, 20)
    assert len(events) == 1 and isinstance(events[0], ReaderOffline) and events[0].seat == 0
    assert "0x00" in events[0].detail
    assert readers.status()[0].startswith("offline")
    board.readers[0].plug()
    board.clock.sleep(1.0)
    assert polls(readers, 3) == [ReaderBack(0)]
    put(board, MifareClassic1K("A1B2C3D4"), 0)
    assert polls(readers, 2) == [CardArrived(0, "A1B2C3D4")]


def test_a_reader_dead_at_start_is_reported_offline():
    board, readers = make(2, start_cold=True)
    board.readers[1].unplug()
    assert polls(readers, 3) == [ReaderOffline(1, "no MFRC522 answers (VersionReg reads 0x00)")]


def test_a_chip_reset_behind_our_back_is_reinitialised_silently():
    board, readers = make()
    put(board, Ntag213(STICKER))
    polls(readers, 1)
    board.readers[0].plug()  # a brown-out: registers back to reset values, field off
    assert polls(readers, 10) == []
    assert readers.cards() == {0: [STICKER]}
    assert board.readers[0].antenna_on


def test_the_card_on_a_reader_that_was_away_is_checked_when_it_is_back():
    board, readers = make(retry_s=0.5)
    card = Ntag213(STICKER)
    put(board, card)
    polls(readers, 1)
    board.readers[0].unplug()
    polls(readers, 2)
    board.remove(card)
    board.readers[0].plug()
    board.clock.sleep(0.5)
    assert polls(readers, 6) == [ReaderBack(0), CardLeft(0, STICKER)]


def test_seven_readers_on_chip_enables_and_gpio_chip_selects_each_read_their_own():
    board, readers = make(7)
    uids = [f"04{i:02X}B2C3D4E5F6" for i in range(7)]
    for i, uid in enumerate(uids):
        put(board, Ntag213(uid), i)
    events = polls(readers, 2)
    assert sorted(events, key=lambda e: uids.index(e.uid)) == [
        CardArrived(place, uid) for place, uid in zip(PLACES, uids, strict=True)]


def test_bcm_numbering_is_set_first_and_board_is_refused():
    board, readers = make()
    assert board.gpio.mode == 11
    readers.close()
    board2 = Board()
    board2.add_reader(0, 0)
    fake_rpi.install(board2)
    fake_rpi.GPIO.setmode(fake_rpi.GPIO.BOARD)
    with pytest.raises(ReaderSetupError, match="BOARD"):
        SpiReaders({0: Wiring(0, 0, None, 25)}, clock=board2.clock, sleep=board2.clock.sleep)


def test_only_the_configured_pins_are_touched_and_released():
    board = Board()
    board.add_reader(0, 0, rst_pin=None)
    board.add_reader(0, None, cs_pin=5, rst_pin=24)
    fake_rpi.install(board)
    gpio = fake_rpi.GPIO
    gpio.setmode(gpio.BCM)
    gpio.setup(17, gpio.OUT, initial=1)  # the buzzer, somebody else's
    readers = SpiReaders({0: Wiring(0, 0, None, None), 1: Wiring(0, None, 5, 24)},
                         clock=board.clock, sleep=board.clock.sleep)
    polls(readers, 2)
    touched = {c[1][0] for c in board.gpio.calls if c[0] in ("setup", "output")}
    assert touched == {17, 5, 24}
    readers.close()
    assert sorted(board.gpio.cleaned) == [5, 24]
    assert board.gpio.level(17) == 1 and board.gpio.mode == 11
    assert not any(r.antenna_on for r in board.readers)


def test_readers_left_out_of_the_match_are_dark_and_get_no_spi_traffic():
    board, readers = make(3)
    assert isinstance(readers, PlaceSelectingReaders)
    lying = Ntag213(STICKER)
    put(board, lying, 1)
    assert polls(readers, 1) == [CardArrived(1, STICKER)]
    readers.use_places(frozenset({0, 2, DEALER}))  # no dealer's reader here: ignored
    dark = board.readers[1]
    assert dark.regs[TX_CONTROL] & 0x03 == 0  # Tx1RFEn and Tx2RFEn off
    assert lying.state is State.POWER_OFF
    assert polls(readers, 1) == [CardLeft(1, STICKER)]  # no longer read
    before = dark.transfers
    put(board, MifareClassic1K("A1B2C3D4"), 1)
    assert polls(readers, 20) == []
    assert dark.transfers == before  # not polled at all
    assert [r.regs[TX_CONTROL] & 0x03 for r in board.readers] == [0x03, 0, 0x03]
    readers.use_places(frozenset({0, 1, 2}))
    assert sorted(polls(readers, 3), key=str) == [CardArrived(1, STICKER),
                                                 CardArrived(1, "A1B2C3D4")]
    assert dark.antenna_on


def test_the_readers_in_use_are_kept_across_stop_and_start():
    board, readers = make(2)
    readers.use_places(frozenset({0}))
    readers.stop()
    readers.start(lambda event: None)
    readers.stop()
    put(board, Ntag213(STICKER), 1)
    assert polls(readers, 3) == []
    assert not board.readers[1].antenna_on and board.readers[0].antenna_on


def test_a_reader_offline_when_left_out_is_reported_back_once_it_answers_in_use():
    board, readers = make(2, retry_s=1.0)
    board.readers[1].unplug()
    assert [type(e) for e in polls(readers, 2)] == [ReaderOffline]
    readers.use_places(frozenset({0}))
    board.clock.sleep(2.0)
    assert polls(readers, 3) == []
    readers.use_places(frozenset({0, 1}))  # still unplugged: said already, not again
    board.clock.sleep(2.0)
    assert polls(readers, 3) == []
    readers.use_places(frozenset({0}))
    board.readers[1].plug()
    readers.use_places(frozenset({0, 1}))
    assert polls(readers, 3) == [ReaderBack(1)]


def test_a_card_lying_still_is_halted_and_found_by_its_uid_at_every_poll():
    """Presence by HALT, WUPA and SELECT: a card that was read is sent to HALT,
    so the next poll's REQA (which only IDLE cards answer) does not read it
    again; WUPA wakes it, SELECT with its UID (both cascade levels of a 7-byte
    UID) proves it is this card, HLTA sends it back to HALT."""
    board, readers = make()
    card = Ntag213(STICKER)
    put(board, card)
    chip = board.readers[0]
    assert polls(readers, 1) == [CardArrived(0, STICKER)]
    chip.catch_up()  # the HLTA reaches the air
    assert card.state is State.HALT  # read, then halted
    for _ in range(20):
        sent = len(chip.frames_sent)
        assert polls(readers, 1) == []
        chip.catch_up()
        frames = [to_bytes(bits) for bits in chip.frames_sent[sent:]]
        assert frames == PRESENCE_FRAMES  # REQA, WUPA: 7-bit frames; SELECTs, HLTA
        assert card.state is State.HALT


def test_two_cards_lying_still_are_each_halted_after_every_poll():
    board, readers = make()
    cards = [Ntag213(STICKER), MifareClassic1K("A1B2C3D4")]
    for card in cards:
        put(board, card)
    assert len(polls(readers, 2)) == 2
    for _ in range(10):
        assert polls(readers, 1) == []
        board.readers[0].catch_up()  # the last HLTA reaches the air
        assert [c.state for c in cards] == [State.HALT, State.HALT]


def test_a_missing_spi_device_says_how_to_switch_spi_on():
    board = Board(spi_devices=[(0, 0)])
    board.add_reader(0, 0)
    fake_rpi.install(board)
    with pytest.raises(ReaderSetupError, match="dtparam=spi=on"):
        SpiReaders({0: Wiring(1, 0, None, None)}, clock=board.clock, sleep=board.clock.sleep)
    assert board.gpio.pins == {}


def test_two_readers_on_one_chip_enable_are_refused():
    board = Board()
    fake_rpi.install(board)
    with pytest.raises(ReaderSetupError, match="two readers"):
        SpiReaders({0: Wiring(0, 0), 1: Wiring(0, 0)})


def polling_threads():
    return [t for t in threading.enumerate() if t.name == "spi-readers" and t.is_alive()]


def test_the_thread_posts_events_and_ends_when_stopped():
    board, readers = make(clock=VirtualClock(pace=1.0), start_cold=True)
    events = queue.Queue()
    readers.start(events.put)
    try:
        put(board, Ntag213(STICKER))
        assert events.get(timeout=5) == CardArrived(0, STICKER)
        assert len(polling_threads()) == 1
    finally:
        readers.stop()
    assert polling_threads() == []  # stop() returned with the thread ended
    assert events.empty()
    assert not board.readers[0].antenna_on


def test_open_from_config_takes_the_configuration_readers():
    from table.config import ReadersConfig, SpiReader
    from table.drivers.spi_readers import open_from_config

    board = Board()
    board.add_reader(1, 2, rst_pin=25)
    fake_rpi.install(board)
    readers = open_from_config({DEALER: SpiReader(1, 2, None, 25)}, ReadersConfig(500_000),
                               clock=board.clock, sleep=board.clock.sleep)
    polls(readers, 1)
    put(board, Ntag213(STICKER))
    before = board.counters()
    assert polls(readers, 1) == [CardArrived(DEALER, STICKER)]
    spent = board.counters() - before
    assert spent.bus_time == pytest.approx(spent.bytes * 8 / 500_000)
    readers.close()


# ----- no thread dies silently -------------------------------------------------------

class FlakySpi:
    """A spidev handle whose next `failures` transfers fail as the kernel's
    do (EIO), or raise `error` if given."""

    def __init__(self, spi, failures, error=None):
        self.spi, self.failures, self.error = spi, failures, error

    def xfer2(self, data):
        if self.failures:
            self.failures -= 1
            raise self.error or OSError(errno.EIO, "Input/output error")
        return self.spi.xfer2(data)

    def close(self):
        self.spi.close()


def flaky(readers, index, failures, error=None):
    chip = readers._readers[index].pcd.chip
    chip.spi = FlakySpi(chip.spi, failures, error)
    return chip.spi


def test_one_transient_spidev_error_costs_no_event():
    board, readers = make(2)
    flaky(readers, 0, 1)
    assert polls(readers, 3) == []
    put(board, Ntag213(STICKER), 0)
    put(board, MifareClassic1K("A1B2C3D4"), 1)
    assert sorted(polls(readers, 3), key=str) == [CardArrived(0, STICKER),
                                                 CardArrived(1, "A1B2C3D4")]


def test_a_reader_whose_transfers_keep_failing_goes_offline_once_and_comes_back():
    board, readers = make(2, retry_s=0.5)
    put(board, Ntag213(STICKER), 0)
    assert polls(readers, 2) == [CardArrived(0, STICKER)]
    spi = flaky(readers, 0, 10**9)
    put(board, MifareClassic1K("A1B2C3D4"), 1)
    events = polls(readers, 30)
    offline = [e for e in events if isinstance(e, ReaderOffline)]
    # the other reader is polled all along
    assert [e for e in events if e not in offline] == [CardArrived(1, "A1B2C3D4")]
    assert len(offline) == 1 and offline[0].seat == 0 and "Input/output error" in offline[0].detail
    assert readers.status()[0].startswith("offline")
    spi.failures = 0
    board.clock.sleep(0.5)
    assert polls(readers, 5) == [ReaderBack(0)]
    assert readers.cards() == {0: [STICKER], 1: ["A1B2C3D4"]}  # nothing lost meanwhile


def test_a_reader_that_initialises_but_fails_every_poll_goes_offline_without_flapping(caplog):
    board, readers = make(2, retry_s=0.2)
    reader = readers._readers[0]
    real_poll = reader.tracker.poll
    reader.tracker.poll = lambda: 1 / 0  # a bug, not an OSError
    put(board, MifareClassic1K("A1B2C3D4"), 1)
    events = []
    for _ in range(40):
        events += readers.poll_once()
        board.clock.sleep(0.05)
    assert events.count(CardArrived(1, "A1B2C3D4")) == 1
    offline = [e for e in events if isinstance(e, ReaderOffline)]
    assert len(offline) == 1 and "ZeroDivisionError" in offline[0].detail
    assert not any(isinstance(e, ReaderBack) for e in events)  # tried again, said once
    assert "ZeroDivisionError" in caplog.text  # the traceback is in the log
    reader.tracker.poll = real_poll
    board.clock.sleep(0.2)
    assert polls(readers, 3) == [ReaderBack(0)]


def test_the_polling_thread_survives_a_transient_spidev_error():
    board, readers = make(clock=VirtualClock(pace=1.0))
    flaky(readers, 0, 1)
    events = queue.Queue()
    readers.start(events.put)
    try:
        board.clock.sleep(0.05)
        put(board, Ntag213(STICKER))
        assert events.get(timeout=5) == CardArrived(0, STICKER)
        assert len(polling_threads()) == 1
    finally:
        readers.stop()


def test_the_polling_thread_survives_a_whole_cycle_failing(caplog):
    board, readers = make(clock=VirtualClock(pace=1.0))
    real = readers.poll_once
    calls = []

    def poll_once(post=None):
        calls.append(1)
        if len(calls) <= 2:
            raise RuntimeError("something no one foresaw")
        return real(post)

    readers.poll_once = poll_once
    events = queue.Queue()
    readers.start(events.put)
    try:
        put(board, Ntag213(STICKER))
        assert events.get(timeout=5) == CardArrived(0, STICKER)
        assert len(polling_threads()) == 1
    finally:
        readers.stop()
    assert readers.counters_thread_errors == 2
    assert "something no one foresaw" in caplog.text


# ----- a card is answered before the round ends --------------------------------------------

def test_a_card_is_posted_as_soon_as_its_reader_is_polled_not_after_the_round():
    board, readers = make(5)
    still = [Ntag213(f"04{i:02X}1122334455") for i in range(1, 4)]
    for i, card in enumerate(still, start=1):
        put(board, card, i)                 # the trick's cards lie on the next readers
    polls(readers, 1)
    put(board, Ntag213(STICKER), 0)
    posted = []
    events = readers.poll_once(lambda e: posted.append((e, board.clock.now())))
    round_ended = board.clock.now()
    assert events == [CardArrived(0, STICKER)] == [e for e, _ in posted]
    # the other four readers were still to be polled when it was posted
    assert round_ended - posted[0][1] > 0.001


def test_posted_events_keep_the_order_of_the_round():
    board, readers = make(3)
    a, b = Ntag213(STICKER), Ntag213("04112233445566")
    put(board, a, 0)
    put(board, b, 2)
    posted = []
    assert polls(readers, 1) == [CardArrived(0, STICKER), CardArrived(2, "04112233445566")]
    board.remove(a)
    board.remove(b)
    readers.poll_only({0, 1})               # place 2 left out: its card is said gone first
    put(board, b, 1)
    said = []
    for _ in range(6):
        said += readers.poll_once(posted.append)
    assert said == posted
    assert said[0] == CardLeft(2, "04112233445566")
    assert CardArrived(1, "04112233445566") in said and CardLeft(0, STICKER) in said


# ----- removal can wait: a card lying still is looked for less often -------------------------

def test_a_settled_card_is_looked_for_at_one_poll_in_three_and_still_never_flickers():
    from table.drivers.mfrc522_cards import SETTLED_EVERY, YOUNG_POLLS

    board, readers = make()
    polls(readers, 1)
    before = board.counters()
    polls(readers, 12)
    empty = (board.counters() - before).transfers / 12
    put(board, Ntag213(STICKER))
    assert polls(readers, 1) == [CardArrived(0, STICKER)]
    before = board.counters()
    polls(readers, 12)
    young = (board.counters() - before).transfers / 12    # looked for at every poll
    polls(readers, YOUNG_POLLS)
    before = board.counters()
    assert polls(readers, 12 * SETTLED_EVERY) == []
    settled = (board.counters() - before).transfers / (12 * SETTLED_EVERY)
    check = young - empty                                  # one WUPA, SELECT x2, HLTA
    assert settled == pytest.approx(empty + check / SETTLED_EVERY)


def test_the_trick_s_cards_on_neighbouring_readers_are_checked_in_different_rounds():
    from table.drivers.mfrc522_cards import SETTLED_EVERY, YOUNG_POLLS

    board, readers = make(4)
    polls(readers, 1)
    before = board.counters()
    polls(readers, 6)
    empty = (board.counters() - before).transfers / 6       # four empty readers
    # three cards whose UIDs end alike (a stagger by UID would check them together)
    for i in range(3):
        put(board, Ntag213(f"04{i:02X}1122334455"), i)
    polls(readers, YOUNG_POLLS + 2)
    rounds = []
    for _ in range(4 * SETTLED_EVERY):
        before = board.counters()
        assert readers.poll_once() == []
        rounds.append((board.counters() - before).transfers - empty)
    check = max(rounds)
    # every round checks exactly one of the three cards: none checks two or three
    assert check > 0 and rounds == [check] * len(rounds)


def test_a_settled_card_lifted_is_reported_gone_within_a_few_more_polls():
    from table.drivers.mfrc522_cards import SETTLED_EVERY, YOUNG_POLLS

    board, readers = make(misses_to_leave=3)
    card = Ntag213(STICKER)
    put(board, card)
    polls(readers, YOUNG_POLLS + 5)
    for lifted_at in range(SETTLED_EVERY):      # whichever poll of the three it goes at
        polls(readers, 1)
        board.remove(card)
        said, count = [], 0
        while not said and count < 20:
            said += readers.poll_once()
            count += 1
        assert said == [CardLeft(0, STICKER)] and count <= SETTLED_EVERY - 1 + 3
        put(board, card)
        assert polls(readers, 2) == [CardArrived(0, STICKER)]
        polls(readers, YOUNG_POLLS + lifted_at)


def test_a_card_just_put_down_and_swept_away_is_reported_gone_at_once():
    board, readers = make(misses_to_leave=3)
    card = Ntag213(STICKER)
    put(board, card)
    assert polls(readers, 1) == [CardArrived(0, STICKER)]
    board.remove(card)
    assert polls(readers, 3) == [CardLeft(0, STICKER)]    # 30 ms: well inside the debounce
