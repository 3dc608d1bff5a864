"""gpiozero loaded without `importlib.metadata` (table/drivers/lazy_metadata.py).

Each test runs in a fresh interpreter: which modules an import loads depends
on what is loaded already."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh(code: str, path: Path | None = None, **env: str) -> dict:
    """Run `code` in a new interpreter; it prints one JSON line at the end."""
    environ = {**os.environ, **env}
    if path is not None:
        environ["PYTHONPATH"] = os.pathsep.join([str(path), environ.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=environ, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_the_pin_factory_is_made_without_loading_importlib_metadata():
    got = fresh(
        "import json, sys\n"
        "from table.drivers import make_pin_factory\n"
        "factory = make_pin_factory('mock')\n"
        "from gpiozero import LED\n"
        "led = LED(17, pin_factory=factory); led.on()\n"
        "print(json.dumps({'metadata': 'importlib.metadata' in sys.modules,\n"
        "                  'stand_in': 'importlib_metadata' in sys.modules,\n"
        "                  'lit': factory.pin(17).state}))\n")
    assert got == {"metadata": False, "stand_in": False, "lit": True}


def test_gpiozero_still_finds_a_pin_factory_named_in_its_environment():
    # GPIOZERO_PIN_FACTORY makes gpiozero look the name up in its entry points:
    # the stand-in's entry_points loads the standard library's and answers as it
    got = fresh(
        "import json, sys\n"
        "from table.drivers.lazy_metadata import import_quietly\n"
        "gpiozero = import_quietly('gpiozero')\n"
        "before = 'importlib.metadata' in sys.modules\n"
        "led = gpiozero.LED(17)\n"
        "print(json.dumps({'before': before, 'factory': type(led.pin_factory).__name__,\n"
        "                  'after': 'importlib.metadata' in sys.modules}))\n",
        GPIOZERO_PIN_FACTORY="mock")
    assert got == {"before": False, "factory": "MockFactory", "after": True}


def test_a_mock_pin_class_named_by_string_is_found_as_without_the_stand_in():
    got = fresh(
        "import json\n"
        "from table.drivers.lazy_metadata import import_quietly\n"
        "mock = import_quietly('gpiozero.pins.mock')\n"
        "print(json.dumps(mock.MockFactory(pin_class='mockpwmpin').pin_class.__name__))\n")
    assert got == "MockPWMPin"


def test_a_real_importlib_metadata_package_is_never_shadowed(tmp_path):
    (tmp_path / "importlib_metadata.py").write_text(
        "def entry_points(**params):\n    return 'the installed backport'\n")
    got = fresh(
        "import json, sys\n"
        "from table.drivers.lazy_metadata import import_quietly\n"
        "import_quietly('gpiozero')\n"
        "import gpiozero.devices\n"
        "print(json.dumps({'entry_points': gpiozero.devices.entry_points(group='x'),\n"
        "                  'module': sys.modules['importlib_metadata'].__file__}))\n",
        path=tmp_path)
    assert got == {"entry_points": "the installed backport",
                   "module": str(tmp_path / "importlib_metadata.py")}


def test_nothing_stands_in_when_importlib_metadata_is_loaded_already():
    got = fresh(
        "import json, importlib.metadata\n"
        "from table.drivers.lazy_metadata import import_quietly\n"
        "import_quietly('gpiozero')\n"
        "import gpiozero.devices\n"
        "print(json.dumps(gpiozero.devices.entry_points is importlib.metadata.entry_points))\n")
    assert got is True


def test_the_stand_in_is_the_standard_librarys_metadata_to_whoever_uses_it():
    import importlib.metadata

    import pytest

    from table.drivers.lazy_metadata import stand_in

    module = stand_in()
    assert module.version("gpiozero") == importlib.metadata.version("gpiozero")
    assert module.PackageNotFoundError is importlib.metadata.PackageNotFoundError
    names = {ep.name for ep in module.entry_points(group="gpiozero_pin_factories")}
    assert {"mock", "lgpio"} <= names
    assert not hasattr(module, "__path__")   # not a package: nothing is imported from it
    with pytest.raises(AttributeError):
        getattr(module, "no_such_function")  # noqa: B009 - the lookup is what is tested


def test_whoever_imports_from_the_stand_in_meanwhile_gets_the_standard_librarys(monkeypatch):
    import importlib.metadata

    from table.drivers.lazy_metadata import STAND_IN, stand_in

    monkeypatch.setitem(sys.modules, STAND_IN, stand_in())
    from importlib_metadata import PackageNotFoundError, version  # the stand-in, by name

    assert version("gpiozero") == importlib.metadata.version("gpiozero")
    assert PackageNotFoundError is importlib.metadata.PackageNotFoundError
