"""The hub firmware's scenarios run twice: `hub` gives (hub, board, port)
under CPython and under the real MicroPython (tests/firmware/hubs.py)."""

from __future__ import annotations

import pytest

from hw_mocks.mfrc522.pico import PicoBoard

from .hubs import INTERPRETERS, make_hub


@pytest.fixture(params=INTERPRETERS)
def interpreter(request):
    return request.param


@pytest.fixture
def hub(interpreter, request):
    board = PicoBoard(channels=3)
    h, port = make_hub(interpreter, board, request)
    return h, board, port
