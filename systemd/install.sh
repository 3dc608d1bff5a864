#!/usr/bin/env bash
# Install cardtable as a service on a Raspberry Pi (see docs/setup.md).
#
#   sudo systemd/install.sh              install or update, then start the service
#   sudo systemd/install.sh --no-start   install, enable at boot, but do not start now
#   sudo systemd/install.sh --config-txt also switch SPI0, SPI1 (3 chip selects) and
#                                        I2C on in /boot/firmware/config.txt (reboot after)
#   systemd/install.sh --root DIR        install into DIR instead of / (tests, images):
#                                        no venv, nothing started, no command run on
#                                        this system's services
#
# Safe to run again: it updates the program and the service files, creates
# what is missing, and never touches an existing /etc/cardtable/config.toml
# or the match journal in /var/lib/cardtable.
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

ROOT=/
START=1
VENV=1
CONFIG_TXT=0
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --no-start) START=0 ;;
        --no-venv) VENV=0 ;;
        --config-txt) CONFIG_TXT=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$ROOT"
ROOT=$(cd "$ROOT" && pwd)
R=${ROOT%/}                      # "" for the real system
LIVE=0
[ "$ROOT" = "/" ] && LIVE=1
if [ "$LIVE" = 1 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi
if [ "$LIVE" = 0 ]; then
    VENV=0
    START=0
fi

step() { echo "==> $*"; }

# 1. The service's user and its device groups (gpio, spi, i2c, dialout).
step "user cardtable in groups gpio, spi, i2c, dialout"
install -d -m 0755 "$R/etc/sysusers.d"
install -m 0644 "$SOURCE/systemd/cardtable.sysusers" "$R/etc/sysusers.d/cardtable.conf"
if [ "$LIVE" = 1 ]; then
    systemd-sysusers /etc/sysusers.d/cardtable.conf
else
    systemd-sysusers --root="$ROOT" "$R/etc/sysusers.d/cardtable.conf"
fi

# 2. The program, in its own virtual environment, with the Pi's extras.
if [ "$VENV" = 1 ]; then
    step "program in /opt/cardtable/venv"
    install -d -m 0755 /opt/cardtable
    if [ ! -x /opt/cardtable/venv/bin/python ]; then
        python3 -m venv /opt/cardtable/venv
    fi
    /opt/cardtable/venv/bin/pip install --quiet --upgrade "$SOURCE[pi]"
    if grep -qs "Raspberry Pi 5" /proc/device-tree/model; then
        # RPi.GPIO cannot drive a Pi 5's GPIO; rpi-lgpio offers the same module on lgpio.
        step "Pi 5: RPi.GPIO replaced by rpi-lgpio"
        /opt/cardtable/venv/bin/pip uninstall --quiet --yes RPi.GPIO || true
        /opt/cardtable/venv/bin/pip install --quiet rpi-lgpio
    fi
fi

# 3. Configuration: the example, only if there is none yet.
install -d -m 0750 "$R/etc/cardtable"
if [ ! -e "$R/etc/cardtable/config.toml" ]; then
    step "configuration /etc/cardtable/config.toml (from examples/config.toml: edit it)"
    install -m 0640 "$SOURCE/examples/config.toml" "$R/etc/cardtable/config.toml"
else
    step "configuration /etc/cardtable/config.toml kept as it is"
fi
if [ "$LIVE" = 1 ]; then
    chgrp cardtable /etc/cardtable /etc/cardtable/config.toml
fi

# 4. The service and the hub's udev rule.
step "service /etc/systemd/system/cardtable.service, udev rule for the hub"
install -d -m 0755 "$R/etc/systemd/system" "$R/etc/udev/rules.d"
install -m 0644 "$SOURCE/systemd/cardtable.service" "$R/etc/systemd/system/cardtable.service"
install -m 0644 "$SOURCE/systemd/99-cardtable-hub.rules" \
    "$R/etc/udev/rules.d/99-cardtable-hub.rules"

# 5. Optionally, the buses in the Pi's firmware configuration.
if [ "$CONFIG_TXT" = 1 ]; then
    BOOT="$R/boot/firmware/config.txt"
    [ -e "$BOOT" ] || BOOT="$R/boot/config.txt"
    if [ ! -e "$BOOT" ]; then
        echo "install.sh: no /boot/firmware/config.txt here; add the lines of docs/hardware.md by hand" >&2
        exit 1
    fi
    if grep -q '^# cardtable: begin' "$BOOT"; then
        step "$BOOT already has cardtable's lines"
    else
        step "SPI0, SPI1 with three chip selects and I2C at 400 kHz in $BOOT (reboot to apply)"
        cat >> "$BOOT" <<'LINES'

# cardtable: begin (added by systemd/install.sh; see docs/hardware.md)
[all]
dtparam=spi=on
dtoverlay=spi1-3cs
dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=400000
# cardtable: end
LINES
    fi
fi

# 6. Enable (and start) it.
if [ "$LIVE" = 1 ]; then
    udevadm control --reload || true
    udevadm trigger --subsystem-match=tty || true
    systemctl daemon-reload
    systemctl enable cardtable.service
    if /opt/cardtable/venv/bin/cardtable config check /etc/cardtable/config.toml; then
        if [ "$START" = 1 ]; then
            step "starting cardtable"
            systemctl restart cardtable.service
        fi
    else
        echo "install.sh: fix /etc/cardtable/config.toml, then: sudo systemctl restart cardtable" >&2
    fi
else
    systemctl --root="$ROOT" enable cardtable.service
fi
step "done"
