"""The embedded broker: amqtt, on its own thread and event loop, behind the
gate that checks every client's credentials (`table.club.gate`), so that
`cardtable hub` with no --broker is a room with a user per table, an ACL
and TLS from pip alone. A club may run Mosquitto instead (docs/club.md)."""

from __future__ import annotations

import asyncio
import logging
import ssl
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.club import credentials
from table.club.config import Broker
from table.club.credentials import CredentialError, PasswordFile
from table.club.gate import Gate, Limits, Live, RateLimitedLog

log = logging.getLogger("cardtable.hub")


def port_problem(host: str, port: int) -> str | None:
    """Why nothing could listen on host:port (taken, not allowed), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        if exc.errno == 98:
            return "the port is taken (another broker, or another hub, is running)"
        return exc.strerror or str(exc)
    return None


class _NoTraceback(logging.Filter):
    """amqtt logs a client's slow acknowledgement with a traceback: keep the
    line, drop the traceback (the service log shows no traceback for what
    is expected)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


class BrokerError(RuntimeError):
    """The embedded broker cannot start (the port is taken, amqtt missing)."""


@dataclass(frozen=True)
class Tls:
    """The embedded broker's certificate and private key (PEM files)."""

    certfile: Path
    keyfile: Path

    def context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            ctx.load_cert_chain(str(self.certfile), str(self.keyfile))
        except FileNotFoundError as exc:
            raise BrokerError(f"no such file: {exc.filename}") from None
        except (ssl.SSLError, OSError) as exc:
            raise BrokerError(f"the certificate {self.certfile} and key {self.keyfile} "
                              f"cannot be used: {exc}") from None
        return ctx


def raise_file_limit(want: int = 65536) -> int:
    """Raise this process's open-file limit towards `want` (as far as the
    hard limit allows); the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else want


class EmbeddedBroker:
    """amqtt listening on `host:port` (TLS with `tls`), in memory, behind
    the gate (`table.club.gate`): with `users` (the password file) only the
    hub and the tables of that file get in, each to its own topics; without,
    it is open to anyone (to try things on one computer).

    The hub of the same process connects by a door of its own (`hub_broker`:
    127.0.0.1, a port of the system's choosing, a password made at start and
    never written down), so a flood of connections at the club's port never
    keeps the hub out."""

    def __init__(self, host: str = "127.0.0.1", port: int = 1883, *,
                 users: PasswordFile | None = None, tls: Tls | None = None,
                 limits: Limits | None = None) -> None:
        self.host = host
        self.port = port
        self.users = users
        self.tls = tls
        self.limits = limits or Limits()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._servers: list[asyncio.base_events.Server] = []
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._hub_secret = credentials.new_secret()
        self._hub_users = {credentials.HUB_USER: credentials.hash_password(self._hub_secret)}
        self._hub_port = 0
        self.gate: Gate | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @property
    def hub_broker(self) -> Broker:
        """Where and how the hub of this process connects (after `start`)."""
        if self.users is None:
            return Broker("127.0.0.1", self._hub_port)
        return Broker("127.0.0.1", self._hub_port, username=credentials.HUB_USER,
                      password=self._hub_secret)

    def start(self, timeout: float = 10.0) -> None:
        try:
            import amqtt.broker  # type: ignore[import-untyped]  # noqa: F401
        except ModuleNotFoundError:
            raise BrokerError("the embedded broker needs amqtt: pip install "
                              "'cardtable[club]', or give a broker with --broker") from None
        problem = port_problem(self.host, self.port)
        if problem is not None:
            raise BrokerError(f"the embedded broker cannot listen on {self.host}:{self.port}: "
                              f"{problem}")
        ssl_context = self.tls.context() if self.tls is not None else None
        if self.users is not None:
            try:
                self.users.users()
            except CredentialError as exc:
                raise BrokerError(str(exc)) from None
        files = raise_file_limit()
        if self.limits.total > files - 64:
            log.warning("broker: %d connections allowed but only %d open files: at most %d",
                        self.limits.total, files, files - 64)
            self.limits = Limits(max(files - 64, 1), self.limits.per_address)
        for name in ("amqtt", "transitions"):
            logger = logging.getLogger(name)
            logger.setLevel(logging.WARNING)
            if not any(isinstance(h.filters[0] if h.filters else None, _NoTraceback)
                       for h in logger.handlers):
                handler = logging.StreamHandler()
                handler.addFilter(_NoTraceback())
                handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
                logger.addHandler(handler)
                logger.propagate = False
        self._thread = threading.Thread(target=self._main, args=(ssl_context,),
                                        name="club-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise BrokerError(f"the embedded broker did not start on {self.host}:{self.port}")
        if self._error is not None:
            raise BrokerError(f"the embedded broker cannot listen on {self.host}:{self.port}: "
                              f"{self._error}")

    def _file_users(self) -> dict[str, str] | None:
        return None if self.users is None else self.users.users()

    def _main(self, ssl_context: ssl.SSLContext | None) -> None:
        from amqtt.adapters import StreamWriterAdapter  # type: ignore[import-untyped]  # amqtt: no stubs

        from table.club.amqtt_plugins import CardtableBroker
        from table.club.amqtt_safe import guard

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(_quiet_accept_errors)
        opened = self.users is None
        config = {
            "listeners": {"default": {"type": "external", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"table.club.amqtt_plugins.CardtableAuth": {"open": opened},
                        "table.club.amqtt_plugins.CardtableAcl": {"open": opened}},
        }

        async def pass_on(first: bytes, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
            await self._broker.external_connected(_replay_reader(first, reader),
                                                  StreamWriterAdapter(writer), "default")

        async def begin() -> None:
            self._broker = CardtableBroker(config, loop=loop, open_to_all=opened)
            guard(self._broker)
            await self._broker.start()
            live: dict[str, Live] = {}
            self.gate = Gate(self._file_users, pass_on, limits=self.limits, live=live)
            hub_users = None if opened else self._hub_users
            door = Gate(lambda: hub_users, pass_on, live=live,
                        only=None if opened else credentials.HUB_USER)
            self._servers.append(await asyncio.start_server(
                self.gate.handle, self.host, self.port, ssl=ssl_context, reuse_address=True,
                backlog=256))
            hub_server = await asyncio.start_server(door.handle, "127.0.0.1", 0)
            self._servers.append(hub_server)
            self._hub_port = int(hub_server.sockets[0].getsockname()[1])

        try:
            loop.run_until_complete(begin())
        except BaseException as exc:  # amqtt wraps the socket's error
            self._error = exc.__cause__ or exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    def stop(self) -> None:
        loop = self._loop
        if loop is None or self._thread is None:
            return
        if self._broker is not None and self._error is None:
            async def end() -> None:
                for server in self._servers:
                    server.close()
                await self._broker.shutdown()

            fut = asyncio.run_coroutine_threadsafe(end(), loop)
            try:
                fut.result(10)
            except Exception as exc:  # already broken: it is going away anyway
                log.info("embedded broker shutdown: %s", exc)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)
        self._thread = None
        self._loop = None
        self._servers = []


_accept_log = RateLimitedLog()


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's errors in one rate-limited line, never a traceback (an
    accept() out of files would log one per connection attempt)."""
    exc = context.get("exception")
    detail = context.get("message", "")
    if exc is not None:
        detail = f"{detail}: {type(exc).__name__}: {exc}"
    _accept_log.refused("a connection (the broker's loop)", detail)


def _replay_reader(first: bytes, reader: asyncio.StreamReader) -> Any:
    """amqtt's reader for a connection whose CONNECT the gate has read
    already: those bytes first, then the socket."""
    from amqtt.adapters import ReaderAdapter

    class Replay(ReaderAdapter):  # type: ignore[misc]  # amqtt: no stubs
        def __init__(self) -> None:
            self._first = first

        async def read(self, n: int = -1) -> bytes:
            head = self._first
            if head:
                if 0 <= n <= len(head):
                    self._first = head[n:]
                    return head[:n]
                self._first = b""
                rest = await (reader.read() if n < 0 else reader.readexactly(n - len(head)))
                return head + rest
            return await (reader.read() if n < 0 else reader.readexactly(n))

        def feed_eof(self) -> None:
            reader.feed_eof()

    return Replay()
