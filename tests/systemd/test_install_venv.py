"""install.sh's program step on every Pi model, with real pip into a real venv
inside a temporary root, twice in a row, and with the SD card moved from one
model to another.

The packages are stand-ins built here (pip installs only from a local folder,
hash-checked against a lock made here): RPi.GPIO and rpi-lgpio install the
same module files, RPi/GPIO, as the real ones do, and mfrc522 depends on
RPi.GPIO, as the real one does. That is what deleted the module on a Pi 5
when the script ran a second time."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"

needs_tools = pytest.mark.usefixtures("systemd_tools")

#: distribution -> (version, requires, {file: text})
PACKAGES = {
    "RPi.GPIO": ("0.7.1", [], {"RPi/__init__.py": "",
                               "RPi/GPIO/__init__.py": "PROVIDER = 'RPi.GPIO'\n"}),
    "rpi-lgpio": ("0.6", ["lgpio"], {"RPi/__init__.py": "",
                                     "RPi/GPIO/__init__.py": "PROVIDER = 'rpi-lgpio'\n"}),
    "lgpio": ("0.2.2.0", [], {"lgpio.py": ""}),
    "spidev": ("3.8", [], {"spidev.py": ""}),
    "mfrc522": ("0.0.7", ["RPi.GPIO", "spidev"], {"mfrc522/__init__.py": ""}),
}

#: A stand-in source folder for cardtable: an in-tree build backend, so the
#: venv needs no setuptools or wheel to build it.
BACKEND = '''
import base64, hashlib, os, zipfile

NAME, VERSION = "cardtable", "0.1.0"
FILES = {"table/__init__.py": "SOURCE = 'fake'\\n"}


def _record(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    info = f"{NAME}-{VERSION}.dist-info"
    files = dict(FILES)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n"
    files[f"{info}/WHEEL"] = ("Wheel-Version: 1.0\\nGenerator: fake\\n"
                              "Root-Is-Purelib: true\\nTag: py3-none-any\\n")
    record = [_record(p, t.encode()) for p, t in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = "\\n".join(record) + "\\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []
'''


def wheel(folder: Path, dist: str, version: str, requires: list[str],
          files: dict[str, str]) -> Path:
    norm = dist.replace("-", "_").replace(".", "_")
    info = f"{norm}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires)
    contents = dict(files)
    contents[f"{info}/METADATA"] = meta
    contents[f"{info}/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                 "Tag: py3-none-any\n")

    def record(path: str, data: bytes) -> str:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        return f"{path},sha256={digest.decode()},{len(data)}"

    rows = [record(p, t.encode()) for p, t in contents.items()] + [f"{info}/RECORD,,"]
    contents[f"{info}/RECORD"] = "\n".join(rows) + "\n"
    path = folder / f"{norm}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in contents.items():
            z.writestr(name, text)
    return path


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A source folder with the real systemd/ scripts, a lock of the stand-in
    packages with their hashes, the wheels in a local folder, and an empty
    venv to copy (making a venv takes up to half a minute on a busy machine)."""
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    shutil.copytree(SYSTEMD, src / "systemd")
    (src / "examples").mkdir()
    shutil.copy(ROOT / "examples/config.toml", src / "examples/config.toml")
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n')
    (src / "backend.py").write_text(BACKEND)
    wheels = base / "wheels"
    wheels.mkdir()
    lock = ["# test lock"]
    for dist, (version, requires, files) in PACKAGES.items():
        digest = hashlib.sha256(wheel(wheels, dist, version, requires, files).read_bytes())
        lock += [f"{dist.lower().replace('.', '-')}=={version} \\",
                 f"    --hash=sha256:{digest.hexdigest()}", "    # via test"]
    (src / "systemd/requirements-pi.txt").write_text("\n".join(lock) + "\n")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True,
                   env={k: v for k, v in os.environ.items() if not k.startswith("PIP_")})
    return src, wheels, venv


def install(source, root: Path, model: str, venv: bool = True
            ) -> subprocess.CompletedProcess[str]:
    src, wheels, template = source
    target = root / "opt/cardtable/venv"
    if venv and not target.exists():
        shutil.copytree(template, target, symlinks=True)
    (root / "proc/device-tree").mkdir(parents=True, exist_ok=True)
    (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["CARDTABLE_PIP_ARGS"] = f"--no-index --find-links {wheels}"
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    return subprocess.run([str(src / "systemd/install.sh"), "--root", str(root)]
                          + (["--venv"] if venv else []), capture_output=True, text=True, env=env)


def venv_state(root: Path) -> tuple[str, list[str]]:
    """Which package's RPi/GPIO is there, and what pip says is installed."""
    py = root / "opt/cardtable/venv/bin/python"
    code = "import RPi.GPIO; print(RPi.GPIO.PROVIDER)"
    r = subprocess.run([str(py), "-c", code], capture_output=True, text=True)
    provider = r.stdout.strip() if r.returncode == 0 else f"import failed: {r.stderr[-200:]}"
    r = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze",
                        "--disable-pip-version-check"], capture_output=True, text=True)
    return provider, sorted(r.stdout.split())


def outside_the_venv(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and "opt/cardtable/venv" not in str(p)}


PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.5"


@needs_tools
@pytest.mark.parametrize("model, dist", [
    (PI5, "rpi-lgpio"), ("Raspberry Pi Compute Module 5 Rev 1.0", "rpi-lgpio"),
    ("Raspberry Pi 500 Rev 1.0", "rpi-lgpio"), (PI4, "rpi-gpio"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "rpi-gpio"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "rpi-gpio")])
def test_the_model_decides_which_package_provides_rpi_gpio(source, tmp_path, model, dist):
    r = install(source, tmp_path / "root", model, venv=False)
    assert r.returncode == 0, r.stderr
    assert f"==> model: {model}; RPi.GPIO from {dist}\n" in r.stdout


@needs_tools
def test_installing_again_on_the_same_model_or_after_a_move_keeps_rpi_gpio(source, tmp_path):
    """A Pi 4 twice, then the SD card in a Pi 5, twice (on a Pi 5 the second
    run used to delete the module): every run leaves one provider of RPi.GPIO,
    the model's, and a second run on a model changes nothing."""
    root = tmp_path / "root"
    previous = None
    for model, provider, absent in ((PI4, "RPi.GPIO", "rpi-lgpio"),
                                    (PI4, "RPi.GPIO", "rpi-lgpio"),
                                    (PI5, "rpi-lgpio", "rpi-gpio"),
                                    (PI5, "rpi-lgpio", "rpi-gpio")):
        r = install(source, root, model)
        assert r.returncode == 0, r.stdout + r.stderr
        state = venv_state(root)
        assert state[0] == provider, (model, state)
        installed = [line.lower().replace("_", "-").replace(".", "-") for line in state[1]]
        assert not any(line.startswith(absent + "==") for line in installed), installed
        assert "mfrc522==0-0-7" in installed and "cardtable==0-1-0" in installed
        outside = outside_the_venv(root)
        if previous is not None and previous[0] == model:
            assert (state, outside) == previous[1:], f"second run on {model} changed things"
        previous = (model, state, outside)


@needs_tools
def test_a_file_not_matching_the_lock_is_refused(source, tmp_path):
    src, wheels, venv = source
    bad = tmp_path / "src"
    shutil.copytree(src, bad)
    lock = bad / "systemd/requirements-pi.txt"
    lock.write_text(lock.read_text().replace("spidev==3.8 \\\n    --hash=sha256:",
                                             "spidev==3.8 \\\n    --hash=sha256:0"))
    r = install((bad, wheels, venv), tmp_path / "root", PI4)
    assert r.returncode != 0
    assert "DO NOT MATCH THE HASHES" in r.stderr


def test_the_lock_pins_every_package_the_pi_needs_with_hashes():
    """systemd/requirements-pi.txt (made as docs/setup.md says) covers
    pyproject.toml's dependencies and its pi extra, and every entry has hashes."""
    import re
    import tomllib

    lock = (SYSTEMD / "requirements-pi.txt").read_text()
    entries = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\\n((?:    --hash=sha256:"
                         r"[0-9a-f]{64}(?: \\)?\n)+)", lock, re.M)
    pinned = {name.lower().replace("_", "-").replace(".", "-") for name, _, _ in entries}
    names = re.findall(r"^[A-Za-z0-9]", lock, re.M)
    assert len(names) == len(entries)               # every entry pinned, with hashes
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["pi"]
    for req in wanted:
        name = re.match(r"[A-Za-z0-9._-]+", req).group(0)
        assert name.lower().replace("_", "-").replace(".", "-") in pinned, req
    assert {"rpi-gpio", "rpi-lgpio", "lgpio", "setuptools", "wheel"} <= pinned
    assert not re.search(r"^--(find-links|index-url|extra-index-url)", lock, re.M)
