"""A register-level MFRC522 emulator with ISO/IEC 14443-3 Type A cards.

    board = Board()                       # a Pi with SPI0/SPI1 and a GPIO header
    seat0 = board.add_reader(bus=0, ce=0, rst_pin=25)
    card = Ntag213("04A1B2C3D4E5F6")
    board.place(card, seat0)              # any time; board.remove(card) takes it off
    fake_rpi.install(board)               # then the real `mfrc522` package runs on it

    board = Board(profile=Harsh(seed=1))  # noise, collisions with errors, weak cards...

See chip.py for what the chip does, harsh.py for the harsh profile,
picc.py for the cards, board.py for the wiring.
"""

from .board import Board, BusCounters, Wiring
from .chip import Mfrc522
from .clock import VirtualClock
from .crc import crc_a
from .harsh import Harsh
from .picc import MifareClassic1K, Ntag213, Picc, State

__all__ = ["Board", "BusCounters", "Harsh", "Mfrc522", "MifareClassic1K", "Ntag213", "Picc",
           "State", "VirtualClock", "Wiring", "crc_a"]
