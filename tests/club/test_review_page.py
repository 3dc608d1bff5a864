"""A finished hand's review on the table's phone page, worked out on the hub
(`table.club.web.Site.review`), in a real browser (Chromium via Playwright,
as tests/club/test_browser.py): the link under each finished hand opens the
hand card by card, with the cards that cost points marked."""

from __future__ import annotations

import random
from pathlib import Path

from engine.analysis.review import record_of, review_double_dummy
from table.club.config import parse_broker
from table.club.service import Hub
from table.club.store import SqliteStore
from table.club.web import Site, WebServer
from tests.club.services import free_port
from tests.club.test_browser import bot_journals, browser  # noqa: F401 (the fixture)


def _room(tmp_path: Path) -> tuple[SqliteStore, Hub]:
    store = SqliteStore(tmp_path / "hub.sqlite")
    for entries in bot_journals(tmp_path, 1, 90, seed=5, rng=random.Random(5)).values():
        store.add(entries)
    return store, Hub(store, parse_broker("mqtt://127.0.0.1:9"))


def test_the_review_of_a_finished_hand_marks_the_cards_that_cost_points(browser, tmp_path):  # noqa: F811
    store, hub = _room(tmp_path)
    room = hub.room.tables["table-1"]
    (match_id, number), (deal, before) = next(iter(room.deals.items()))
    expected = review_double_dummy(record_of(deal, before))
    server = WebServer(Site(hub), "127.0.0.1", free_port())
    server.start()
    page = browser.new_page(viewport={"width": 400, "height": 800})
    try:
        page.goto(f"{server.url}/table/table-1")
        page.wait_for_selector(f"details[data-hand='{number}']")
        page.click(f"details[data-hand='{number}'] summary")
        page.click(f"details[data-hand='{number}'] a.review")
        page.wait_for_selector("table.review")
        assert page.url == f"{server.url}/table/table-1/review/{match_id}/{number}"
        cells = page.query_selector_all("table.review td[data-play]")
        assert len(cells) == 32                         # every card of the hand
        costly = {int(c.get_attribute("data-play")) for c in cells
                  if c.get_attribute("class") == "cost"}
        assert costly == {r.index for r in expected if r.flagged}
        text = page.inner_text("body")
        assert "worked out on the club's hub" in text
        points = deal.team_points()
        assert f"Played: 1 + 3 {points[0]}, 2 + 4 {points[1]}." in text
        if costly:
            listed = page.query_selector_all("ul.flagged li")
            assert len(listed) == len(costly)
            assert "given away" in listed[0].inner_text()
        else:
            assert "No card cost a point." in text
        # back to the table's page
        page.click("text=Back to the table")
        assert page.url == f"{server.url}/table/table-1"
    finally:
        page.close()
        server.stop()
        store.close()


def test_a_hand_that_is_not_there_is_a_clear_404(tmp_path):
    import urllib.error
    import urllib.request

    store, hub = _room(tmp_path)
    server = WebServer(Site(hub), "127.0.0.1", free_port())
    server.start()
    try:
        for path, words in (("/table/table-1/review/1/99", "No finished hand 99 of match 1"),
                            ("/table/nobody/review/1/1", "at table nobody"),
                            ("/table/table-1/review/x/1", "Not Found")):
            try:
                urllib.request.urlopen(server.url + path, timeout=10)
                raise AssertionError(f"{path} answered")
            except urllib.error.HTTPError as exc:
                assert exc.code == 404
                assert words in exc.read().decode()
    finally:
        server.stop()
        store.close()
