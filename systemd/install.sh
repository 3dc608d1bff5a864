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
#   systemd/install.sh --root DIR --venv also make the venv in DIR/opt/cardtable/venv
#                                        (its Pi model read from DIR/proc/device-tree/model)
#
# The Python packages come from systemd/requirements-pi.txt, every file checked
# against its hash (pip --require-hashes; how the file is made: docs/setup.md).
# Safe to run again, on every Pi model: it updates the program and the service
# files, creates what is missing, never changes the contents of an existing
# /etc/cardtable/config.toml (only its mode: readable by cardtable and root
# alone) and never touches the match journal in /var/lib/cardtable.
set -euo pipefail

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }

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
        --venv) VENV=2 ;;
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
    [ "$VENV" = 2 ] || VENV=0
    START=0
fi
LOCK="$SOURCE/systemd/requirements-pi.txt"
# Extra pip options, for tests and offline installs (e.g. --no-index --find-links DIR).
read -r -a PIP_EXTRA <<< "${CARDTABLE_PIP_ARGS:-}"

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

# 2. The program, in its own virtual environment, with the Pi's packages.
# Which module provides RPi.GPIO depends on the model: RPi.GPIO itself cannot
# drive a Pi 5's GPIO, rpi-lgpio offers the same module on lgpio. Both install
# the same files (RPi/GPIO), so exactly one of them is installed, with
# --no-deps: mfrc522's dependency on RPi.GPIO must not bring RPi.GPIO back
# over rpi-lgpio on a Pi 5 (running this script again would then delete the
# module altogether).
MODEL=$(tr -d '\0' < "$R/proc/device-tree/model" 2>/dev/null || true)
if printf '%s' "$MODEL" | grep -Eq 'Raspberry Pi (5|500|Compute Module 5)'; then
    GPIO_DIST=rpi-lgpio; OTHER_DIST=rpi-gpio
else
    GPIO_DIST=rpi-gpio; OTHER_DIST=rpi-lgpio
fi
step "model: ${MODEL:-unknown (not a Raspberry Pi?)}; RPi.GPIO from $GPIO_DIST"
if [ "$VENV" != 0 ]; then
    if [ "$LIVE" = 1 ]; then
        # spidev and RPi.GPIO have no wheels for the Pi: they build from source.
        NEED=(gcc python3-dev python3-venv)
        case "$(uname -m)" in
            armv7l|armv6l) NEED+=(libjpeg-dev zlib1g-dev) ;;   # Pillow builds too (32-bit OS)
        esac
        MISSING=()
        for pkg in "${NEED[@]}"; do
            dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
                || MISSING+=("$pkg")
        done
        if [ "${#MISSING[@]}" -gt 0 ]; then
            step "build packages: ${MISSING[*]}"
            apt-get install -y --no-install-recommends "${MISSING[@]}"
        fi
    fi
    VENV_DIR="$R/opt/cardtable/venv"
    step "program in /opt/cardtable/venv"
    install -d -m 0755 "$R/opt/cardtable"
    if [ ! -x "$VENV_DIR/bin/python" ]; then
        python3 -m venv "$VENV_DIR"
    fi
    PY="$VENV_DIR/bin/python"
    PIP=("$PY" -m pip --disable-pip-version-check --no-input)
    FORCE=()
    if "${PIP[@]}" show --quiet "$OTHER_DIST" >/dev/null 2>&1; then
        # the SD card moved to another model: the other provider goes, and the
        # files it shared with ours are put back
        step "removing $OTHER_DIST (not for this model)"
        "${PIP[@]}" uninstall --quiet --yes "$OTHER_DIST"
        FORCE=(--force-reinstall)
    fi
    BUILD_REQS=$(mktemp)
    REQS=$(mktemp)
    trap 'rm -f "$BUILD_REQS" "$REQS"' EXIT
    # entries of the lock: an entry runs from its name line to the next one
    # (hash lines are indented); keep only "keep", or all but "drop"
    lock_entries() {
        awk -v keep="$1" -v drop="$2" '
            /^[A-Za-z0-9]/ { name = tolower($1); sub(/[=<>!~;[ ].*/, "", name)
                             gsub(/[._]/, "-", name)
                             skip = (keep != "" && index(" " keep " ", " " name " ") == 0) ||
                                    index(" " drop " ", " " name " ") > 0 }
            !skip' "$LOCK"
    }
    lock_entries "setuptools wheel" "" > "$BUILD_REQS"
    lock_entries "" "$OTHER_DIST" > "$REQS"
    # only PyPI's files (their hashes are in the lock; Raspberry Pi OS's pip
    # configuration would add piwheels, whose files have other hashes), and
    # the packages that build from source (spidev, RPi.GPIO) built with the
    # pinned setuptools, nothing fetched unchecked
    export PIP_CONFIG_FILE=/dev/null
    if grep -q '^[A-Za-z0-9]' "$BUILD_REQS"; then
        "${PIP[@]}" install --quiet --require-hashes --no-deps \
            ${PIP_EXTRA[@]+"${PIP_EXTRA[@]}"} -r "$BUILD_REQS"
    fi
    "${PIP[@]}" install --quiet --require-hashes --no-deps --no-build-isolation \
        ${FORCE[@]+"${FORCE[@]}"} ${PIP_EXTRA[@]+"${PIP_EXTRA[@]}"} -r "$REQS"
    # cardtable itself, from this folder, with nothing fetched
    "${PIP[@]}" install --quiet --no-deps --no-build-isolation --no-index --force-reinstall \
        "$SOURCE"
    if ! "$PY" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("RPi.GPIO") is None)'; then
        echo "install.sh: the module RPi.GPIO is missing after installing $GPIO_DIST" >&2
        exit 1
    fi
fi

# 3. Configuration: the example, only if there is none yet.
# It may hold the admin tags: readable by root and the group cardtable only,
# also when an older install (or an editor) left it readable by everyone.
install -d -m 0750 "$R/etc/cardtable"
if [ ! -e "$R/etc/cardtable/config.toml" ]; then
    step "configuration /etc/cardtable/config.toml (from examples/config.toml: edit it)"
    install -m 0640 "$SOURCE/examples/config.toml" "$R/etc/cardtable/config.toml"
else
    step "configuration /etc/cardtable/config.toml kept as it is"
fi
chmod 0750 "$R/etc/cardtable"
chmod 0640 "$R/etc/cardtable/config.toml"
if [ "$LIVE" = 1 ]; then
    chown root:cardtable /etc/cardtable /etc/cardtable/config.toml
elif [ "$(id -u)" = 0 ]; then
    GID=$(awk -F: '$1 == "cardtable" { print $3 }' "$R/etc/group")
    chown "0:$GID" "$R/etc/cardtable" "$R/etc/cardtable/config.toml"
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
