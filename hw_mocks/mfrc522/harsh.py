"""The harsh profile of the MFRC522 emulator: what a real table does to a
reader that a clean bench does not.

    board = Board(profile=Harsh(seed=7))

Every random choice comes from one `random.Random(seed)` owned by the board,
so a run is exactly repeatable. What it adds to the clean emulator:

* collisions also raise ParityErr (and now and then ProtocolErr) besides
  CollErr, as on the air; with `capture_rate` one card's answer drowns the
  others' and arrives cleanly (the capture effect);
* `noise_rate`: a frame nobody answers is followed by noise: a few random
  bits with parity and protocol errors (a neighbour's field, a motor);
* `loss_rate`: a card's answer is lost; `garble_rate`: it arrives with a
  flipped bit (ParityErr);
* a card lying between two seats (`Board.place_between`) is powered by both
  fields and hears both readers, weakly: each of its answers is lost or
  garbled with `weak_rate`;
* stacked cards detune each other: on a reader holding n cards, each frame
  browns out one of them with probability `detune_rate * (n - 1)` for up to
  `detune_s` (it forgets its state and powers up again in IDLE);
* cards need between 0.5 ms and `power_up_max_s` (5 ms, the most ISO/IEC
  14443 allows) after the field appears before they answer;
* the oscillator needs `startup_s` after a reset or power-on before the chip
  answers on SPI (reads 0x00 until then);
* `strict_commands`: a Transceive written over a Transceive that is still
  listening (it heard nothing) does not restart it, so its StartSend is not
  taken: the datasheet only promises that a command stops when another one is
  written, and NXP's library writes Idle first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Harsh:
    seed: int = 0
    capture_rate: float = 0.3
    noise_rate: float = 0.02
    loss_rate: float = 0.02
    garble_rate: float = 0.02
    weak_rate: float = 0.3
    detune_rate: float = 0.01
    detune_s: float = 0.01
    power_up_max_s: float = 0.005
    startup_s: float = 0.003
    strict_commands: bool = True

    def rng(self) -> random.Random:
        return random.Random(self.seed)

