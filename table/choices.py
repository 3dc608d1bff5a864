"""The few names the command line offers before anything else is loaded:
the languages of the screen and the ways a table learns the hands.

Kept apart from `table.settings` (dataclasses and the settings' checks) so
that `cardtable run` can build its parser and put its first frame on the
screen without loading them; `table.settings` takes them from here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

KNOWLEDGE_MODES: tuple[str, ...] = ("scan", "dealt", "open")
LANGUAGES: tuple[str, ...] = ("en", "ro", "hu")
#: The language of the screen when the configuration names none.
DEFAULT_LANGUAGE = "en"
#: The display's size in pixels when the configuration names none.
DEFAULT_SCREEN: tuple[int, int] = (128, 64)
#: The [display] keys the first frame needs, with the defaults the
#: configuration gives them (`table.config.DisplayConfig` takes them from here).
DISPLAY_DEFAULTS: dict[str, str | int] = {
    "driver": "ssd1306", "interface": "i2c", "width": 128, "height": 64, "rotate": 0,
    "contrast": 0xCF, "i2c_port": 1, "i2c_address": 0x3C,
}
#: The configuration file read when none is named, and the variable that names one.
CONFIG_PATH = "/etc/cardtable/config.toml"
CONFIG_ENV = "CARDTABLE_CONFIG"


def config_file(path: str | os.PathLike[str] | None = None,
                env: Mapping[str, str] | None = None) -> tuple[str, bool]:
    """The configuration file to read and whether it was asked for
    explicitly: `path` (from --config), else $CARDTABLE_CONFIG, else
    `CONFIG_PATH`."""
    env = os.environ if env is None else env
    if path is not None and str(path) != "":
        return os.fspath(path), True
    if env.get(CONFIG_ENV):
        return env[CONFIG_ENV], True
    return CONFIG_PATH, False
