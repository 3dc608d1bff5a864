"""The readers' power budget: what N MFRC522 readers draw at 3.3 V and what
each way of feeding them can give. `cardtable doctor` reports it for the
configured readers; docs/hardware.md's Power section quotes these figures
(a test keeps them the same). Pure arithmetic, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Supply = Literal["pi", "ldo", "buck"]
SUPPLIES: tuple[str, ...] = ("pi", "ldo", "buck")

#: One reader at most (MFRC522 datasheet): the antenna driver (TVDD) up to
#: 100 mA with the field on, the rest of the chip about 16 mA.
READER_TVDD_MA = 100
READER_CORE_MA = 16
READER_MAX_MA = READER_TVDD_MA + READER_CORE_MA
#: Readers the Pi's own 3V3 pins (1 and 17) can feed next to the Pi itself.
PI_3V3_MAX_READERS = 3
#: Readers the Pico's 3V3(OUT) pin can feed (about 300 mA, Pico datasheet).
PICO_3V3_MAX_READERS = 2
#: An AMS1117-3.3 linear regulator from the Pi's 5 V: it burns the difference.
LDO_INPUT_V = 5.0
LDO_OUTPUT_V = 3.3
LDO_MAX_MA = 800
#: What the small AMS1117 modules (SOT-223, no heatsink) shed without overheating.
LDO_MAX_W = 0.8
#: A 3.3 V buck converter module: efficiency, and the margin to size it with.
BUCK_EFFICIENCY = 0.85
BUCK_MARGIN = 1.5


@dataclass(frozen=True)
class Budget:
    """`readers` readers at full field, and what each supply makes of it."""

    readers: int
    current_ma: int
    #: the linear regulator's heat
    ldo_w: float
    #: a buck converter: the rating to buy, and what it takes from the 5 V supply
    buck_rating_ma: int
    buck_input_ma: int

    def fits(self, supply: Supply) -> bool:
        if supply == "pi":
            return self.readers <= PI_3V3_MAX_READERS
        if supply == "ldo":
            return self.current_ma <= LDO_MAX_MA and self.ldo_w <= LDO_MAX_W
        return True


def budget(readers: int) -> Budget:
    current = readers * READER_MAX_MA
    ldo_w = (LDO_INPUT_V - LDO_OUTPUT_V) * current / 1000
    rating = int(-(-current * BUCK_MARGIN // 100) * 100)          # rounded up to 100 mA
    buck_in = round(LDO_OUTPUT_V * current / BUCK_EFFICIENCY / LDO_INPUT_V)
    return Budget(readers, current, round(ldo_w, 2), rating, buck_in)


def ldo_max_readers() -> int:
    """The most readers one AMS1117 module feeds within its heat and current."""
    n = 0
    while budget(n + 1).fits("ldo"):
        n += 1
    return n
