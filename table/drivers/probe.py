"""Low-level access `cardtable doctor` needs to probe the hardware: an SPI
device opened for a register read, and an output pin held at a level. Here so
that only `table.drivers` imports hardware libraries (lazily)."""

from __future__ import annotations

from typing import Any


def spidev_open(bus: int, device: int) -> Any:
    """An open `spidev.SpiDev`, its settings as the kernel keeps them for the
    device (the doctor sets what it needs and puts each setting back)."""
    import spidev

    spi = spidev.SpiDev()
    spi.open(bus, device)
    return spi


def output_pin(pin: int, pin_factory: Any, initial: bool = True) -> Any:
    """A gpiozero output holding `pin` at `initial` until closed."""
    from gpiozero import DigitalOutputDevice

    return DigitalOutputDevice(pin, initial_value=initial, pin_factory=pin_factory)
