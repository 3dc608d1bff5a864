"""The embedded broker's rules inside amqtt: who is let in (the gate has
checked the password already; this checks again that the client id is the
user's own) and which topics each user may write, subscribe to and be sent
(`table.club.credentials`), and amqtt's broker with its handing out of
retained messages put right. Imported when the embedded broker starts
(amqtt is the club extra's)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from amqtt.broker import Broker  # type: ignore[import-untyped]  # amqtt: no stubs
from amqtt.contexts import Action  # type: ignore[import-untyped]  # amqtt: no stubs
from amqtt.plugins.base import (  # type: ignore[import-untyped]  # amqtt: no stubs
    BaseAuthPlugin,
    BaseTopicPlugin,
)

from table.club import credentials


class CardtableAuth(BaseAuthPlugin):  # type: ignore[misc]  # amqtt: no stubs
    """A client is in when it has a user and the client id bound to it (or
    always, on an open broker)."""

    @dataclass
    class Config:
        open: bool = False

    async def authenticate(self, *, session: Any) -> bool:
        if self.config.open:
            return True
        user = session.username
        return bool(user) and session.client_id == credentials.client_id_of(user)


class CardtableAcl(BaseTopicPlugin):  # type: ignore[misc]  # amqtt: no stubs
    """The ACL of docs/club.md (everything allowed on an open broker)."""

    @dataclass
    class Config:
        open: bool = False

    async def topic_filtering(self, *, session: Any = None, topic: str | None = None,
                              action: Any = None) -> bool:
        if self.config.open:
            return True
        user = getattr(session, "username", None)
        if not user or not topic:
            return False
        if action == Action.PUBLISH:
            return credentials.may_publish(user, topic)
        if action == Action.SUBSCRIBE:
            return credentials.may_subscribe(user, topic)
        return credentials.may_receive(user, topic)


class CardtableBroker(Broker):  # type: ignore[misc]  # amqtt: no stubs
    """amqtt's broker, but a client is sent the retained messages of its
    own subscriptions only, and only those its ACL lets it receive.

    amqtt (0.12) sends a client that connects the retained messages of
    every filter anyone subscribed to, past the ACL (a table would read
    every table's mark and status), and does it while iterating over the
    subscriptions with awaits between ("dictionary changed size during
    iteration" when another client subscribes meanwhile). Here nothing
    waits inside that loop: the messages go out as tasks of their own."""

    def __init__(self, *args: Any, open_to_all: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._open_to_all = open_to_all
        self._sending: set[asyncio.Task[Any]] = set()

    async def _publish_retained_messages_for_subscription(
            self, subscription: tuple[str, int], session: Any) -> None:
        topic_filter, qos = subscription
        subscribers = self._subscriptions.get(topic_filter, [])
        if not any(s.client_id == session.client_id for s, _ in subscribers):
            return          # somebody else's filter
        handler = self._get_handler(session)
        user = session.username
        if handler is None or (not self._open_to_all and not user):
            return
        for topic, retained in list(self._retained_messages.items()):
            if not self._matches(topic, topic_filter):
                continue
            if not self._open_to_all and not credentials.may_receive(user, topic):
                continue
            task = asyncio.ensure_future(handler.mqtt_publish(
                retained.topic, retained.data, min(qos, retained.qos or qos), retain=True))
            self._sending.add(task)
            task.add_done_callback(self._sent_retained)

    def _sent_retained(self, task: asyncio.Task[Any]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            pass        # the client went away meanwhile: its session gets it again
