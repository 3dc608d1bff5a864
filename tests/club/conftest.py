from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.club.services import Amqtt


@pytest.fixture
def amqtt() -> Iterator[Amqtt]:
    broker = Amqtt()
    broker.start()
    yield broker
    broker.stop()
