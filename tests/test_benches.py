"""The benches' shared parts measure what they claim: the I2C accounting sees
luma's own transactions (sizes worked out by hand from luma's i2c interface
and the SSD1306's frame), `one_core` really pins a bench, and the touch ->
verdict bench runs end to end on a tiny workload. The figures themselves go
in the README, not in tests."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.system_programs import require_program

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load(name):
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module        # dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_a_whole_ssd1306_frame_is_two_transactions_and_23_ms_at_400_khz():
    i2c_bus = load("i2c_bus")
    from table.config import DisplayConfig
    from table.drivers.display import open_display

    with i2c_bus.recording_smbus() as buses:
        display = open_display(DisplayConfig(driver="ssd1306"))
    assert len(buses) == 1
    bus = buses[0]
    bus.take()                                         # luma's init commands
    display.device.display(Image.new("1", (128, 64), 1))
    sent = bus.take()
    # luma's managed I2C: one SMBus block write of the 6 addressing commands
    # (0x21 col0 col1 0x22 page0 page1), one i2c_rdwr message of the 1024 bytes
    assert sent == [6, 1024]
    # START+STOP (2 clocks) and address, control byte, payload at 9 clocks a byte
    clocks = (2 + 9 * (2 + 6)) + (2 + 9 * (2 + 1024))
    assert i2c_bus.clocks(sent) == clocks == 9310
    assert i2c_bus.bus_ms(sent) == pytest.approx(9310 / 400_000 * 1000)   # 23.275 ms


def test_a_block_write_longer_than_smbus_allows_is_refused():
    i2c_bus = load("i2c_bus")
    with pytest.raises(ValueError, match="32 bytes"):
        i2c_bus.RecordingSMBus().write_i2c_block_data(0x3C, 0x40, [0] * 33)


def test_one_core_pins_a_bench_with_taskset(tmp_path):
    require_program("taskset")
    script = tmp_path / "bench.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(BENCH)!r})
        from pinning import one_core
        one_core()
        print("CPUS", sorted(os.sched_getaffinity(0)), sys.argv[1:])
    """))
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_BENCH_CORE"}
    out = subprocess.run([sys.executable, str(script), "--x", "1"], capture_output=True,
                         text=True, env=env, check=True).stdout
    core = max(os.sched_getaffinity(0))
    assert f"Bench pinned to core {core} with taskset." in out
    assert f"CPUS [{core}] ['--x', '1']" in out


def test_the_touch_bench_runs_the_whole_path_for_plays_and_refusals(tmp_path, capsys):
    bench = load("touch_bench")
    status = bench.main(["--hands", "1", "--samples", "2", "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert status in (0, 1)
    lying = [row.split("|")[1].strip() for row in out.splitlines()
             if re.match(r"\| \d \| \d+ \|", row)]
    assert lying == ["0", "1", "2", "3"]
    rows = {row.split("|")[1].strip(): row.split("|")[1:-1] for row in out.splitlines()
            if row.startswith(("| accepted", "| refused"))}
    assert set(rows) == {"accepted", "refused"}
    # an error screen is inverse video, by the panel's own flag: less than the
    # whole frame (1030 B) goes over the bus
    refused_bytes = int(rows["refused"][4].strip().split(" B")[0])
    assert 0 < refused_bytes < 1030
    assert ("met" if status == 0 else "MISSED") in rows["refused"][-1] + rows["accepted"][-1]


def test_the_touch_bench_refuses_a_negative_idle_gap_with_a_clear_error(capsys):
    bench = load("touch_bench")
    with pytest.raises(SystemExit) as exc:
        bench.main(["--gap", "-1"])
    assert exc.value.code == 2
    assert "--gap needs 0 or more seconds" in capsys.readouterr().err


def test_the_touch_bench_gives_the_controller_idle_time_through_its_own_hook(tmp_path):
    """The idle gaps call `Controller.idle()` itself, piece by piece while
    the gap lasts; a piece under way when it ends delays the next event."""
    bench = load("touch_bench")

    class Ctl:
        def __init__(self, pieces):
            self.pieces = pieces

        def idle(self):
            t = time.thread_time()
            while time.thread_time() - t < 0.001:     # a piece: 1 ms of CPU here
                pass
            self.pieces -= 1
            return self.pieces > 0

    done = Ctl(5)
    assert bench.idle(done, 1.0) == 0.0 and done.pieces == 0     # 65 ms of a 1 s gap
    busy = Ctl(100)
    late = bench.idle(busy, 0.005)       # the first piece (13 ms there) overruns 5 ms
    assert busy.pieces == 99
    assert 0.008 <= late < 0.05


def test_the_start_up_bench_times_the_real_run_from_its_first_frame_to_ready(capsys):
    """One launch of each kind (and one warm-up): the first frame (on the
    I2C bus for --hardware pi, on the fake display for mock) comes before
    ready, and the floor is measured too."""
    bench = load("display_bench")
    got = bench.startup(runs=1)
    for kind in ("pi", "mock"):
        (run,) = got[kind]
        assert run["status"] == 0 and run["frames"] >= 1
        assert 0 < run["first"] < run["ready"] and run["first_cpu"] < run["ready_cpu"]
        assert len(got["floor_" + kind]) == 1
    assert len(got["pass"]) == 1
    (pi,) = got["pi"]
    phases = [pi["began"][m] for m in ("luma.oled.device", "gpiozero", "table.controller")]
    assert [pi["first_cpu"], *phases, pi["ready_cpu"]] == sorted(
        [pi["first_cpu"], *phases, pi["ready_cpu"]])     # the phases in their order
    bench.startup_report(got)
    out = capsys.readouterr().out
    assert "| --hardware pi (mock pins) |" in out and "floor of --hardware mock" in out


def test_the_start_up_bench_says_who_the_time_before_ready_is_spent_for(capsys):
    """Every module loaded before ready is put down to the library or table
    module it was loaded for; the classes @dataclass makes are counted."""
    bench = load("display_bench")
    by_owner, made = bench.where_ready_goes(runs=1)
    for owner in ("gpiozero", "luma", "table.config", "table.controller", "engine"):
        assert by_owner[owner] > 0, owner
    assert not any(o.startswith(("PIL", "colorzero", "dataclasses")) for o in by_owner)
    count, seconds = made
    assert count > 10 and seconds > 0
    got = {"pass_cpu": [0.04], "pi": [{"ready_cpu": 0.4}]}
    bench.where_report(by_owner, made, got)
    out = capsys.readouterr().out
    rows = [r for r in out.splitlines() if r.startswith("| ") and "%" in r]
    assert rows and rows[0].split("|")[1].strip() in by_owner
    assert f"@dataclass makes {count} classes before ready" in out


def test_the_controller_bench_runs_a_trees_own_bench_on_its_own_code(tmp_path):
    """`controller_bench.py --against REV` times REV's tree with REV's own
    bench: each run must import the tree it was given (this one here), and a
    tree whose code would come from elsewhere is refused, not timed."""
    import shutil

    bench = load("controller_bench")
    root = BENCH.parent
    cpu = bench.cpu_run(root, 1, tmp_path / "state")
    assert len(cpu["play"]) >= 20 and all(t > 0 for t in cpu["play"])
    assert set(cpu) == {"play", "refusal"}
    elsewhere = tmp_path / "tree"
    shutil.copytree(BENCH, elsewhere / "bench")   # a bench without the code beside it
    with pytest.raises(SystemExit, match="not the tree in"):
        bench.cpu_run(elsewhere, 1, tmp_path / "state2")
