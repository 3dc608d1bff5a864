"""The `pi` hardware backend: the real adapters of `table.drivers`, as the
configuration wires them (entry point `pi` in the group `cardtable.hardware`,
see `table.backends`). Nothing here imports a hardware library until a part
is opened."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from table.backends import Backend

if TYPE_CHECKING:
    from table.config import Config
    from table.doctor import DoctorParts
    from table.ports import Display, Ports


class PiBackend(Backend):
    name = "pi"

    def open_ports(self, config: Config,
                   announce: Callable[[str], None] | None = None,
                   first_frame: Callable[[Display], None] | None = None) -> Ports:
        from table.drivers import build_ports

        return build_ports(config, announce=announce, first_frame=first_frame)

    def close_ports(self, ports: Ports) -> None:
        from table.drivers import close_ports

        close_ports(ports)

    def doctor_parts(self, config: Config) -> DoctorParts:
        from table.doctor import open_parts

        return open_parts(config)
