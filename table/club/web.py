"""The hub's web service (Starlette, served by uvicorn): the TV scoreboard
at `/`, a phone page per table at `/table/<name>` (its QR code on the TV
page), the news pushed as server-sent events at `/events`, the room as JSON
at `/api/room`, whether the hub is storing at `/health`.

Bounded whatever the clients do: each page is rendered once per change of
the room, in a worker thread, and that one rendering is what every event
stream sends (`Site.shared`); at most `MAX_STREAMS` streams are open at once;
the caches hold only what exists (known tables) and at most `CACHE` entries
each, and the QR codes are made for the configured public address (a Host
header a client makes up is never kept beyond a small cache)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
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
#: Event streams open at once, at most (a TV and a phone per player is far fewer).
MAX_STREAMS = 2000
#: Entries kept in each cache (QR codes of other addresses, reviews), at most.
CACHE = 256


class Lru(OrderedDict[Any, Any]):
    """A dict that keeps at most `size` entries, dropping the least recently used."""

    def __init__(self, size: int = CACHE) -> None:
        super().__init__()
        self.size = size

    def get(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


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
        #: QR codes of the public address, by table name (bounded by the tables).
        self._qr: dict[str, bytes] = {}
        #: QR codes of other addresses (no public address configured), a few.
        self._qr_other = Lru(CACHE)
        self._cache: dict[str, tuple[int, str]] = {}
        self._reviews = Lru(CACHE)
        self._review_lock = threading.Lock()
        #: Renderings under way, by page: every stream waits for the same one.
        self._rendering: dict[str, asyncio.Future[tuple[int, str] | None]] = {}
        #: Event streams open now.
        self.streams = 0

    # ----- rendering (cached per hub version) ------------------------------------------------

    def qr(self, name: str, base: str) -> bytes:
        """The QR code (SVG) of a table's phone page."""
        mine = base == self.public_url
        svg = self._qr.get(name) if mine else self._qr_other.get((base, name))
        if svg is None:
            import io

            import segno

            buf = io.BytesIO()
            segno.make(f"{base}/table/{name}", error="m").save(
                buf, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
            svg = buf.getvalue()
            if mine:
                self._qr[name] = svg
            else:
                self._qr_other.put((base, name), svg)
        return svg

    def _fresh(self, key: str) -> tuple[int, str] | None:
        hit = self._cache.get(key)
        return hit if hit is not None and hit[0] == self.hub.version else None

    def tv(self, base: str = "") -> tuple[int, str]:
        """The TV page's room (the same for every address: its QR codes are
        relative links)."""
        hit = self._fresh("tv")
        if hit is not None:
            return hit
        version, tables, standings = self.hub.snapshot(self.standings_by)
        html = pages.tv_fragment(tables, None if self.hide_rankings else standings,
                                 self.standings_by)
        self._cache["tv"] = (version, html)
        return version, html

    def table(self, name: str) -> tuple[int, str] | None:
        hit = self._fresh("t|" + name)
        if hit is not None:
            return hit
        with self.hub.lock:
            version = self.hub.version
            t = self.hub.room.tables.get(name)
            if t is None:
                return None
            html = pages.table_fragment(t.summary(), list(t.matches))
        self._cache["t|" + name] = (version, html)
        return version, html

    async def shared(self, key: str,
                     render: Callable[[], tuple[int, str] | None]) -> tuple[int, str] | None:
        """The page `key` as of now, rendered once (in a worker thread) however
        many streams ask for it at the same time."""
        hit = self._fresh(key)
        if hit is not None:
            return hit
        task = self._rendering.get(key)
        if task is None:
            # a task of its own: a stream that goes away does not cancel it for the others
            task = self._rendering[key] = asyncio.ensure_future(run_in_threadpool(render))
            task.add_done_callback(lambda _t: self._rendering.pop(key, None))
        return await asyncio.shield(task)

    def review(self, name: str, match_id: int, hand: int) -> str | None:
        """A finished hand's review page (None: no such hand), worked out on
        the hub once (one at a time: it takes a core for up to a few
        seconds) and kept (the last `CACHE` reviews)."""
        with self.hub.lock:
            t = self.hub.room.tables.get(name)
            got = t.deals.get((match_id, hand)) if t is not None else None
            journal = t.journal if t is not None else ""
        if got is None:
            return None
        key = (name, journal, match_id, hand)
        found: str | None = self._reviews.get(key)
        if found is not None:
            return found
        with self._review_lock:
            found = self._reviews.get(key)
            if found is None:
                found = pages.review_page(name, match_id, hand, review_body(*got))
                self._reviews.put(key, found)
        return found

    def base(self, request: Request) -> str:
        return self.public_url or str(request.base_url).rstrip("/")

    # ----- routes ------------------------------------------------------------------------------

    async def tv_page(self, request: Request) -> Response:
        got = await self.shared("tv", self.tv)
        assert got is not None
        return HTMLResponse(pages.tv_page(got[1], self.room_name))

    async def table_page(self, request: Request) -> Response:
        name = request.path_params["name"]
        got = (await self.shared("t|" + name, lambda: self.table(name))
               if TABLE_NAME.match(name) else None)
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
        with self.hub.lock:
            known = name in self.hub.room.tables
        if not TABLE_NAME.match(name) or not known:
            return Response("no such table", status_code=404)
        base = self.base(request)
        if len(base) > 200:
            return Response("the address is too long for a QR code", status_code=400)
        svg = await run_in_threadpool(self.qr, name, base)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    async def health(self, request: Request) -> Response:
        """Whether the hub is storing (200) or not (503), with its counts."""
        out = self.hub.health()
        out["streams"] = self.streams
        return JSONResponse(out, status_code=200 if out["storing"] else 503,
                            headers={"Cache-Control": "no-cache"})

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
            every = self.hub.room.every_table()
            names = members(every)
            if member not in names or self.hide_rankings:
                found = None
            else:
                played = player_matches(every, member)
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
        if self.streams >= MAX_STREAMS:
            return Response("too many open streams; try again", status_code=503,
                            headers={"Retry-After": "10"})
        return StreamingResponse(self._stream(request, name),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    async def _stream(self, request: Request, name: str | None) -> AsyncIterator[str]:
        self.streams += 1
        try:
            async for chunk in self._news(request, name):
                yield chunk
        finally:
            self.streams -= 1

    async def _news(self, request: Request, name: str | None) -> AsyncIterator[str]:
        sent = -1
        key = "tv" if name is None else "t|" + name
        render: Callable[[], tuple[int, str] | None] = \
            self.tv if name is None else (lambda: self.table(name))
        yield "retry: 1000\n\n"
        while True:
            got = await self.shared(key, render)
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
            Route("/health", self.health),
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
