"""MFRC522 registers, commands and bits used by the readers' drivers
(NXP MFRC522 datasheet, section 9)."""

from __future__ import annotations

COMMAND_REG = 0x01
COM_IEN_REG = 0x02
COM_IRQ_REG = 0x04
DIV_IRQ_REG = 0x05
ERROR_REG = 0x06
STATUS2_REG = 0x08
FIFO_DATA_REG = 0x09
FIFO_LEVEL_REG = 0x0A
CONTROL_REG = 0x0C
BIT_FRAMING_REG = 0x0D
COLL_REG = 0x0E
MODE_REG = 0x11
TX_MODE_REG = 0x12
RX_MODE_REG = 0x13
TX_CONTROL_REG = 0x14
TX_ASK_REG = 0x15
T_MODE_REG = 0x2A
T_PRESCALER_REG = 0x2B
T_RELOAD_H_REG = 0x2C
T_RELOAD_L_REG = 0x2D
VERSION_REG = 0x37

CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10

TX_IRQ = 0x40
RX_IRQ = 0x20
IDLE_IRQ = 0x10
ERR_IRQ = 0x02
TIMER_IRQ = 0x01
ALL_IRQS = 0x7F

COLL_ERR = 0x08
CRC_ERR = 0x04
PARITY_ERR = 0x02
PROTOCOL_ERR = 0x01
BUFFER_OVFL = 0x10
COLL_POS_NOT_VALID = 0x20
#: CollReg bit 7: 0 = the bits received after a collision are cleared.
VALUES_AFTER_COLL = 0x80

FLUSH_BUFFER = 0x80
START_SEND = 0x80
ANTENNA_BITS = 0x03
FIFO_SIZE = 64

#: VersionReg of chips seen on reader modules: 0x91/0x92 NXP v1/v2, 0x88 and
#: 0xB2 Fudan FM17522 clones, 0x12 a common counterfeit.
KNOWN_VERSIONS = frozenset({0x88, 0x90, 0x91, 0x92, 0xB2, 0x12})


def read_address(reg: int) -> int:
    """The SPI address byte that reads `reg`."""
    return ((reg << 1) & 0x7E) | 0x80


def write_address(reg: int) -> int:
    return (reg << 1) & 0x7E
