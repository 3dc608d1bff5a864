"""The harsh profile of the MFRC522 emulator, register by register: each of
its misbehaviours shows, at its rate, and a seed replays a run exactly."""

from __future__ import annotations

import pytest

from hw_mocks.mfrc522 import Board, Harsh, MifareClassic1K, Ntag213, State, crc_a

COMMAND, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x06, 0x09, 0x0A
BIT_FRAMING, COLL, TX_CONTROL, T_MODE, T_PRESCALER, T_RELOAD_L = 0x0D, 0x0E, 0x14, 0x2A, 0x2B, 0x2D
VERSION = 0x37
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
RX_IRQ, TIMER_IRQ = 0x20, 0x01
COLL_ERR, PARITY_ERR, PROTOCOL_ERR = 0x08, 0x02, 0x01
GENTLE = dict(capture_rate=0.0, noise_rate=0.0, loss_rate=0.0, garble_rate=0.0, weak_rate=0.0,
              detune_rate=0.0, power_up_max_s=0.001, startup_s=50e-6, strict_commands=False)


def harsh(**rates):
    return Harsh(**{**GENTLE, **rates})


class Raw:
    """Register access straight through the emulated bus (no library)."""

    def __init__(self, board, ce=0):
        self.board, self.ce = board, ce

    def w(self, reg, *values):
        self.board.transfer(0, self.ce, [(reg << 1) & 0x7E, *values], 1_000_000)

    def r(self, reg):
        return self.board.transfer(0, self.ce, [((reg << 1) & 0x7E) | 0x80, 0], 1_000_000)[1]

    def setup(self):
        self.w(T_MODE, 0x80)
        self.w(T_PRESCALER, 67)
        self.w(T_RELOAD_L, 49)
        self.w(COLL, 0x00)
        self.w(TX_CONTROL, 0x83)

    def transceive(self, data, last_bits=0, idle_first=True):
        """(ComIrqReg, ErrorReg, FIFO bytes) 3 ms after sending `data`."""
        if idle_first:
            self.w(COMMAND, IDLE)
        self.w(COM_IRQ, 0x7F)
        self.w(FIFO_LEVEL, 0x80)
        self.w(FIFO_DATA, *data)
        self.w(COMMAND, TRANSCEIVE)
        self.w(BIT_FRAMING, 0x80 | last_bits)
        self.board.clock.sleep(0.003)
        irq, error, level = self.r(COM_IRQ), self.r(ERROR), self.r(FIFO_LEVEL)
        return irq, error, bytes(self.r(FIFO_DATA) for _ in range(level))

    def reqa(self):
        return self.transceive([0x26], last_bits=7)

    def wupa(self):
        return self.transceive([0x52], last_bits=7)


def rig(profile, readers=1, cards=()):
    board = Board(profile=profile)
    for ce in range(readers):
        board.add_reader(0, ce)
    raw = [Raw(board, ce) for ce in range(readers)]
    for r in raw:
        r.setup()
    for card in cards:
        board.place(card, board.readers[0])
    board.clock.sleep(0.006)
    return board, raw


def test_a_collision_also_raises_parity_errors():
    board, (raw,) = rig(harsh(), cards=[MifareClassic1K("01020304"), MifareClassic1K("01020305")])
    raw.reqa()
    irq, error, uid = raw.transceive([0x93, 0x20])
    assert error & COLL_ERR and error & PARITY_ERR
    assert raw.r(COLL) & 0x1F == 25  # the first differing bit, 1-based, of the UID's 32


def test_the_capture_effect_lets_one_card_through_cleanly():
    uids = {bytes.fromhex("01020304"), bytes.fromhex("81020305")}
    winners = set()
    for seed in range(8):
        board, (raw,) = rig(harsh(seed=seed, capture_rate=1.0),
                            cards=[MifareClassic1K(uid) for uid in uids])
        raw.reqa()
        irq, error, answer = raw.transceive([0x93, 0x20])
        assert error == 0 and answer[:4] in uids
        assert answer[4] == answer[0] ^ answer[1] ^ answer[2] ^ answer[3]
        winners.add(answer[:4])
    assert winners == uids  # either card may be the stronger one


def test_noise_answers_a_frame_nobody_answers_but_never_as_a_clean_atqa():
    board, (raw,) = rig(harsh(noise_rate=1.0))
    for _ in range(30):
        irq, error, data = raw.reqa()
        assert irq & RX_IRQ and error & (PARITY_ERR | PROTOCOL_ERR)


def test_noise_comes_at_its_rate():
    board, (raw,) = rig(harsh(seed=5, noise_rate=0.25))
    heard = sum(bool(raw.reqa()[0] & RX_IRQ) for _ in range(400))
    assert 60 <= heard <= 140


def test_lost_and_garbled_answers():
    card = MifareClassic1K("A1B2C3D4")
    board, (raw,) = rig(harsh(loss_rate=1.0), cards=[card])
    irq, error, data = raw.reqa()
    assert irq & TIMER_IRQ and not irq & RX_IRQ and card.state is State.READY  # it did answer
    board, (raw,) = rig(harsh(garble_rate=1.0), cards=[MifareClassic1K("A1B2C3D4")])
    irq, error, data = raw.reqa()
    assert irq & RX_IRQ and error & PARITY_ERR and data != b"\x04\x00"


def test_a_card_between_two_seats_is_powered_by_either_and_heard_weakly_by_both():
    board, (one, other) = rig(harsh(seed=2, weak_rate=1.0), readers=2)
    card = Ntag213("04A1B2C3D4E5F6")
    board.place_between(card, *board.readers)
    board.clock.sleep(0.006)
    outcomes = []
    for raw in (one, other) * 10:
        irq, error, data = raw.wupa()
        outcomes.append("lost" if not irq & RX_IRQ else "garbled" if error else "clean")
    assert set(outcomes) == {"lost", "garbled"}  # never clean at weak_rate 1
    one.w(TX_CONTROL, 0x80)  # the first seat's field off: the other still powers it
    assert card.state is not State.POWER_OFF
    other.w(TX_CONTROL, 0x80)
    assert card.state is State.POWER_OFF


def test_sliding_a_card_onto_a_seat_whose_field_it_already_lay_in_keeps_its_state():
    board, (one, other) = rig(harsh(), readers=2)
    card = MifareClassic1K("A1B2C3D4")
    board.place(card, board.readers[0])
    board.clock.sleep(0.006)
    one.reqa()
    uid = one.transceive([0x93, 0x20])[2]
    select = bytes([0x93, 0x70]) + uid
    one.transceive(select + crc_a(select))
    one.transceive(b"\x50\x00" + crc_a(b"\x50\x00"))
    assert card.state is State.HALT
    board.place_between(card, *board.readers)
    board.place(card, board.readers[1])
    assert card.state is State.HALT
    assert not other.reqa()[0] & RX_IRQ  # halted: the new seat's REQA does not reach it
    board.place(card, board.readers[0])  # lifted and put down: power lost, IDLE
    board.clock.sleep(0.006)
    assert one.reqa()[2] == b"\x04\x00"


def test_stacked_cards_brown_out_and_come_back_idle():
    cards = [MifareClassic1K(f"0102030{i}") for i in range(3)]
    board, (raw,) = rig(harsh(seed=4, detune_rate=0.2, detune_s=0.002), cards=cards)
    seen_idle = 0
    for _ in range(40):
        for card in cards:
            card.state = State.HALT  # as after a poll
        raw.reqa()
        board.readers[0].catch_up()
        seen_idle += sum(c.state in (State.IDLE, State.READY) for c in cards)
    assert seen_idle  # some browned out, lost HALT and woke again in IDLE
    alone = [MifareClassic1K("A1B2C3D4")]
    board, (raw,) = rig(harsh(seed=4, detune_rate=1.0), cards=alone)
    alone[0].state = State.HALT
    for _ in range(20):
        raw.reqa()
    assert alone[0].state is State.HALT  # a card alone detunes nothing


def test_cards_take_up_to_5_ms_to_power_up():
    board, (raw,) = rig(harsh(seed=9, power_up_max_s=0.005))
    cards = [MifareClassic1K(f"0A0B0C{i:02X}") for i in range(20)]
    for card in cards:
        board.readers[0].add_card(card)
        board.readers[0].remove_card(card)
    times = [c.power_up_s for c in cards]
    assert min(times) >= 0.0005 and max(times) <= 0.005 and max(times) - min(times) > 0.002
    slow = max(cards, key=lambda c: c.power_up_s)
    board.place(slow, board.readers[0])
    assert not raw.reqa()[0] & RX_IRQ  # 3 ms is not enough for it
    board.clock.sleep(0.003)
    assert raw.reqa()[2] == b"\x04\x00"


def test_the_oscillator_takes_its_time_after_a_soft_reset():
    board, (raw,) = rig(harsh(startup_s=0.003))
    raw.w(COMMAND, SOFT_RESET)
    board.clock.sleep(0.001)
    assert raw.r(VERSION) == 0x00
    board.clock.sleep(0.002)
    assert raw.r(VERSION) == 0x92


def test_a_transceive_written_over_a_listening_one_sends_nothing():
    card = MifareClassic1K("A1B2C3D4")
    board, (raw,) = rig(harsh(strict_commands=True))
    raw.reqa()  # nobody there: the Transceive keeps listening
    board.place(card, board.readers[0])
    board.clock.sleep(0.006)
    irq, error, data = raw.transceive([0x26], last_bits=7, idle_first=False)
    assert not irq & (0x40 | RX_IRQ | TIMER_IRQ)  # no TxIRq: nothing went out...
    assert data == b"\x26"  # ...the REQA still waits in the FIFO
    assert raw.reqa()[2] == b"\x04\x00"  # Idle first: it goes out


@pytest.mark.parametrize("profile", [harsh(seed=11, noise_rate=0.3, loss_rate=0.3),
                                     Harsh(seed=11)])
def test_a_seed_replays_a_run_exactly(profile):
    def run(p):
        board, (raw,) = rig(p, cards=[MifareClassic1K("01020304"), Ntag213("04A1B2C3D4E5F6")])
        return [raw.reqa() for _ in range(30)] + [raw.wupa() for _ in range(30)]

    assert run(profile) == run(profile)
    other = Harsh(**{**profile.__dict__, "seed": 12})
    assert run(profile) != run(other)
