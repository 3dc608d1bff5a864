"""The club room: tables publish their journal to an MQTT broker; `cardtable
hub` stores every entry once, rebuilds the matches with the engine and shows
the room live (docs/club.md).

`table.club.config` and `table.club.topics` are stdlib only; the publisher
needs `paho-mqtt` and the hub the `club` extra, imported only when used.
"""
