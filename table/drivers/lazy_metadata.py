"""gpiozero imported without `importlib.metadata`, which it does not use here.

gpiozero 2 imports `entry_points` when it is imported (`gpiozero.devices`,
`gpiozero.pins.mock`: `try: from importlib_metadata import entry_points /
except ImportError: from importlib.metadata import entry_points`), to look up
a pin factory or a mock pin class named by a string. The table never names
them by string: it builds the pin factory itself (`make_pin_factory`). Yet
loading `importlib.metadata` (with `email`, `zipfile`, `csv`...) costs
≈ 50 ms of CPU here on its own; without it gpiozero and its mock pins load
in ≈ 79 ms instead of ≈ 105 ms (gpiozero needs part of what it loads
anyway): a third of a second on a Pi Zero 2 W before the buttons answer.

`import_quietly(name)` imports `name` (gpiozero or one of its modules) with a
stand-in for the optional `importlib_metadata` package in `sys.modules`: a
module whose every attribute, `entry_points` first, is the standard
library's `importlib.metadata` one, loaded the first time it is used. So
gpiozero takes the stand-in's `entry_points`, which behaves exactly as the
real one when gpiozero does call it (an environment's
`GPIOZERO_PIN_FACTORY`, a `pin_class` given by name). The stand-in is taken
out of `sys.modules` again as soon as the import is done, and it is never
put there when a real `importlib_metadata` is installed or already loaded,
or when `importlib.metadata` is already loaded (nothing to save then).
Whoever else imports `importlib_metadata` in that moment (another thread)
gets the stand-in, which is the standard library's module to them too
(`from importlib_metadata import version` works: PEP 562's `__getattr__`).
"""

from __future__ import annotations

import importlib
import sys
import types
from importlib.util import find_spec
from typing import Any

__all__ = ["STAND_IN", "import_quietly", "stand_in"]

#: The name gpiozero tries first; the stand-in takes it only while gpiozero loads.
STAND_IN = "importlib_metadata"


def _delegate(name: str) -> Any:
    if name.startswith("__"):   # not a package, no path, no spec of its own
        raise AttributeError(name)
    import importlib.metadata

    return getattr(importlib.metadata, name)


def entry_points(**params: Any) -> Any:
    """`importlib.metadata.entry_points`, the standard library loaded now."""
    return _delegate("entry_points")(**params)


def stand_in() -> types.ModuleType:
    """A module that is `importlib.metadata` to whoever uses it, loaded only
    when an attribute is first asked for."""
    module = types.ModuleType(STAND_IN, "importlib.metadata, loaded when first used "
                              "(table.drivers.lazy_metadata)")
    setattr(module, "entry_points", entry_points)  # noqa: B010 - a new module's attributes
    setattr(module, "__getattr__", _delegate)      # noqa: B010 - PEP 562
    return module


def _can_stand_in() -> bool:
    if STAND_IN in sys.modules or "importlib.metadata" in sys.modules:
        return False
    try:
        return find_spec(STAND_IN) is None
    except (ImportError, ValueError):
        return False


def import_quietly(name: str) -> types.ModuleType:
    """`importlib.import_module(name)`, with the stand-in in place while a
    module of gpiozero that is not loaded yet is imported (see the module's
    docstring)."""
    if name in sys.modules or not _can_stand_in():
        return importlib.import_module(name)
    module = stand_in()
    sys.modules[STAND_IN] = module
    try:
        return importlib.import_module(name)
    finally:
        if sys.modules.get(STAND_IN) is module:
            del sys.modules[STAND_IN]
