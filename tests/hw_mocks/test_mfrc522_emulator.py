"""The MFRC522 emulator: registers, FIFO, interrupts, timer, CRC, frames and
cards, checked against the datasheet and ISO/IEC 14443-3 by hand-made values,
and the REAL `mfrc522` package running on it unchanged."""

from __future__ import annotations

import pytest

from hw_mocks import fake_rpi
from hw_mocks.mfrc522 import Board, MifareClassic1K, Ntag213, State, crc_a
from hw_mocks.mfrc522.picc import Picc

COMMAND, COM_IRQ, DIV_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x05, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, COLL, MODE, TX_CONTROL = 0x0C, 0x0D, 0x0E, 0x11, 0x14
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
TRANSCEIVE, CALC_CRC = 0x0C, 0x03


class Raw:
    """Register access straight through the emulated bus (no library)."""

    def __init__(self, board, bus=0, ce=0, hz=1_000_000):
        self.board, self.bus, self.ce, self.hz = board, bus, ce, hz

    def w(self, reg, *values):
        self.board.transfer(self.bus, self.ce, [(reg << 1) & 0x7E, *values], self.hz)

    def r(self, reg):
        return self.board.transfer(self.bus, self.ce, [((reg << 1) & 0x7E) | 0x80, 0], self.hz)[1]

    def setup(self):
        self.w(T_MODE, 0x80)
        self.w(T_PRESCALER, 67)
        self.w(T_RELOAD_L, 49)  # 50 ticks of 135/13.56 MHz = 0.498 ms
        self.w(TX_CONTROL, 0x83)

    def transceive(self, data, last_bits=0, align=0, wait=0.003):
        self.w(COM_IRQ, 0x7F)
        self.w(FIFO_LEVEL, 0x80)
        self.w(FIFO_DATA, *data)
        self.w(COMMAND, TRANSCEIVE)
        self.w(BIT_FRAMING, 0x80 | align << 4 | last_bits)
        self.board.clock.sleep(wait)
        irq = self.r(COM_IRQ)
        level = self.r(FIFO_LEVEL)
        return irq, bytes(self.r(FIFO_DATA) for _ in range(level))


@pytest.fixture(autouse=True)
def _no_fakes_left_behind():
    yield
    fake_rpi.uninstall()


@pytest.fixture
def board():
    b = Board()
    b.add_reader(0, 0, rst_pin=25)
    return b


def test_crc_a_matches_the_examples_of_iso_14443_3():
    # ISO/IEC 14443-3 annex B: 00 00 -> A0 1E, 12 34 -> 26 CF; HLTA 50 00 -> 57 CD.
    assert crc_a(b"\x00\x00") == bytes.fromhex("A01E")
    assert crc_a(b"\x12\x34") == bytes.fromhex("26CF")
    assert crc_a(b"\x50\x00") == bytes.fromhex("57CD")


def test_reset_values_and_version(board):
    raw = Raw(board)
    assert raw.r(VERSION) == 0x92
    assert raw.r(COMMAND) == 0x20
    assert raw.r(COM_IRQ) == 0x14
    assert raw.r(MODE) == 0x3F
    assert raw.r(TX_CONTROL) == 0x80  # antenna off after reset


def test_each_transfer_advances_the_clock_at_the_bus_speed_and_is_counted(board):
    raw = Raw(board)
    before, t0 = board.counters(), board.clock.now()
    raw.r(VERSION)
    raw.w(FIFO_DATA, 1, 2, 3)
    delta = board.counters() - before
    assert delta.transfers == 2 and delta.bytes == 6
    assert board.clock.now() - t0 == pytest.approx(48e-6)  # 48 bits at 1 MHz
    assert delta.bus_time == pytest.approx(48e-6)


def test_fifo_burst_level_overflow_and_flush(board):
    raw = Raw(board)
    raw.w(FIFO_DATA, *range(60))
    assert raw.r(FIFO_LEVEL) == 60
    raw.w(FIFO_DATA, *range(5))
    assert raw.r(FIFO_LEVEL) == 64
    assert raw.r(ERROR) & 0x10  # BufferOvfl
    assert raw.r(FIFO_DATA) == 0 and raw.r(FIFO_DATA) == 1
    raw.w(FIFO_LEVEL, 0x80)
    assert raw.r(FIFO_LEVEL) == 0 and not raw.r(ERROR) & 0x10


def test_read_burst_returns_each_named_register(board):
    miso = board.transfer(0, 0, [0x80 | VERSION << 1, 0x80 | MODE << 1, 0x80 | COMMAND << 1, 0],
                          1_000_000)
    assert miso[1:] == [0x92, 0x3F, 0x20]


def test_irq_register_set1_semantics(board):
    raw = Raw(board)
    raw.w(COM_IRQ, 0x7F)  # Set1 = 0: clear every marked bit
    assert raw.r(COM_IRQ) == 0
    raw.w(COM_IRQ, 0x80 | 0x21)  # Set1 = 1: set the marked bits
    assert raw.r(COM_IRQ) == 0x21
    raw.w(COM_IRQ, 0x01)
    assert raw.r(COM_IRQ) == 0x20


def test_timer_fires_after_its_period(board):
    raw = Raw(board)
    # the mfrc522 package's setting: TModeReg 0x8D, TPrescaler 0x3E, reload 30:
    # (2 * 0xD3E + 1) * 31 / 13.56 MHz = 15.50 ms
    raw.w(T_MODE, 0x8D)
    raw.w(T_PRESCALER, 0x3E)
    raw.w(T_RELOAD_L, 30)
    raw.w(COM_IRQ, 0x7F)
    raw.w(CONTROL, 0x40)  # TStartNow
    board.clock.sleep(0.0150)
    assert not raw.r(COM_IRQ) & 0x01
    board.clock.sleep(0.0006)
    assert raw.r(COM_IRQ) & 0x01


def test_crc_coprocessor(board):
    raw = Raw(board)
    raw.w(MODE, 0x3D)  # preset 0x6363
    raw.w(DIV_IRQ, 0x04)
    raw.w(FIFO_DATA, 0x50, 0x00)
    raw.w(COMMAND, CALC_CRC)
    assert raw.r(DIV_IRQ) & 0x04
    assert (raw.r(0x22), raw.r(0x21)) == (0x57, 0xCD)  # CRCResultReg low, high


def test_no_card_no_answer_but_the_timer(board):
    raw = Raw(board)
    raw.setup()
    irq, data = raw.transceive([0x26], last_bits=7)
    assert irq & 0x01 and not irq & 0x20 and data == b""


def test_reqa_anticollision_select_halt_wupa_on_a_4_byte_card(board):
    raw = Raw(board)
    raw.setup()
    card = MifareClassic1K("A1B2C3D4")
    board.place(card, board.readers[0])
    board.clock.sleep(0.002)
    irq, atqa = raw.transceive([0x26], last_bits=7)
    assert irq & 0x20 and atqa == b"\x04\x00" and card.state is State.READY
    raw.w(BIT_FRAMING, 0)
    irq, uid = raw.transceive([0x93, 0x20])
    assert uid == bytes.fromhex("A1B2C3D4") + bytes([0xA1 ^ 0xB2 ^ 0xC3 ^ 0xD4])
    select = bytes([0x93, 0x70]) + uid
    irq, sak = raw.transceive(select + crc_a(select))
    assert sak == b"\x08" + crc_a(b"\x08") and card.state is State.ACTIVE
    irq, data = raw.transceive(b"\x50\x00" + crc_a(b"\x50\x00"))
    assert data == b"" and card.state is State.HALT
    irq, data = raw.transceive([0x26], last_bits=7)
    assert data == b"" and irq & 0x01  # a halted card ignores REQA...
    irq, data = raw.transceive([0x52], last_bits=7)
    assert data == b"\x04\x00"  # ...and answers WUPA


def test_a_7_byte_uid_needs_two_cascade_levels(board):
    raw = Raw(board)
    raw.setup()
    card = Ntag213("04112233445566")
    board.place(card, board.readers[0])
    board.clock.sleep(0.002)
    assert raw.transceive([0x26], last_bits=7)[1] == b"\x44\x00"
    raw.w(BIT_FRAMING, 0)
    cl1 = raw.transceive([0x93, 0x20])[1]
    assert cl1 == bytes([0x88, 0x04, 0x11, 0x22, 0x88 ^ 0x04 ^ 0x11 ^ 0x22])
    frame = bytes([0x93, 0x70]) + cl1
    assert raw.transceive(frame + crc_a(frame))[1][0] == 0x04  # SAK: UID not complete
    cl2 = raw.transceive([0x95, 0x20])[1]
    assert cl2 == bytes([0x33, 0x44, 0x55, 0x66, 0x33 ^ 0x44 ^ 0x55 ^ 0x66])
    frame = bytes([0x95, 0x70]) + cl2
    assert raw.transceive(frame + crc_a(frame))[1][0] == 0x00
    assert card.state is State.ACTIVE
    read = bytes([0x30, 0x00])
    page0 = raw.transceive(read + crc_a(read))[1]
    assert page0[:4] == bytes([0x04, 0x11, 0x22, 0x88 ^ 0x04 ^ 0x11 ^ 0x22])


def test_two_cards_collide_at_the_first_differing_bit(board):
    raw = Raw(board)
    raw.setup()
    board.place(MifareClassic1K("01020304"), board.readers[0])
    board.place(MifareClassic1K("01020305"), board.readers[0])
    board.clock.sleep(0.002)
    raw.transceive([0x26], last_bits=7)
    raw.w(BIT_FRAMING, 0)
    irq, _ = raw.transceive([0x93, 0x20])
    assert irq & 0x02 and raw.r(ERROR) & 0x08  # ErrIRq, CollErr
    # UID byte 3 is 04 vs 05: bit 0 of byte 3, the 25th bit of the frame
    assert raw.r(COLL) & 0x1F == 25


def test_bit_oriented_anticollision_frame_with_rxalign(board):
    raw = Raw(board)
    raw.setup()
    card = MifareClassic1K("01020305")
    board.place(card, board.readers[0])
    board.place(MifareClassic1K("01020304"), board.readers[0])
    board.clock.sleep(0.002)
    raw.transceive([0x26], last_bits=7)
    # 25 bits known (01 02 03 and a 1): NVB 0x51, last byte 1 bit, RxAlign 1
    irq, data = raw.transceive([0x93, 0x51, 0x01, 0x02, 0x03, 0x01], last_bits=1, align=1)
    assert not irq & 0x02
    assert data[0] == 0x05 & 0xFE  # 7 bits from position 1; the rest: BCC
    assert data[1] == 0x01 ^ 0x02 ^ 0x03 ^ 0x05


def test_ready_card_falls_back_to_idle_on_reqa(board):
    # why the stock read_id_no_block alternates: after anticollision the card
    # is READY, and the next REQA sends it back to IDLE without an answer
    raw = Raw(board)
    raw.setup()
    card = MifareClassic1K("A1B2C3D4")
    board.place(card, board.readers[0])
    board.clock.sleep(0.002)
    raw.transceive([0x26], last_bits=7)
    assert raw.transceive([0x26], last_bits=7)[1] == b""
    assert card.state is State.IDLE


def test_antenna_off_no_power_no_answer(board):
    raw = Raw(board)
    raw.setup()
    card = Ntag213("04112233445566")
    board.place(card, board.readers[0])
    board.clock.sleep(0.002)
    raw.w(TX_CONTROL, 0x80)
    assert card.state is State.POWER_OFF
    assert raw.transceive([0x52], last_bits=7)[1] == b""


def test_a_card_needs_time_to_power_up(board):
    raw = Raw(board)
    raw.setup()
    board.place(Ntag213("04112233445566"), board.readers[0])
    assert raw.transceive([0x26], last_bits=7, wait=0.0007)[1] == b""
    board.clock.sleep(0.001)
    assert raw.transceive([0x26], last_bits=7)[1] == b"\x44\x00"


@pytest.mark.parametrize("fault, expect", [("no_reply", b""), ("half_frame", b"\x44")])
def test_faults_spoil_the_next_reply(board, fault, expect):
    raw = Raw(board)
    raw.setup()
    board.place(Ntag213("04112233445566"), board.readers[0])
    board.clock.sleep(0.002)
    board.readers[0].inject(fault)
    assert raw.transceive([0x26], last_bits=7)[1] == expect
    raw.transceive([0x26], last_bits=7)  # READY -> IDLE
    assert raw.transceive([0x26], last_bits=7)[1] == b"\x44\x00"


def test_crc_fault_waits_for_a_reply_with_a_crc(board):
    raw = Raw(board)
    raw.setup()
    board.place(MifareClassic1K("A1B2C3D4"), board.readers[0])
    board.clock.sleep(0.002)
    board.readers[0].inject("crc")
    assert raw.transceive([0x26], last_bits=7)[1] == b"\x04\x00"  # ATQA has no CRC
    raw.w(BIT_FRAMING, 0)
    uid = raw.transceive([0x93, 0x20])[1]
    frame = bytes([0x93, 0x70]) + uid
    sak = raw.transceive(frame + crc_a(frame))[1]
    assert sak[0] == 0x08 and sak[1:] != crc_a(b"\x08")


def test_unplugged_reader_reads_zero_and_comes_back_reset(board):
    raw = Raw(board)
    raw.w(MODE, 0x3D)
    board.readers[0].unplug()
    assert raw.r(VERSION) == 0x00
    board.readers[0].plug()
    board.clock.sleep(0.001)
    assert raw.r(VERSION) == 0x92 and raw.r(MODE) == 0x3F


def test_reset_pin_low_is_power_down_and_rising_edge_resets(board):
    fake_rpi.install(board)
    gpio = fake_rpi.GPIO
    gpio.setmode(gpio.BCM)
    raw = Raw(board)
    raw.w(MODE, 0x3D)
    gpio.setup(25, gpio.OUT, initial=gpio.LOW)
    assert raw.r(VERSION) == 0x00
    gpio.output(25, 1)
    board.clock.sleep(0.001)
    assert raw.r(VERSION) == 0x92 and raw.r(MODE) == 0x3F
    gpio.cleanup()


def test_soft_reset_restores_the_registers(board):
    raw = Raw(board)
    raw.w(MODE, 0x3D)
    raw.w(TX_CONTROL, 0x83)
    raw.w(COMMAND, 0x0F)
    board.clock.sleep(0.001)
    assert raw.r(MODE) == 0x3F and raw.r(TX_CONTROL) == 0x80


def test_two_chips_selected_at_once_fight_over_miso():
    b = Board()
    b.add_reader(0, cs_pin=5, version=0x91)
    b.add_reader(0, cs_pin=6, version=0x92)
    fake_rpi.install(b)
    gpio = fake_rpi.GPIO
    gpio.setmode(gpio.BCM)
    gpio.setup([5, 6], gpio.OUT, initial=gpio.HIGH)
    raw = Raw(b, ce=None)
    gpio.output(5, 0)
    assert raw.r(VERSION) == 0x91
    gpio.output(6, 0)
    assert raw.r(VERSION) == 0x91 & 0x92
    gpio.output([5, 6], [1, 1])
    assert raw.r(VERSION) == 0x00  # nobody selected
    gpio.cleanup()


def test_cards_reject_impossible_uids():
    with pytest.raises(ValueError):
        Ntag213("A1B2C3D4")
    with pytest.raises(ValueError):
        MifareClassic1K("04112233445566")
    with pytest.raises(ValueError):
        Picc("8811223344556677")


def test_unknown_fault_is_refused(board):
    with pytest.raises(ValueError, match="unknown fault"):
        board.readers[0].inject("smoke")
