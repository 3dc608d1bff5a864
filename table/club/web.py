"""The hub's web service (Starlette, served by uvicorn): the TV scoreboard
at `/`, a phone page per table at `/table/<name>` (its QR code on the TV
page), the news pushed as server-sent events at `/events`, the room as JSON
at `/api/room`."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import escape
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from table.club import pages
from table.club.config import TABLE_NAME
from table.club.room import STANDINGS_BY, members, player_matches
from table.club.service import Hub

#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0
#: Seconds to gather changes before pushing (many tricks a second become one push).
COALESCE = 0.05


class Changes:
    """Wakes the event streams (on the server's loop) when the hub changes
    (on the hub's thread)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None

    def bind(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    def notify(self) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fire)

    def _fire(self) -> None:
        ev, self.event = self.event, asyncio.Event()
        if ev is not None:
            ev.set()


class Site:
    """The pages of one hub."""

    def __init__(self, hub: Hub, *, room_name: str = "Club room", hide_rankings: bool = False,
                 public_url: str | None = None, standings_by: str = "partnership") -> None:
        if standings_by not in STANDINGS_BY:
            raise ValueError(f"standings by {standings_by!r}: choose one of "
                             f"{', '.join(STANDINGS_BY)}")
        self.standings_by = standings_by
        self.hub = hub
        self.room_name = room_name
        self.hide_rankings = hide_rankings
        self.public_url = public_url.rstrip("/") if public_url else None
        self.changes = Changes()
        self._qr: dict[str, bytes] = {}
        self._cache: dict[str, tuple[int, str]] = {}
        self._lock = threading.Lock()
        self._reviews: dict[tuple[str, int, int], str] = {}
        self._review_lock = threading.Lock()

    # ----- rendering (cached per hub version) ------------------------------------------------

    def qr(self, name: str, base: str) -> bytes:
        """The QR code (SVG) of a table's phone page."""
        key = f"{base}|{name}"
        svg = self._qr.get(key)
        if svg is None:
            import io

            import segno

            buf = io.BytesIO()
            segno.make(f"{base}/table/{name}", error="m").save(
                buf, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
            svg = self._qr[key] = buf.getvalue()
        return svg

    def tv(self, base: str) -> tuple[int, str]:
        version, tables, standings = self.hub.snapshot(self.standings_by)
        hit = self._cache.get("tv|" + base)
        if hit is not None and hit[0] == version:
            return hit
        html = pages.tv_fragment(tables, None if self.hide_rankings else standings,
                                 self.standings_by)
        self._cache["tv|" + base] = (version, html)
        return version, html

    def table(self, name: str) -> tuple[int, str] | None:
        with self.hub.lock:
            version = self.hub.version
            t = self.hub.room.tables.get(name)
            if t is None:
                return None
            hit = self._cache.get("t|" + name)
            if hit is not None and hit[0] == version:
                return hit
            html = pages.table_fragment(t.summary(), list(t.matches))
        self._cache["t|" + name] = (version, html)
        return version, html

    def review(self, name: str, match_id: int, hand: int) -> str | None:
        """A finished hand's review page (None: no such hand), worked out on
        the hub once (one at a time: it takes a core for up to a few
        seconds) and kept."""
        key = (name, match_id, hand)
        found = self._reviews.get(key)
        if found is not None:
            return found
        with self.hub.lock:
            t = self.hub.room.tables.get(name)
            got = t.deals.get((match_id, hand)) if t is not None else None
        if got is None:
            return None
        with self._review_lock:
            found = self._reviews.get(key)
            if found is None:
                found = self._reviews[key] = pages.review_page(
                    name, match_id, hand, review_body(*got))
        return found

    def base(self, request: Request) -> str:
        return self.public_url or str(request.base_url).rstrip("/")

    # ----- routes ------------------------------------------------------------------------------

    async def tv_page(self, request: Request) -> Response:
        _, html = self.tv(self.base(request))
        return HTMLResponse(pages.tv_page(html, self.room_name))

    async def table_page(self, request: Request) -> Response:
        name = request.path_params["name"]
        got = self.table(name) if TABLE_NAME.match(name) else None
        if got is None:
            return HTMLResponse(f"<!doctype html><p>No table called {escape(name)} "
                                "has reported to this hub.</p>", status_code=404)
        return HTMLResponse(pages.table_page(name, got[1]))

    async def review_page(self, request: Request) -> Response:
        name = request.path_params["name"]
        match_id, hand = request.path_params["match"], request.path_params["hand"]
        got = (await run_in_threadpool(self.review, name, match_id, hand)
               if TABLE_NAME.match(name) else None)
        if got is None:
            return HTMLResponse(f"<!doctype html><p>No finished hand {hand} of match "
                                f"{match_id} at table {escape(name)}.</p>", status_code=404)
        return HTMLResponse(got)

    async def qr_code(self, request: Request) -> Response:
        name = request.path_params["name"]
        if not TABLE_NAME.match(name):
            return Response("no such table", status_code=404)
        return Response(self.qr(name, self.base(request)), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    async def room_json(self, request: Request) -> Response:
        by = request.query_params.get("by", self.standings_by)
        if by not in STANDINGS_BY:
            return JSONResponse({"error": f"by must be one of {', '.join(STANDINGS_BY)}"},
                                status_code=400)
        version, tables, standings = self.hub.snapshot(by)
        out: dict[str, Any] = {"version": version, "tables": tables}
        if not self.hide_rankings:
            out["standings"] = [vars(s) for s in standings]
        return JSONResponse(out)

    async def players_page(self, request: Request) -> Response:
        if self.hide_rankings:
            return HTMLResponse(pages.players_page([], hidden=True))
        with self.hub.lock:
            rows = self.hub.room.standings("player")
        return HTMLResponse(pages.players_page(rows))

    async def player_page(self, request: Request) -> Response:
        member = request.path_params["member"]
        with self.hub.lock:
            names = members(self.hub.room.tables.values())
            if member not in names or self.hide_rankings:
                found = None
            else:
                played = player_matches(self.hub.room.tables.values(), member)
                rows = [r for r in self.hub.room.standings("player")
                        if r.key_id == f"m:{member}"]
                found = pages.player_page(names[member], played, rows)
        if found is None:
            return HTMLResponse(f"<!doctype html><p>No member {escape(member)} has played "
                                "at this hub.</p>", status_code=404)
        return HTMLResponse(found)

    async def events(self, request: Request) -> Response:
        name = request.query_params.get("table")
        if name is not None and not TABLE_NAME.match(name):
            return Response("no such table", status_code=404)
        base = self.base(request)
        return StreamingResponse(self._stream(request, name, base),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    async def _stream(self, request: Request, name: str | None,
                      base: str) -> AsyncIterator[str]:
        sent = -1
        yield "retry: 1000\n\n"
        while True:
            got = self.tv(base) if name is None else self.table(name)
            if got is not None and got[0] != sent:
                sent = got[0]
                yield f"data: {json.dumps({'version': sent, 'html': got[1]})}\n\n"
            event = self.changes.event
            if event is None:
                return
            if self.hub.version != sent:
                await asyncio.sleep(COALESCE)
                continue
            try:
                await asyncio.wait_for(event.wait(), KEEPALIVE)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                yield ": keep-alive\n\n"
            await asyncio.sleep(COALESCE)

    def app(self) -> Starlette:
        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            self.changes.bind()
            self.hub.on_change = self.changes.notify
            yield
            self.hub.on_change = None
            self.changes.loop = None

        return Starlette(routes=[
            Route("/", self.tv_page),
            Route("/table/{name}", self.table_page),
            Route("/table/{name}/review/{match:int}/{hand:int}", self.review_page),
            Route("/qr/{name}.svg", self.qr_code),
            Route("/events", self.events),
            Route("/api/room", self.room_json),
            Route("/players", self.players_page),
            Route("/player/{member}", self.player_page),
        ], lifespan=lifespan)


def review_body(deal: Any, before: Any) -> str:
    """The review of a finished hand (its deal, the match state before it):
    every card judged with all cards visible (`engine.analysis.review`)."""
    from engine.analysis import SearchLimit, analyse
    from engine.analysis.review import record_of, review_double_dummy
    from engine.errors import EngineError

    try:
        record = record_of(deal, before)
        reviews = review_double_dummy(record)
        start = record.position(record.first)
        best = None
        if not start.trick and all(start.hands) and record.first not in record.skipped:
            try:
                best = analyse(start, values=False, limit=1_000_000).points
            except SearchLimit:
                best = None  # too large to search in time: not shown
        played = tuple(deal.team_points()) if hasattr(deal, "team_points") else ()
    except EngineError as exc:
        return f"<p class=note>This hand cannot be reviewed: {escape(str(exc))}.</p>"
    return pages.review_fragment(record, reviews, best, played)


class WebServer:
    """uvicorn serving a `Site` on its own thread (the hub command, tests)."""

    def __init__(self, site: Site, host: str = "127.0.0.1", port: int = 8080) -> None:
        import uvicorn

        self.host = host
        self.port = port
        config = uvicorn.Config(site.app(), host=host, port=port, log_level="warning",
                                lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> None:
        self._thread = threading.Thread(target=self.server.run, name="club-web", daemon=True)
        self._thread.start()
        import time

        end = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > end:
                raise RuntimeError(f"the web server did not start on {self.host}:{self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
