"""System programs some tests need (they come from the OS, not pip).

A test that needs one calls :func:`require_program`. Under CI (``CI=true``) a
missing program is a failure, never a silent pass; elsewhere the test is
skipped with the exact install line in its reason. ``tests/install_system_deps.sh``
installs all of them on Debian/Ubuntu.
"""

from __future__ import annotations

import os
import shutil

import pytest

#: program -> the Debian/Ubuntu package that provides it
PACKAGES: dict[str, str] = {
    "gcc": "gcc",
    "mosquitto": "mosquitto",
    "mosquitto_passwd": "mosquitto",
    "openssl": "openssl",
    "initdb": "postgresql",
    "pg_ctl": "postgresql",
    "chromium": "chromium",
    "chromedriver": "chromium-driver",
    "espeak-ng": "espeak-ng",
    "sox": "sox",
    "aplay": "alsa-utils",
    "systemd-analyze": "systemd",
    "systemd-sysusers": "systemd",
    "systemctl": "systemd",
    "taskset": "util-linux",
}


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def find_program(name: str, *alternatives: str) -> str | None:
    for candidate in (name, *alternatives):
        path = shutil.which(candidate)
        if path is None and candidate == "mosquitto":
            path = shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
        if path:
            return path
    return None


def require_program(name: str, *alternatives: str) -> str:
    """The path of ``name`` (or one of ``alternatives``); fail under CI, skip elsewhere."""
    path = find_program(name, *alternatives)
    if path:
        return path
    package = PACKAGES.get(name, name)
    reason = (f"needs the system program {name!r}: sudo apt-get install {package} "
              "(or run bash tests/install_system_deps.sh)")
    if under_ci():
        pytest.fail(reason)
    pytest.skip(reason)
