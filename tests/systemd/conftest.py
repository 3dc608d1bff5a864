"""systemd's own tools, which these tests run (on files in a temporary root,
never on this machine's services): missing, a test fails under CI and is
skipped elsewhere with the install line (tests/system_programs.py)."""

from __future__ import annotations

import pytest

from tests.system_programs import require_program


@pytest.fixture
def systemd_tools() -> None:
    for tool in ("systemd-analyze", "systemd-sysusers", "systemctl"):
        require_program(tool)
