"""Real services on localhost for the club tests: the embedded broker,
Mosquitto with a generated configuration (users, ACL), a TCP proxy that
can cut a table's network, and a hub with its web pages."""

from __future__ import annotations

import getpass
import socket
import subprocess
import threading
import time
from pathlib import Path

from table.club.broker import EmbeddedBroker
from table.club.config import Broker, parse_broker
from table.club.gate import Limits
from table.club.service import Hub
from table.club.store import SqliteStore
from table.club.web import Site, WebServer
from tests.system_programs import require_program


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"nothing listens on port {port}")


def wait_until(predicate: object, timeout: float = 10.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


class Amqtt:
    """The embedded broker, restartable on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.broker: EmbeddedBroker | None = None

    def start(self, limits: Limits | None = None) -> None:
        self.broker = EmbeddedBroker("127.0.0.1", self.port, limits=limits)
        self.broker.start()

    def stop(self) -> None:
        if self.broker is not None:
            self.broker.stop()
            self.broker = None

    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"


ACL = """\
# the hub reads and writes every club topic
user hub
topic readwrite cardtable/#

# a table writes only its own journal and status, and reads only its own mark
pattern write cardtable/table/%u/journal
pattern write cardtable/table/%u/status
pattern read cardtable/table/%u/ack
"""


class Mosquitto:
    """The real `mosquitto` on a free localhost port, with a password file
    (users `hub` and the tables) and the ACL of docs/club.md."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None,
                 tls: bool = False) -> None:
        self.binary = require_program("mosquitto")
        self.folder = folder
        self.port = free_port()
        self.users = users
        self.tls = tls
        self.proc: subprocess.Popen[bytes] | None = None
        # as root, mosquitto would switch to its own user, who cannot read this folder
        conf = [f"user {getpass.getuser()}", f"listener {self.port} 127.0.0.1",
                "max_connections 400", "persistence true",
                f"persistence_location {folder}/", "autosave_interval 1"]
        if tls:
            make_certificates(folder)
            conf += [f"cafile {folder / 'ca.pem'}", f"certfile {folder / 'server.pem'}",
                     f"keyfile {folder / 'server.key'}"]
        if users is not None:
            passwd = folder / "passwd"
            passwd.write_text("")
            for user, pw in users.items():
                subprocess.run([require_program("mosquitto_passwd"), "-b", str(passwd), user,
                                pw], check=True, capture_output=True)
            (folder / "acl").write_text(ACL)
            conf += ["allow_anonymous false", f"password_file {passwd}",
                     f"acl_file {folder / 'acl'}", "use_username_as_clientid true"]
        else:
            conf += ["allow_anonymous true"]
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(conf) + "\n")

    def start(self) -> None:
        # its log to a file: a pipe nobody reads would stop the broker once full
        with open(self.folder / "mosquitto.log", "ab") as log:
            self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                         stdout=subprocess.DEVNULL, stderr=log)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None

    def url(self, user: str | None = None) -> str:
        scheme = "mqtts" if self.tls else "mqtt"
        host = "localhost" if self.tls else "127.0.0.1"
        if user is None or self.users is None:
            return f"{scheme}://{host}:{self.port}"
        return f"{scheme}://{user}:{self.users[user]}@{host}:{self.port}"


def make_certificates(folder: Path) -> None:
    """A CA and a certificate for `localhost` signed by it (openssl)."""
    openssl = require_program("openssl")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, cwd=folder)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=club CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
        "server.key", "-out", "server.csr")
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.pem")


class TcpProxy:
    """A table's network: forwards a local port to the broker; `cut()`
    drops every connection and refuses new ones until `mend()`."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = int(self.server.getsockname()[1])
        self.up = True
        self._socks: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True, name="proxy").start()

    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._socks |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            with self._lock:
                self._socks -= {a, b}

    def cut(self) -> None:
        self.up = False
        with self._lock:
            socks = list(self._socks)
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def mend(self) -> None:
        self.up = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self.server.close()


class HubRunner:
    """A hub (SQLite in `folder`) and its web pages, restartable."""

    def __init__(self, folder: Path, broker_url: str, *, web: bool = False,
                 hide_rankings: bool = False) -> None:
        self.db = folder / "hub.sqlite"
        self.broker: Broker = parse_broker(broker_url)
        self.web = web
        self.hide_rankings = hide_rankings
        self.hub: Hub | None = None
        self.server: WebServer | None = None
        self.port = free_port()

    def start(self) -> Hub:
        self.store = SqliteStore(self.db)
        self.hub = Hub(self.store, self.broker)
        if self.web:
            self.site = Site(self.hub, hide_rankings=self.hide_rankings)
            self.server = WebServer(self.site, "127.0.0.1", self.port)
            self.server.start()
        self.hub.start()
        return self.hub

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.hub is not None:
            self.hub.stop()
            self.hub = None
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.store.close()
