"""From the configuration's readers to the readers' drivers.

The drivers themselves (MFRC522 readers on the Pi's SPI buses in
`table.drivers.spi_readers`, the USB reader hub in
`table.drivers.hub_readers`) belong to the readers' issue; this module only
groups the configured readers by kind and hands each group its places
(seat numbers in order of play, `table.ports.DEALER` for the dealer's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.config import HubReader, SpiReader

if TYPE_CHECKING:
    from table.config import Config


def spi_places(config: Config) -> dict[int, SpiReader]:
    return {p: r for p, r in config.readers_by_place().items() if isinstance(r, SpiReader)}


def hub_places(config: Config) -> dict[int, HubReader]:
    return {p: r for p, r in config.readers_by_place().items() if isinstance(r, HubReader)}


def _driver(module: str, what: str) -> Any:
    import importlib

    from table.drivers import HardwareError

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise HardwareError("the card readers", f"this version has no driver for {what}",
                            "update cardtable") from None


def open_spi_group(config: Config, pin_factory: Any) -> Any:
    """The readers wired to the Pi, or None if there are none."""
    places = spi_places(config)
    if not places:
        return None
    module = _driver("table.drivers.spi_readers", "readers wired to the Pi's SPI")
    return module.open_from_config(places, config.readers, pin_factory=pin_factory)


def open_hub_group(config: Config) -> Any:
    """The readers on the USB hub, or None if there are none."""
    places = hub_places(config)
    if not places:
        return None
    module = _driver("table.drivers.hub_readers", "the USB reader hub")
    return module.open_from_config(places, config.hub)
