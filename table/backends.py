"""Hardware backends and extra commands, chosen by name through entry points.

The table never imports its fakes. As gpiozero finds its pin factories, the
table finds the hardware it runs on by name among the installed packages'
entry points:

* group `cardtable.hardware`: `pi` (the real adapters, `table.drivers.backend`)
  and `mock` (the fakes, `hw_mocks.backend`). `cardtable run --hardware NAME`
  and `cardtable doctor --hardware NAME` open the table through
  `load_backend(NAME)`.
* group `cardtable.commands`: subcommands that only exist when the package
  providing them is installed (`cardtable sim`, from `hw_mocks`). The value
  is a function adding its parser to the subparsers, as `table.cli.COMMANDS`.

Entry points are read from the installed metadata (`pip install .` or
`pip install -e .`): after adding one to pyproject.toml, install again.
`importlib.metadata` is imported only when they are first read (it is one
of the costliest imports of a start on a small Pi), and read once; a
backend cardtable itself provides (`pi`, `mock`) is found in cardtable's own
entry_points.txt, read directly, so `cardtable run` starts without it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from PIL.Image import Image

    from table.config import Config
    from table.doctor import DoctorParts
    from table.ports import Display, Ports, Post

HARDWARE_GROUP = "cardtable.hardware"
COMMANDS_GROUP = "cardtable.commands"


class BackendNotInstalled(LookupError):
    """No installed package provides the hardware backend asked for by name."""

    def __init__(self, name: str, installed: list[str]) -> None:
        self.name = name
        self.installed = installed
        have = ", ".join(installed) if installed else "none"
        hint = ("the fakes come with cardtable's hw_mocks package: install cardtable "
                "from its checkout (pip install .)" if name == "mock" else
                "the real adapters need cardtable[pi] on the Pi" if name == "pi" else
                "check the name")
        super().__init__(f"no hardware backend {name!r} is installed (installed: {have}); "
                         f"{hint}")


class BackendError(RuntimeError):
    """A backend cannot do what was asked (e.g. events files on real hardware)."""


# ----- what a backend offers ------------------------------------------------------------

class FakeReaders(Protocol):
    """The fake card readers an events file drives (see `hw_mocks.readers`)."""

    @property
    def started(self) -> bool: ...

    def start(self, post: Post) -> None: ...

    def arrive(self, place: int, uid: str) -> None: ...

    def leave(self, place: int, uid: str) -> None: ...

    def offline(self, place: int, detail: str = "") -> None: ...

    def back(self, place: int) -> None: ...


class FakeButtons(Protocol):
    def start(self, post: Post) -> None: ...


class FakeClock(Protocol):
    def now(self) -> float: ...

    def advance(self, seconds: float) -> object: ...


class FakeDisplay(Protocol):
    def ascii(self) -> str: ...

    def on_frame(self, callback: Callable[[Image], None]) -> None: ...


class FakeTable(Protocol):
    """A whole table of fakes that a script can play on: cards come and go,
    buttons are pressed, table time passes (`table.events_script.Player`)."""

    @property
    def ports(self) -> Ports: ...

    @property
    def readers(self) -> FakeReaders: ...

    @property
    def buttons(self) -> FakeButtons: ...

    @property
    def clock(self) -> FakeClock: ...

    @property
    def display(self) -> FakeDisplay: ...

    def press(self, name: str, seconds: float = 0.1) -> None: ...

    def hold(self, name: str) -> None: ...

    def close(self) -> None: ...


class Backend:
    """A hardware backend: the base class of what the `cardtable.hardware`
    entry points name. A backend that lacks a capability says so."""

    name = "?"

    def open_ports(self, config: Config,
                   announce: Callable[[str], None] | None = None,
                   first_frame: Callable[[Display], None] | None = None) -> Ports:
        """The table's ports as `config` wires them (closed by `close_ports`);
        `announce` is told what the backend chose (e.g. the pin library);
        `first_frame` is given the display as soon as it is open, before the
        other parts (the table says it is starting while they load)."""
        raise BackendError(f"the {self.name} hardware does not run a configured table")

    def close_ports(self, ports: Ports) -> None:
        raise BackendError(f"the {self.name} hardware does not run a configured table")

    def fake_display(self, screen: tuple[int, int]) -> Display:
        """The fake display alone, to show the first frame on before the rest
        of the fake table loads (give it to `fake_table` after)."""
        raise BackendError(f"the {self.name} hardware has no fake display: use --hardware mock")

    def fake_table(self, seats: int, dealer_reader: bool,
                   screen: tuple[int, int], display: Display | None = None) -> FakeTable:
        """A table of fakes that events files can play on (on `display`, one
        from `fake_display`, if given)."""
        raise BackendError(f"events files play fake hardware; the {self.name} hardware "
                           "is real: use --hardware mock")

    def doctor_parts(self, config: Config) -> DoctorParts:
        """The parts `cardtable doctor` exercises."""
        raise BackendError(f"the {self.name} hardware has nothing for the doctor to check")


# ----- finding them by name -------------------------------------------------------------

def _entries(group: str) -> list[EntryPoint]:
    return list(_installed(group))


@lru_cache(maxsize=4)
def _installed(group: str) -> tuple[EntryPoint, ...]:
    from importlib.metadata import entry_points

    return tuple(sorted(entry_points(group=group), key=lambda ep: ep.name))


#: The distribution this module ships in: its own entry points are looked at
#: first, without reading every installed package's (`_named`).
DISTRIBUTION = "cardtable"


class OwnEntryPoint:
    """One of cardtable's own entry points, read from its installed
    metadata's entry_points.txt (the attributes of `importlib.metadata.EntryPoint`
    that `load_backend` uses)."""

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name, self.value, self.group = name, value, group

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self) -> Any:
        import importlib

        target = importlib.import_module(self.module)
        attrs = self.value.partition(":")[2].partition("[")[0].strip()
        for attr in filter(None, attrs.split(".")):
            target = getattr(target, attr)
        return target


def _own_metadata() -> str | None:
    """The metadata folder of the cardtable distribution that
    `importlib.metadata.distribution("cardtable")` finds (the first on
    sys.path, named as it names them), without importing importlib.metadata."""
    import os

    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except OSError:    # not a folder (a zip file), or gone
            continue
        for child in names:
            low = child.lower()
            stem, dot, suffix = low.rpartition(".")
            # "cardtable-0.1.0.dist-info", "cardtable.egg-info" (a name with a
            # separator, normalized, could never be "cardtable")
            if dot and suffix in ("dist-info", "egg-info") and \
                    stem.partition("-")[0] == DISTRIBUTION:
                return os.path.join(folder, child)
    return None


def own_entry_points(group: str) -> list[OwnEntryPoint] | None:
    """cardtable's own entry points in `group`, read straight from its
    entry_points.txt (importing `importlib.metadata` costs a small Pi more than
    the first frame may take); None when cardtable's metadata is not found."""
    import os

    folder = _own_metadata()
    if folder is None:
        return None
    found: list[OwnEntryPoint] = []
    section = None
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            found.append(OwnEntryPoint(name.strip(), value.strip(), group))
    return found


def _named(group: str, name: str) -> list[Any]:
    """The entry points called `name` in `group`: cardtable's own if it has
    one (read from its entry_points.txt alone), else every installed package's."""
    own = [ep for ep in own_entry_points(group) or [] if ep.name == name]
    return own or [ep for ep in _entries(group) if ep.name == name]


def backend_names() -> list[str]:
    """The names of the installed hardware backends."""
    return [ep.name for ep in _entries(HARDWARE_GROUP)]


def load_backend(name: str) -> Backend:
    """The hardware backend called `name`; `BackendNotInstalled` when no
    installed package provides it."""
    found = _named(HARDWARE_GROUP, name)
    if not found:
        raise BackendNotInstalled(name, backend_names())
    try:
        factory = found[0].load()
    except ModuleNotFoundError as exc:   # its package is gone (a stale installation)
        if exc.name is None or not (found[0].module + ".").startswith(exc.name + "."):
            raise
        raise BackendNotInstalled(name, []) from exc
    backend = factory()
    if not isinstance(backend, Backend):
        raise TypeError(f"the entry point {found[0].value} ({HARDWARE_GROUP}) does not "
                        "give a table.backends.Backend")
    return backend


def extra_commands() -> list[tuple[str, Callable[[Any], None]]]:
    """(name, add_parser) of every command an installed package registers
    (group `cardtable.commands`); one whose own module is not there (a stale
    installation) is left out."""
    out = []
    for ep in _entries(COMMANDS_GROUP):
        try:
            out.append((ep.name, ep.load()))
        except ModuleNotFoundError as exc:
            if exc.name is None or not (ep.module + ".").startswith(exc.name + "."):
                raise
    return out
