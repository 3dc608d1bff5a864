"""The table controller: a state machine (`machine`: tables written for
`transitions`, run compiled) driving a plain model (`model`) over the
durable session (`session`: the match and the hand's `HandFlow`,
journaled), fed by one event queue (`loop.Controller`) after read hygiene
(`hygiene`), and shown through the screens (`present` -> `table.screens`).

    from table.controller import Controller
    ctl = Controller.open(settings, ports, "/var/lib/cardtable")
    ctl.start()      # drivers post to ctl.post; one thread handles everything
"""

from table.controller.loop import Controller
from table.controller.model import Notice, TableModel
from table.controller.session import Selection, Session

__all__ = ["Controller", "Notice", "Selection", "Session", "TableModel"]
