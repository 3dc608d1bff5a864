"""The `mock` hardware backend: every part of the table faked (entry point
`mock` in the group `cardtable.hardware`, see `table.backends`), for
`cardtable run --hardware mock` and `cardtable doctor --hardware mock`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from table.backends import Backend

if TYPE_CHECKING:
    from hw_mocks.display import FakeDisplay
    from hw_mocks.table import MockTable
    from table.config import Config
    from table.doctor import DoctorParts
    from table.ports import Display


class MockBackend(Backend):
    name = "mock"

    def fake_display(self, screen: tuple[int, int]) -> FakeDisplay:
        from hw_mocks.display import FakeDisplay

        return FakeDisplay(screen)

    def fake_table(self, seats: int, dealer_reader: bool,
                   screen: tuple[int, int], display: Display | None = None) -> MockTable:
        from hw_mocks.display import FakeDisplay
        from hw_mocks.table import MockTable

        if display is not None and not isinstance(display, FakeDisplay):
            raise TypeError("the fake table takes the display of fake_display()")
        return MockTable(seats=seats, dealer_reader=dealer_reader, screen=screen,
                         display=display)

    def doctor_parts(self, config: Config) -> DoctorParts:
        """The doctor's parts on the fakes: gpiozero's MockFactory, a display
        that keeps its frame, the fake readers (nobody puts cards on them), and
        for hub readers a fake hub (the real firmware on a pty) to ask."""
        from hw_mocks.readers import FakeCardReaders
        from table.doctor import DoctorParts
        from table.drivers import make_pin_factory
        from table.drivers.display import NoDisplay
        from table.drivers.gpio import GpioIndicators

        factory = make_pin_factory("mock")
        parts = DoctorParts(
            pin_factory=factory, display=NoDisplay(config.display.size),
            indicators=GpioIndicators(factory, [s.led for s in config.seats],
                                      config.leds.status, config.buzzer.pin,
                                      buzzer_kind=config.buzzer.kind),
            readers=FakeCardReaders(len(config.seats), config.dealer is not None))
        if config.uses_hub():
            from hw_mocks.fake_hub import FakeHub
            from table.drivers.hub_readers import HubReaders
            from table.drivers.reader_wiring import hub_places

            hub = FakeHub(channels=8)
            hub.plug()
            channels = {place: r.channel for place, r in hub_places(config).items()}
            parts.open_hub = lambda: HubReaders(channels, find_port=hub.find_port)
            parts.closers.append(hub.unplug)
        return parts
