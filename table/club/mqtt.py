"""A paho-mqtt client for a `Broker`: persistent session, TLS, credentials,
reconnecting by itself (its network thread) with a short back-off."""

from __future__ import annotations

from typing import Any

from table.club.config import Broker


def make_client(broker: Broker, client_id: str, *, persistent: bool = True,
                min_delay: float = 0.25, max_delay: float = 4.0) -> Any:
    """A paho `Client` set up for `broker` (not connected yet: call
    `connect_async` and `loop_start`)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=not persistent, protocol=mqtt.MQTTv311)
    if broker.username is not None:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=str(broker.ca_file) if broker.ca_file else None)
    delays: Any = client.reconnect_delay_set   # paho takes seconds as float too
    delays(min_delay=min_delay, max_delay=max_delay)
    client.max_inflight_messages_set(100)
    return client


def reason_text(reason_code: Any) -> str:
    """A connection's reason code in words ("Not authorized", "Success")."""
    return str(getattr(reason_code, "getName", lambda: reason_code)())
