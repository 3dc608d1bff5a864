"""What real MFRC522s and cards do that a forgiving bench does not, and what
both readers' drivers (direct SPI and the hub firmware) must do about it:
each test runs one table against each driver."""

from __future__ import annotations

import logging

import pytest

from hw_mocks.mfrc522 import Harsh, MifareClassic1K, Ntag213
from hw_mocks.mfrc522.chip import COLL
from hw_mocks.mfrc522.frames import Bits
from hw_mocks.mfrc522.picc import REQA, Reply
from tests.drivers.reader_rigs import RIGS

STICKER = "04A1B2C3D4E5F6"
#: Harsh in nothing: each test switches on the one thing it is about.
GENTLE = dict(capture_rate=0.0, noise_rate=0.0, loss_rate=0.0, garble_rate=0.0, weak_rate=0.0,
              detune_rate=0.0, power_up_max_s=0.001, startup_s=50e-6, strict_commands=False)


@pytest.fixture(params=sorted(RIGS))
def make(request):
    made = []

    def build(readers=2, **harsh):
        rig = RIGS[request.param](readers, Harsh(**{**GENTLE, **harsh}) if harsh else None)
        made.append(rig)
        return rig

    yield build
    for rig in made:
        rig.close()
    logging.getLogger("mfrc522Logger").handlers.clear()


class LateSticker(Ntag213):
    """A sticker that finishes powering up just after a REQA went by: it
    misses that REQA and hears the WUPA that follows."""

    def __init__(self, uid: str) -> None:
        super().__init__(uid)
        self.missed_reqa = False

    def receive(self, bits: Bits, now: float) -> Reply | None:
        if not self.missed_reqa:
            if len(bits) == 7 and bits == [(REQA >> i) & 1 for i in range(7)]:
                self.missed_reqa = True
            return None
        return super().receive(bits, now)


def test_a_second_card_waking_between_reqa_and_wupa_is_found_and_the_first_still_leaves(make):
    rig = make()
    first = MifareClassic1K("A1B2C3D4")
    rig.board.place(first, rig.board.readers[0])
    assert rig.polls(3) == [("on", 0, "A1B2C3D4")]
    rig.board.place(LateSticker(STICKER), rig.board.readers[0])
    rig.board.clock.sleep(0.002)  # powered, all but the last few microseconds
    assert rig.polls(10) == [("on", 0, STICKER)]
    rig.board.remove(first)
    assert rig.polls(10) == [("off", 0, "A1B2C3D4")]
    assert rig.reported[0] == {STICKER}


def test_noise_after_every_silent_frame_neither_keeps_a_lifted_card_nor_makes_one(make):
    rig = make()
    card = Ntag213(STICKER)
    rig.board.place(card, rig.board.readers[0])
    assert rig.polls(3) == [("on", 0, STICKER)]
    rig.board.remove(card)
    rig.board.readers[0].inject("noise", 100_000)  # a neighbour's field, a motor...
    assert rig.polls(30) == [("off", 0, STICKER)]
    assert rig.reported[0] == set()


def test_two_cards_whose_collisions_also_raise_parity_errors_are_both_read(make):
    rig = make(capture_rate=0.0)  # every clash is a collision, with its parity errors
    for uid in ("01020304", "01020305", "81020304"):
        rig.board.place(MifareClassic1K(uid), rig.board.readers[0])
    said = rig.polls(6)
    assert sorted(said) == [("on", 0, "01020304"), ("on", 0, "01020305"), ("on", 0, "81020304")]
    # as NXP's library does: ValuesAfterColl cleared, the bits after a collision read 0
    assert rig.board.readers[0].regs[COLL] & 0x80 == 0


def test_stickers_sharing_their_first_cascade_level_resolve_despite_collision_errors(make):
    rig = make(capture_rate=0.0)
    rig.board.place(Ntag213("04A1B2C3D4E5F6"), rig.board.readers[0])
    rig.board.place(Ntag213("04A1B2112233FF"), rig.board.readers[0])
    assert sorted(rig.polls(6)) == [("on", 0, "04A1B2112233FF"), ("on", 0, "04A1B2C3D4E5F6")]


def test_a_chip_still_listening_after_a_silent_frame_is_put_in_idle_first(make):
    rig = make(strict_commands=True)
    card = Ntag213(STICKER)
    rig.board.place(card, rig.board.readers[0])
    assert rig.polls(5) == [("on", 0, STICKER)]
    rig.board.remove(card)
    assert rig.polls(10) == [("off", 0, STICKER)]
    rig.board.place(card, rig.board.readers[1])
    assert rig.polls(5) == [("on", 1, STICKER)]


def test_a_chip_slow_to_start_after_its_soft_reset_is_waited_for(make):
    rig = make(startup_s=0.003)  # a slow crystal: the chip answers 3 ms after reset
    rig.board.place(Ntag213(STICKER), rig.board.readers[1])
    assert rig.polls(5) == [("on", 1, STICKER)]  # and no reader offline


def test_a_card_slid_to_the_next_seat_arrives_there(make):
    rig = make(3)
    card = Ntag213(STICKER)
    board = rig.board
    board.place(card, board.readers[0])
    assert rig.polls(3) == [("on", 0, STICKER)]
    board.place_between(card, board.readers[0], board.readers[1])  # on its way
    assert rig.polls(5) == []  # still seen, and halted, by the first reader
    board.place(card, board.readers[1])  # it never left the second one's field
    assert sorted(rig.polls(10)) == [("off", 0, STICKER), ("on", 1, STICKER)]
    assert rig.reported == {0: set(), 1: {STICKER}}


def test_the_cards_of_the_other_seats_are_not_reported_again_after_a_field_reset(make):
    rig = make(3)
    board = rig.board
    lying = [Ntag213("04000000000001"), MifareClassic1K("A1B2C3D4")]
    board.place(lying[0], board.readers[1])
    board.place(lying[1], board.readers[2])
    lifted = Ntag213(STICKER)
    board.place(lifted, board.readers[0])
    assert len(rig.polls(3)) == 3
    board.remove(lifted)  # the fields of every reader are reset once it has left
    assert rig.polls(20) == [("off", 0, STICKER)]
