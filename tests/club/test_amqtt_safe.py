"""amqtt walked its subscriptions while it waited: a persistent session
connecting again while other clients subscribed raised "dictionary changed
size during iteration" and wrote the traceback into the hub's log
(table/club/amqtt_safe.py). The embedded broker, for real, on 127.0.0.1."""

from __future__ import annotations

import logging
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from table.club.amqtt_safe import SnapshotDict
from table.club.gate import Limits
from tests.club.services import Amqtt, wait_until


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def client(port: int, cid: str, clean: bool = True) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid, clean_session=clean,
                    protocol=mqtt.MQTTv311)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def test_reconnecting_while_others_subscribe_writes_no_traceback(amqtt: Amqtt):
    keep = Keep()
    loggers = [logging.getLogger(n) for n in ("asyncio", "amqtt", "amqtt.broker")]
    for lg in loggers:
        lg.addHandler(keep)
    clients: list[mqtt.Client] = []
    # the churn opens more connections from 127.0.0.1 than the gate lets one address have
    amqtt.stop()
    amqtt.start(limits=Limits(per_address=100))
    try:
        pub = client(amqtt.port, "pub")
        clients.append(pub)
        for i in range(300):                   # retained: what a reconnect walks through
            pub.publish(f"r/{i}/x", b"y" * 100, qos=1, retain=True)
        a = client(amqtt.port, "A", clean=False)
        for i in range(60):
            a.subscribe(f"r/{i}/#", qos=1)
        time.sleep(0.5)
        a.disconnect()
        a.loop_stop()

        def churn() -> None:
            for k in range(40):
                c = client(amqtt.port, f"c{k}")
                clients.append(c)
                c.subscribe(f"n/{k}/#", qos=1)
                time.sleep(0.01)

        t = threading.Thread(target=churn)
        t.start()
        for _ in range(5):
            a = client(amqtt.port, "A", clean=False)
            time.sleep(0.3)
            a.disconnect()
            a.loop_stop()
        t.join()
        got = threading.Event()
        late = client(amqtt.port, "late")
        clients.append(late)
        late.on_message = lambda c, u, m: got.set()
        late.subscribe("r/7/#", qos=1)
        wait_until(got.is_set, 10, "the retained message after the churn")
        bad = [r for r in keep.records
               if r.exc_info or "changed size" in r.getMessage()]
        assert bad == [], [r.getMessage() for r in bad]
    finally:
        for lg in loggers:
            lg.removeHandler(keep)
        for c in clients:
            c.disconnect()
            c.loop_stop()


def test_a_snapshot_dict_may_change_while_it_is_walked():
    d = SnapshotDict({"a": 1, "b": 2})
    for key in d:
        d[key + "x"] = 0
    for key, _ in d.items():
        del d[key]
    assert d == {}
