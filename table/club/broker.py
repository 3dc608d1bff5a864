"""The embedded broker: amqtt, on its own thread and event loop, so a club
can try the room from pip alone (`cardtable hub` with no --broker). A club
runs Mosquitto for real (docs/club.md)."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

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


class EmbeddedBroker:
    """amqtt listening on `host:port` (anonymous, in memory)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 1883) -> None:
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

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
        self._thread = threading.Thread(target=self._main, name="club-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise BrokerError(f"the embedded broker did not start on {self.host}:{self.port}")
        if self._error is not None:
            raise BrokerError(f"the embedded broker cannot listen on {self.host}:{self.port}: "
                              f"{self._error}")

    def _main(self) -> None:
        from amqtt.broker import Broker

        from table.club.amqtt_safe import guard

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}",
                                      "max_connections": 0}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                        {"allow_anonymous": True}},
        }

        async def begin() -> None:
            self._broker = Broker(config, loop=loop)
            guard(self._broker)
            await self._broker.start()

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
            fut = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), loop)
            try:
                fut.result(10)
            except Exception as exc:  # already broken: it is going away anyway
                log.info("embedded broker shutdown: %s", exc)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)
        self._thread = None
        self._loop = None
