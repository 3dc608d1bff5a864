#!/usr/bin/env bash
# Remove the cardtable service (see docs/setup.md).
#
#   sudo systemd/uninstall.sh           stop and remove the service, the udev rule and
#                                       the program; keep the configuration and the
#                                       match journal
#   sudo systemd/uninstall.sh --purge   also remove /etc/cardtable, /var/lib/cardtable
#                                       and the cardtable user
#   systemd/uninstall.sh --root DIR     the same inside DIR instead of /
#
# Safe to run again: what is already gone is skipped. The lines install.sh
# --config-txt added to config.txt are removed too (the buses stay on until
# the next reboot).
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

ROOT=/
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --purge) PURGE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
ROOT=$(cd "$ROOT" && pwd)
R=${ROOT%/}
LIVE=0
[ "$ROOT" = "/" ] && LIVE=1
if [ "$LIVE" = 1 ] && [ "$(id -u)" != 0 ]; then
    echo "uninstall.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi
step() { echo "==> $*"; }

if [ -e "$R/etc/systemd/system/cardtable.service" ]; then
    step "stopping and disabling the service"
    if [ "$LIVE" = 1 ]; then
        systemctl disable --now cardtable.service || true
    else
        systemctl --root="$ROOT" disable cardtable.service || true
    fi
fi
step "removing the service, the udev rule and the program"
rm -f "$R/etc/systemd/system/cardtable.service" \
      "$R/etc/udev/rules.d/99-cardtable-hub.rules" \
      "$R/etc/sysusers.d/cardtable.conf"
rm -rf "$R/opt/cardtable"
for BOOT in "$R/boot/firmware/config.txt" "$R/boot/config.txt"; do
    if [ -e "$BOOT" ] && grep -q '^# cardtable: begin' "$BOOT"; then
        step "removing cardtable's lines from $BOOT"
        # the block and the blank line install.sh put before it
        sed -i -e '/^$/{N;/\n# cardtable: begin/!{P;D}}' -e '/# cardtable: begin/,/^# cardtable: end$/d' "$BOOT"
    fi
done
if [ "$PURGE" = 1 ]; then
    step "removing the configuration, the match journal and the user cardtable"
    rm -rf "$R/etc/cardtable" "$R/var/lib/cardtable"
    if [ "$LIVE" = 1 ]; then
        if id cardtable >/dev/null 2>&1; then userdel cardtable; fi
    else
        for f in passwd shadow group gshadow; do
            [ -e "$R/etc/$f" ] || continue
            sed -i -e '/^cardtable:/d' -e 's/\([:,]\)cardtable\(,\|$\)/\1\2/; s/,$//' "$R/etc/$f"
        done
    fi
else
    step "kept /etc/cardtable and /var/lib/cardtable (remove them with --purge)"
fi
if [ "$LIVE" = 1 ]; then
    systemctl daemon-reload
    udevadm control --reload || true
fi
step "done"
