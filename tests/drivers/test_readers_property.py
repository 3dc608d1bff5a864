"""Both readers' drivers (direct SPI, and the hub firmware run under CPython)
on the harsh emulator: random sequences of cards placed, lifted, slid to
the next seat or left lying between two seats, with noise, lost and garbled
answers, collisions with errors, detuning and slow power-up at seeded
rates. After each move, what each driver reports per seat must match the
truth within BOUND polls and keep matching: every card lying squarely on a
seat reported there, and no card reported where it does not lie (a card
lying between two seats may be reported at either, both or neither).

The suite runs a few dozen sequences per driver (each poll is a few
hundred emulated register accesses); bench/readers_soak.py runs thousands.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hw_mocks.mfrc522 import Harsh
from tests.drivers.reader_rigs import BOUND, MOVES, RIGS, SEATS, STEADY, UIDS, Table

moves = st.lists(
    st.tuples(st.sampled_from(MOVES),
              st.sampled_from(UIDS), st.integers(0, SEATS - 1), st.integers(0, 4)),
    min_size=1, max_size=8)


@pytest.fixture(autouse=True)
def _quiet():
    logging.disable(logging.WARNING)  # readers going offline would be a failure anyway
    yield
    logging.disable(logging.NOTSET)
    logging.getLogger("mfrc522Logger").handlers.clear()


@pytest.mark.parametrize("kind", sorted(RIGS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), sequence=moves)
def test_the_reported_cards_converge_to_the_truth_on_a_harsh_table(kind, seed, sequence):
    rig = RIGS[kind](SEATS, Harsh(seed=seed))
    try:
        table = Table(rig)
        for move in sequence:
            polls = table.play(move)
            assert polls <= BOUND, f"after {move}: {table.describe()}"
            for _ in range(STEADY):
                table.poll()
                assert table.matches(), f"{move}, steady: {table.describe()}"
        assert not [s for s in table.said if s[0] in ("offline", "back")]
    finally:
        rig.close()
