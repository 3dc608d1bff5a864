"""The hub's pages in a real browser (Debian's Chromium, headless, driven
by Playwright): the scoreboard shows the room's numbers, updates without a
reload, the phone page shows finished hands only, and the TV page matches
its golden image.

The golden image is regenerated, after a deliberate change of the page, with

    CARDTABLE_GOLDEN=update python -m pytest tests/club/test_browser.py

(look at it, and commit it).
"""

from __future__ import annotations

import io
import os
import random
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from hw_mocks.simulator.club import club_settings, make_tables, play
from hw_mocks.simulator.driver import SimTable
from table.club.config import parse_broker
from table.club.service import Hub
from table.club.store import SqliteStore
from table.club.topics import Entry
from table.club.web import Site, WebServer
from table.controller.loop import JOURNAL_FILE
from table.journal import Journal
from tests.club.services import Amqtt, HubRunner, free_port, wait_until
from tests.system_programs import require_program

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CARDTABLE_GOLDEN") == "update"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    chromium = require_program("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield b
        b.close()


def bot_journals(folder: Path, tables: int, moves: int, seed: int,
                 rng: random.Random) -> dict[str, list[Entry]]:
    """The journals of bot tables (no network), as the hub would get them."""
    sims = [SimTable(club_settings(i), seed=seed + i, state_dir=folder / f"j{i}")
            for i in range(tables)]
    for _ in range(moves):
        sim = rng.choice(sims)
        if sim.match is None or sim.state == "ready":
            sim.start()
        else:
            sim.advance()
    out = {}
    for i, sim in enumerate(sims):
        j = Journal(sim.rig.state_dir / JOURNAL_FILE)
        out[f"table-{i + 1}"] = [Entry(f"table-{i + 1}", e.seq, e.kind, e.data)
                                 for e in j.entries()]
        j.close()
        sim.close()
    return out


def numbers(page: object) -> dict[str, dict[str, str]]:
    """Each table's numbers as the page shows them."""
    out = {}
    for card in page.query_selector_all(".t"):  # type: ignore[attr-defined]
        name = card.get_attribute("data-table")
        out[name] = {el.get_attribute("data-k"): el.inner_text()
                     for el in card.query_selector_all("[data-k]")}
    return out


def test_the_scoreboard_shows_the_room_and_updates_without_a_reload(browser, amqtt: Amqtt,
                                                                   tmp_path: Path):
    runner = HubRunner(tmp_path, amqtt.url(), web=True)
    runner.start()
    tables = make_tables(parse_broker(amqtt.url()), 2, state_root=tmp_path)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        play(tables, 120, rng=random.Random(5))
        for t in tables:
            assert t.publisher.wait_confirmed(t.seq, 15)
        page.goto(runner.url)
        page.evaluate("window.notReloaded = true")

        def shown_as_tables() -> bool:
            seen = numbers(page)
            for t in tables:
                match = t.sim.match
                hand = match.hand
                want_hands = str(hand.number - 1 if hand is not None else len(
                    runner.hub.room.tables[t.name].matches[-1].hands))
                if seen.get(t.name, {}).get("hands") != want_hands:
                    return False
                deal = hand.flow.deal if hand is not None and hand.flow else None
                if deal is not None and seen[t.name].get("trick") != str(len(deal.tricks)):
                    return False
            return True

        wait_until(shown_as_tables, 5, "the page to show each table's hands and trick")
        version = page.evaluate("document.body.dataset.version")
        before = numbers(page)
        # another trick at table-1: the page follows by itself
        t1 = tables[0]
        target = len(t1.sim.match.hand.flow.deal.tricks) + 1 if t1.sim.match.hand else 1
        for _ in range(20):
            t1.step()
            hand = t1.sim.match.hand
            if hand is None or hand.flow is None or hand.flow.deal is None \
                    or len(hand.flow.deal.tricks) >= target:
                break
        wait_until(shown_as_tables, 5, "the page to follow the new trick")
        assert numbers(page) != before
        assert page.evaluate("document.body.dataset.version") != version
        assert page.evaluate("window.notReloaded") is True
        # standings as the hub computes them, in order
        rows = page.query_selector_all(".standings tr[data-team]")
        hub_rows = runner.hub.snapshot()[2]
        assert [r.get_attribute("data-team") for r in rows] == [s.name for s in hub_rows]
        assert [r.query_selector("[data-k=points]").inner_text() for r in rows] == \
            [str(s.points) for s in hub_rows]
    finally:
        page.close()
        for t in tables:
            t.close()
        runner.stop()


def test_the_phone_page_shows_finished_hands_never_the_hand_in_play(browser, amqtt: Amqtt,
                                                                   tmp_path: Path):
    runner = HubRunner(tmp_path, amqtt.url(), web=True)
    runner.start()
    (t,) = make_tables(parse_broker(amqtt.url()), 1, state_root=tmp_path)
    page = browser.new_page(viewport={"width": 400, "height": 800})
    try:
        while t.sim.match is None or t.sim.match.hand is None or t.sim.match.hand.number < 2 \
                or len(t.sim.match.hand.actions) < 6:
            t.step()
        assert t.publisher.wait_confirmed(t.seq, 15)
        page.goto(runner.url)                       # the TV page: its QR code leads there
        qr = page.query_selector(f".t[data-table='{t.name}'] .qr img")
        wait_until(lambda: qr.evaluate("i => i.complete && i.naturalWidth > 100"), 5,
                   "the QR code to load")
        page.click(f".t[data-table='{t.name}'] .qr a")
        assert page.url == f"{runner.url}/table/{t.name}"
        wait_until(lambda: page.query_selector("details[data-hand='1']") is not None, 5)
        assert len(page.query_selector_all("details")) == 1
        page.click("details[data-hand='1'] summary")
        text = page.inner_text("#table")
        assert re.search(r"hand 2, trick \d+/8", text)
        played_now = [f"{a.seat + 1}:{a.card.code}" for a in t.sim.match.hand.actions
                      if a.card is not None and a.event.kind == "played"]
        first = [s.inner_text() for s in page.query_selector_all("details span")]
        assert len(first) == 32                      # hand 1: every card, trick by trick
        assert not set(played_now) & set(text.split())
    finally:
        page.close()
        t.close()
        runner.stop()


def test_rankings_can_be_hidden(browser, amqtt: Amqtt, tmp_path: Path):
    runner = HubRunner(tmp_path, amqtt.url(), web=True, hide_rankings=True)
    runner.start()
    page = browser.new_page()
    try:
        page.goto(runner.url)
        assert "Hidden for the last rounds" in page.inner_text(".standings")
        assert page.query_selector_all(".standings tr") == []
    finally:
        page.close()
        runner.stop()


def test_the_tv_page_matches_its_golden_image(browser, tmp_path: Path):
    """A room of three tables after a fixed session (seeded bots), no network."""
    store = SqliteStore(tmp_path / "hub.sqlite")
    for entries in bot_journals(tmp_path, 3, 160, seed=3, rng=random.Random(11)).values():
        store.add(entries)
    hub = Hub(store, parse_broker("mqtt://127.0.0.1:9"))
    site = Site(hub, room_name="Club room", public_url="http://club.local:8080")
    server = WebServer(site, "127.0.0.1", free_port())
    server.start()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.version !== undefined && "
                               "[...document.images].every(i => i.complete && i.naturalWidth)")
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    finally:
        page.close()
        server.stop()
        store.close()
    path = GOLDEN / "tv.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        shot.save(path)
        warnings.warn(f"golden image written: {path}", stacklevel=1)
        return
    want = Image.open(path).convert("RGB")
    diff = ImageChops.difference(want, shot).getbbox()
    if diff is not None:
        shot.save(tmp_path / "tv.png")
    assert diff is None, (f"the TV page differs from {path} in {diff}; the page is in "
                          f"{tmp_path / 'tv.png'}. If the change is meant, run "
                          "CARDTABLE_GOLDEN=update python -m pytest tests/club/test_browser.py")
