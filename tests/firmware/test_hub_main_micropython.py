"""The hub as it starts on a Pico, under the real MicroPython: `import main`
(firmware/main.py -> cardhub.main()), with MicroPython's own `sys`, `select`
and `micropython`, the process's stdin/stdout as the USB serial, and fake
`machine`/`time` whose SPI reaches emulated MFRC522s
(hw_mocks.micropython_pico). Also the update hand-over: UPDATE, the restart
without the watchdog, the REPL left to mpremote, and the hub back after."""

from __future__ import annotations

import pytest

from hw_mocks.mfrc522 import MifareClassic1K, Ntag213
from hw_mocks.mfrc522.pico import PicoBoard
from hw_mocks.micropython_pico import MicroPythonError, MicroPythonPico

from .hubs import FW

wire, cardhub, hubconfig = FW["wire"], FW["cardhub"], FW["hubconfig"]
STICKER = "04A1B2C3D4E5F6"


def command(body):
    return b"$" + body + b"*%04X\n" % wire.crc16(body)


def lines(out):
    parsed = []
    for text in out.decode("ascii").splitlines():
        assert text.startswith("$") and text[-5] == "*", text
        assert int(text[-4:], 16) == wire.crc16(text[1:-5].encode()), text
        seq, kind, *fields = text[1:-5].split(",")
        parsed.append((int(seq), kind, fields))
    return parsed


def stop_after(feeds, then=None):
    """An on_feed that lets the firmware run `feeds` watchdog feeds (calling
    `then(pico)` at feed number `then[0]`), then stops it."""
    def on_feed(pico):
        if then is not None and pico.feeds == then[0]:
            then[1](pico)
        return pico.feeds < feeds
    return on_feed


def boot(pico):
    """`import main` as the Pico does at power-on; the exception that ended it."""
    with pytest.raises(MicroPythonError) as ended:
        pico.exec("import main")
    return ended.value


def test_main_boots_reads_commands_polls_and_feeds_the_watchdog(tmp_path):
    board = PicoBoard(channels=len(hubconfig.CS_PINS))
    board.place(Ntag213(STICKER), board.readers[3])
    with MicroPythonPico(board, cwd=tmp_path) as pico:
        pico.usb_write(b"\x03VER\r\n$CARDS*6DAE\n")  # Ctrl-C: no interrupt, and ignored
        pico.on_feed = stop_after(60)
        ended = boot(pico)
        assert ended.kind == "SystemExit"  # stopped by the test at the 60th feed
        got = lines(pico.usb_read())
    assert pico.feeds == 60 and pico.wdt_timeout == hubconfig.WATCHDOG_MS
    assert not pico.bitten  # every feed came in time
    assert [seq for seq, _, _ in got] == list(range(len(got)))
    assert got[0] == (0, "BOOT", ["cardtable-hub", cardhub.VERSION, "8", "power"])
    kinds = [(kind, fields) for _, kind, fields in got[1:]]
    assert kinds[0] == ("VER", ["cardtable-hub", cardhub.VERSION, "1"])  # the 0x03 ignored
    assert ("ON", ["3", STICKER]) in kinds
    cards = [fields for kind, fields in kinds if kind == "CARDS"]
    assert cards and all(f[3] == STICKER and f.count("") == 7 for f in cards)
    beats = [fields for kind, fields in kinds if kind == "HB"]
    assert beats and beats[0][1:] == ["FF", str(hubconfig.POLL_RATE)]
    board.clock.sleep(hubconfig.WATCHDOG_MS / 1000 + 0.1)
    assert pico.starved()  # a loop that stalled this long would be reset


def test_a_watchdog_reset_is_reported_in_the_boot_line(tmp_path):
    board = PicoBoard(channels=1)  # hubconfig's 8 channels: 7 of them without a reader
    with MicroPythonPico(board, cwd=tmp_path, reset_cause=3) as pico:
        pico.on_feed = stop_after(1)
        boot(pico)
        assert lines(pico.usb_read())[0] == (0, "BOOT", ["cardtable-hub", cardhub.VERSION,
                                                         "8", "watchdog"])


def test_bad_commands_on_the_usb_serial_never_stop_the_hub(tmp_path):
    """Fault 1 of issue 12: under MicroPython any bad command used to end
    Hub.run (AttributeError), and the watchdog reset the Pico."""
    board = PicoBoard(channels=2)
    bad = b"$VER*1234\nF00\n,,,\n\xc3\xa9\xff\n$VER*0000\n" + b"x" * 100 + b"\n"
    with MicroPythonPico(board, cwd=tmp_path) as pico:
        pico.usb_write(bad)

        def then_a_card(pico):
            board.place(MifareClassic1K("A1B2C3D4"), board.readers[1])
            pico.usb_write(b"VER\n")
        pico.on_feed = stop_after(20, then=(5, then_a_card))
        assert boot(pico).kind == "SystemExit"  # stopped by the test, nothing else
        got = [(kind, fields) for _, kind, fields in lines(pico.usb_read())]
    errors = [fields for kind, fields in got if kind == "ERR" and fields[0] == "-"]
    assert errors == [["-", "BADCRC"], ["-", "BADCMD", "F00"], ["-", "BADCMD"],
                      ["-", "BADCHAR"], ["-", "BADCRC"], ["-", "LONG"]]
    assert ("VER", ["cardtable-hub", cardhub.VERSION, "1"]) in got
    assert ("ON", ["1", "A1B2C3D4"]) in got
    assert pico.feeds == 20 and not pico.bitten


def test_the_usb_port_never_blocks_and_reads_at_most_256_bytes_at_a_time(tmp_path):
    with MicroPythonPico(PicoBoard(channels=1), cwd=tmp_path) as pico:
        pico.exec("import sys, select, cardhub; p = cardhub.UsbPort(sys, select)")
        assert pico.eval("p.read()") == b""  # nothing waiting: returns at once
        pico.usb_write(bytes(range(256)) * 2 + b"end")
        assert pico.eval("p.read()") == bytes(range(256))
        assert pico.eval("p.read()") == bytes(range(256))
        assert pico.eval("p.read()") == b"end"
        pico.exec("p.write(b'$0,HB,1,FF,50*3F6E\\n')")
        assert pico.usb_read(wait_for=b"\n") == b"$0,HB,1,FF,50*3F6E\n"


def test_update_hands_the_pico_over_and_the_next_boot_runs_the_hub_again(tmp_path):
    board = PicoBoard(channels=2)
    card = Ntag213(STICKER)
    board.place(card, board.readers[0])
    # 1. a running hub is told UPDATE: it answers, switches its antennas off
    #    and restarts (machine.reset(): the only way past its watchdog)
    with MicroPythonPico(board, cwd=tmp_path) as pico:
        pico.on_feed = stop_after(1000, then=(10, lambda p: p.usb_write(command(b"UPDATE"))))
        ended = boot(pico)
        out = pico.usb_read()
        assert ended.kind == "SystemExit" and "machine.reset()" in ended.trace
        assert pico.resets == ["reset"] and pico.feeds < 15
        assert not pico.starved() and not pico.bitten  # reset before the watchdog bit
    got = [(kind, fields) for _, kind, fields in lines(out)]
    assert got[-1] == ("OK", ["UPDATE"])
    assert [r.antenna_on for r in board.readers] == [False, False]
    assert (tmp_path / cardhub.UPDATE_FLAG).exists()
    # 2. the boot after it: no watchdog, no hub, the REPL is free for mpremote
    with MicroPythonPico(board, cwd=tmp_path) as pico:
        pico.exec("import main")  # returns: MicroPython goes on to its REPL
        text = pico.usb_read(wait_for=b"\n")
        assert pico.wdt_timeout is None and pico.feeds == 0
        assert text.startswith(b"cardtable-hub ") and b"update mode" in text
        assert b"mpremote reset" in text and b"$" not in text  # no protocol line
        assert pico.eval("1 + 1") == 2  # the interpreter is there for mpremote
    assert not (tmp_path / cardhub.UPDATE_FLAG).exists()
    # 3. after the update (or a power cut in update mode) the hub runs as before
    with MicroPythonPico(board, cwd=tmp_path) as pico:
        pico.on_feed = stop_after(10)
        boot(pico)
        got = [(kind, fields) for _, kind, fields in lines(pico.usb_read())]
        assert got[0][0] == "BOOT" and ("ON", ["0", STICKER]) in got
        assert pico.wdt_timeout == hubconfig.WATCHDOG_MS and pico.resets == []
