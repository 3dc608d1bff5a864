"""Asking a running reader hub to stop for a firmware update (`UPDATE`,
firmware/PROTOCOL.md): the hub answers `OK,UPDATE`, switches its antennas off
and restarts once without its watchdog, leaving MicroPython's REPL to
`mpremote`. `cardtable hub-update` (table/commands/hub_update.py) uses it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from table.drivers.hub_protocol import BadLine, LineSplitter, encode_command, parse_line
from table.drivers.hub_readers import find_hub_port, open_serial


@dataclass(frozen=True)
class UpdateAnswer:
    """What came of asking: `outcome` is "ok" (the hub is restarting into
    update mode), "old" (its firmware predates UPDATE: `version` says which),
    "silent" (no answer in time), "no-hub" or "cannot-open" (`detail` says why)."""

    port: str | None
    outcome: str
    version: tuple[str, ...] = ()
    detail: str = ""


def request_update(port: str | None = None, timeout_s: float = 3.0,
                   open_port: Callable[[str], Any] | None = None,
                   find_port: Callable[[], str | None] | None = None) -> UpdateAnswer:
    """Send `VER` and `UPDATE` to the hub on `port` (default: the one
    `find_port` finds, else find_hub_port's) and wait at most `timeout_s`
    for its answer; `open_port` opens it (default: open_serial)."""
    path = port or (find_port or find_hub_port)()
    open_port = open_port or open_serial
    if path is None:
        return UpdateAnswer(None, "no-hub")
    try:
        serial = open_port(path)
    except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
        if not os.path.exists(path):
            return UpdateAnswer(path, "no-hub", detail="no such port")
        return UpdateAnswer(path, "cannot-open", detail=str(exc))
    try:
        return _ask(serial, path, timeout_s)
    finally:
        try:
            serial.close()
        except OSError:
            pass


def _ask(serial: Any, path: str, timeout_s: float) -> UpdateAnswer:
    version: tuple[str, ...] = ()
    splitter = LineSplitter()
    try:
        serial.write(encode_command("VER") + encode_command("UPDATE"))
    except (OSError, ValueError) as exc:
        return UpdateAnswer(path, "cannot-open", detail=str(exc))
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            data = serial.read(256)
        except (OSError, ValueError, TypeError) as exc:
            return UpdateAnswer(path, "silent", version, detail=f"the hub went away ({exc})")
        for raw in splitter.feed(data or b""):
            try:
                line = parse_line(raw)
            except BadLine:
                continue  # stale or spoiled lines: only the answers matter
            if line.kind == "VER":
                version = line.fields
            elif line.kind == "OK" and line.fields[:1] == ("UPDATE",):
                return UpdateAnswer(path, "ok", version)
            elif line.kind == "ERR" and line.fields[1:3] == ("BADCMD", "UPDATE"):
                return UpdateAnswer(path, "old", version)
    return UpdateAnswer(path, "silent", version)
