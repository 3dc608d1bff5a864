"""The door of the embedded broker: every TCP (or TLS) connection comes in
here before amqtt sees a byte of it.

The gate counts connections (in all and per address: 1,100 idle sockets
from one phone are refused, not queued until the process runs out of
files), reads the client's CONNECT packet within a few seconds, and lets
it through only with a known user, the right password and the client id
bound to that user (`table.club.credentials`). amqtt acts on a CONNECT's
client id before it asks who is connecting (a clean session wipes the
session of that id, and with it the hub's subscriptions), so the check
must come first. A client whose id is connected already takes the place of
the old connection, which the gate closes first and waits for amqtt to let
go of (amqtt would keep the old one alive, deaf, on a session it deleted).
A refused client gets the CONNACK that says why and the
connection is closed; the log gets one line per reason every few seconds,
with the count.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from table.club import credentials

log = logging.getLogger("cardtable.hub")

#: Seconds a new connection has to send its CONNECT.
CONNECT_TIMEOUT = 5.0
#: The largest CONNECT accepted (client id, will, user and password fit in far less).
MAX_CONNECT = 4096
#: CONNACK return codes (MQTT 3.1.1).
BAD_PROTOCOL, BAD_CLIENT_ID, BAD_CREDENTIALS, NOT_AUTHORIZED = 1, 2, 4, 5


@dataclass(frozen=True)
class Limits:
    """At most `total` connections at once, `per_address` from one address."""

    total: int = 400
    per_address: int = 16


class Refusal(Exception):
    """Why a CONNECT is not let through (its CONNACK code and the log's words)."""

    def __init__(self, code: int | None, why: str) -> None:
        super().__init__(why)
        self.code = code
        self.why = why


@dataclass(frozen=True)
class Connect:
    """What the gate needs of a CONNECT packet."""

    raw: bytes
    level: int
    client_id: str
    username: str | None
    password: str | None
    will_topic: str | None


class RateLimitedLog:
    """One warning per reason at most every `every` seconds, with how many
    were refused meanwhile."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self._last: dict[str, float] = {}
        self._since: dict[str, int] = {}
        #: Refusals per reason since the start (for the tests).
        self.counts: dict[str, int] = {}

    def refused(self, reason: str, detail: str) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1
        now = time.monotonic()
        if now - self._last.get(reason, -1e9) < self.every:
            self._since[reason] = self._since.get(reason, 0) + 1
            return
        more = self._since.pop(reason, 0)
        self._last[reason] = now
        extra = f" ({more} more since the last such line)" if more else ""
        log.warning("broker: refused %s: %s%s", reason, detail, extra)


async def read_connect(reader: asyncio.StreamReader) -> Connect:
    """The CONNECT packet the client must send first (`Refusal` if it is not one)."""
    first = await reader.readexactly(1)
    if first[0] != 0x10:
        raise Refusal(None, "the first packet is not a CONNECT")
    length, multiplier, header = 0, 1, bytearray(first)
    for _ in range(4):
        byte = (await reader.readexactly(1))[0]
        header.append(byte)
        length += (byte & 0x7F) * multiplier
        multiplier *= 128
        if not byte & 0x80:
            break
    else:
        raise Refusal(None, "a CONNECT with a broken length")
    if length > MAX_CONNECT:
        raise Refusal(None, f"a CONNECT of {length} bytes")
    body = await reader.readexactly(length)
    return parse_connect(bytes(header) + body, body)


def parse_connect(raw: bytes, body: bytes) -> Connect:
    pos = 0

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(body):
            raise Refusal(None, "a CONNECT cut short")
        out = body[pos:pos + n]
        pos += n
        return out

    def field() -> bytes:
        size = int.from_bytes(take(2), "big")
        return take(size)

    def text() -> str:
        try:
            return field().decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal(None, "a CONNECT with text that is not UTF-8") from None

    name = text()
    level = take(1)[0]
    if name not in ("MQTT", "MQIsdp") or level not in (3, 4):
        raise Refusal(BAD_PROTOCOL, f"protocol {name!r} level {level} (MQTT 3.1.1 only)")
    flags = take(1)[0]
    take(2)                                         # keepalive
    client_id = text()
    will_topic = None
    if flags & 0x04:
        will_topic = text()
        field()                                     # the will's message
    username = text() if flags & 0x80 else None
    password = field().decode("utf-8", "replace") if flags & 0x40 else None
    return Connect(raw, level, client_id, username, password, will_topic)


def judge(connect: Connect, users: Mapping[str, str] | None) -> str | None:
    """The user `connect` is let in as; `Refusal` says why not. `users`
    None: an open broker (anyone, as before credentials)."""
    if users is None:
        return connect.username
    user = connect.username
    if not user:
        raise Refusal(NOT_AUTHORIZED, f"an anonymous client (client id {connect.client_id!r})")
    hashed = users.get(user)
    if hashed is None or not credentials.verify_password(connect.password or "", hashed):
        raise Refusal(BAD_CREDENTIALS, f"user {user!r}: unknown or wrong password")
    if connect.client_id != credentials.client_id_of(user):
        raise Refusal(BAD_CLIENT_ID, f"user {user!r} with client id {connect.client_id!r} "
                                     f"(it must be {credentials.client_id_of(user)!r})")
    if connect.will_topic is not None and not credentials.may_publish(user, connect.will_topic):
        raise Refusal(NOT_AUTHORIZED, f"user {user!r} with a will on {connect.will_topic!r}")
    return user


PassOn = Callable[[bytes, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
#: Seconds a client waits for the broker to let go of the old connection of its id.
TAKEOVER_WAIT = 3.0


@dataclass
class Live:
    """A connection the broker has: closed when another comes with its id."""

    writer: asyncio.StreamWriter
    gone: asyncio.Event = field(default_factory=asyncio.Event)


class Gate:
    """See the module docstring. `users()` gives the users of the moment
    (None: open); `pass_on(connect bytes, reader, writer)` hands a client
    that may come in to the broker."""

    def __init__(self, users: Callable[[], Mapping[str, str] | None], pass_on: PassOn, *,
                 limits: Limits | None = None, only: str | None = None,
                 live: dict[str, Live] | None = None) -> None:
        self.users = users
        self.pass_on = pass_on
        #: client id -> its connection, shared by the doors of one broker
        self.live: dict[str, Live] = {} if live is None else live
        self.limits = limits
        self.only = only            # the one user this door is for (the hub's own door)
        self.open = 0
        self.by_address: dict[str, int] = {}
        self.log = RateLimitedLog()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer: Any = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        limits = self.limits
        if limits is not None:
            if self.open >= limits.total:
                self.log.refused("a connection", f"{address}: {self.open} connections are open "
                                                 f"(at most {limits.total})")
                writer.transport.abort()
                return
            if self.by_address.get(address, 0) >= limits.per_address:
                self.log.refused("a connection", f"{address} has {limits.per_address} "
                                                 "connections open already")
                writer.transport.abort()
                return
        self.open += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        try:
            await self._admit(address, reader, writer)
        finally:
            self.open -= 1
            left = self.by_address[address] - 1
            if left:
                self.by_address[address] = left
            else:
                del self.by_address[address]

    async def _admit(self, address: str, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> None:
        try:
            connect = await asyncio.wait_for(read_connect(reader), CONNECT_TIMEOUT)
            users = self.users()
            # PBKDF2 takes milliseconds (and lets go of the GIL): not on the broker's loop
            user = await asyncio.get_running_loop().run_in_executor(None, judge, connect, users)
            if self.only is not None and user != self.only:
                raise Refusal(NOT_AUTHORIZED, f"user {user!r} at the hub's own door")
        except Refusal as refusal:
            self.log.refused("a client", f"{address}: {refusal.why}")
            if refusal.code is not None:
                writer.write(bytes([0x20, 2, 0, refusal.code]))
                try:
                    await asyncio.wait_for(writer.drain(), 1.0)
                except (TimeoutError, OSError):
                    pass
            writer.transport.abort()
            return
        except (TimeoutError, asyncio.IncompleteReadError, OSError):
            self.log.refused("a client", f"{address}: no CONNECT within {CONNECT_TIMEOUT:g} s")
            writer.transport.abort()
            return
        except credentials.CredentialError as exc:
            self.log.refused("a client", f"{address}: {exc}")
            writer.transport.abort()
            return
        await self._take_over(connect.client_id)
        mine = Live(writer)
        if connect.client_id:
            self.live[connect.client_id] = mine
        try:
            await self.pass_on(connect.raw, reader, writer)
        finally:
            mine.gone.set()
            if self.live.get(connect.client_id) is mine:
                del self.live[connect.client_id]

    async def _take_over(self, client_id: str) -> None:
        """Close the connection `client_id` has now, and wait till it is gone."""
        old = self.live.get(client_id)
        if old is None:
            return
        old.writer.transport.abort()
        try:
            await asyncio.wait_for(old.gone.wait(), TAKEOVER_WAIT)
        except TimeoutError:
            log.warning("broker: the old connection of %s is slow to go", client_id)
