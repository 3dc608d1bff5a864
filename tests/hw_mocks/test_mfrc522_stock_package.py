"""The REAL mfrc522 0.0.7 package, unchanged, on the emulator: it reads and
writes cards, and shows the faults DESIGN.md lists (BOARD numbering, cleanup
of every pin, the 2,000-read spin, cascade level 1 only, alternating ids)."""

from __future__ import annotations

import logging

import pytest

from hw_mocks import fake_rpi
from hw_mocks.mfrc522 import Board, MifareClassic1K, Ntag213


@pytest.fixture(autouse=True)
def _no_fakes_left_behind():
    yield
    fake_rpi.uninstall()


@pytest.fixture
def board():
    b = Board()
    b.add_reader(0, 0, rst_pin=25)  # RST on BCM 25 = header pin 22
    fake_rpi.install(b)
    yield b
    logging.getLogger("mfrc522Logger").handlers.clear()


def stock(board):
    from mfrc522 import SimpleMFRC522

    reader = SimpleMFRC522()
    assert type(reader.READER).__module__ == "mfrc522.MFRC522"  # the package's own code
    return reader


def place(board, card, reader=0):
    board.place(card, board.readers[reader])
    board.clock.sleep(0.002)


def test_the_package_picks_board_numbering_and_drives_header_pin_22(board):
    stock(board)
    assert board.gpio.mode == 10  # BOARD
    assert board.gpio.pins[25].output and board.gpio.level(25) == 1


def test_then_setting_bcm_like_luma_does_fails(board):
    stock(board)
    with pytest.raises(ValueError, match="different mode"):
        fake_rpi.GPIO.setmode(fake_rpi.GPIO.BCM)


def test_close_cleans_up_every_pin_even_other_peoples(board):
    reader = stock(board)
    gpio = fake_rpi.GPIO
    gpio.setup(11, gpio.OUT, initial=1)  # someone's LED on header pin 11 (BCM 17)
    reader.READER.Close_MFRC522()
    assert 17 in board.gpio.cleaned and board.gpio.mode is None


def test_an_empty_poll_spins_2000_reads(board):
    reader = stock(board)
    before = board.counters()
    assert reader.read_id_no_block() is None
    spent = board.counters() - before
    assert spent.transfers >= 2000
    assert spent.bus_time >= 2000 * 16e-6  # 2-byte reads at 1 MHz


def test_a_4_byte_card_reads_as_uid_and_bcc(board):
    reader = stock(board)
    place(board, MifareClassic1K("A1B2C3D4"))
    # uid_to_num of A1 B2 C3 D4 and BCC A1^B2^C3^D4 = 04
    assert reader.read_id_no_block() == 0xA1B2C3D404


def test_a_card_lying_still_alternates_id_and_none(board):
    reader = stock(board)
    place(board, MifareClassic1K("A1B2C3D4"))
    assert [reader.read_id_no_block() for _ in range(4)] == [0xA1B2C3D404, None] * 2


def test_7_byte_uids_come_back_as_cascade_tag_and_3_bytes_so_stickers_collide(board):
    reader = stock(board)
    place(board, Ntag213("04112233445566"))
    first = reader.read_id_no_block()
    board.remove(board.readers[0].cards[0])
    place(board, Ntag213("041122AABBCCDD"))
    second = reader.read_id_no_block()
    # 88 04 11 22 and BCC 88^04^11^22 = BF: the last 4 bytes are lost
    assert first == second == 0x88041122BF


def test_text_written_on_a_classic_card_reads_back(board):
    reader = stock(board)
    place(board, MifareClassic1K("A1B2C3D4"))
    assert reader.write("seven of bells") == (0xA1B2C3D404, "seven of bells")
    uid, text = reader.read()
    assert uid == 0xA1B2C3D404 and text.rstrip() == "seven of bells"


def test_a_wrong_key_fails_authentication(board):
    from mfrc522 import MFRC522

    stock(board)
    card = MifareClassic1K("A1B2C3D4", key_a=bytes(6))
    place(board, card)
    chip = MFRC522(pin_rst=22)  # its init resets the chip: the field restarts
    board.clock.sleep(0.002)
    status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
    status, uid = chip.MFRC522_Anticoll()
    assert chip.MFRC522_SelectTag(uid) == 0x08
    assert chip.MFRC522_Auth(chip.PICC_AUTHENT1A, 11, [0xFF] * 6, uid) == chip.MI_ERR
    assert card.authenticated is None
