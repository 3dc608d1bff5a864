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
EDITED=$(mktemp)
trap 'rm -f "$EDITED"' EXIT

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
# config.txt: only the lines from "# cardtable: begin" to "# cardtable: end"
# (and the blank line install.sh put before them), and only when both markers
# are there; anything else in the file is the user's.
for BOOT in "$R/boot/firmware/config.txt" "$R/boot/config.txt"; do
    [ -e "$BOOT" ] || continue
    BEGIN=$(grep -n -m1 '^# cardtable: begin' "$BOOT" | cut -d: -f1 || true)
    [ -n "$BEGIN" ] || continue
    END=$(awk -v from="$BEGIN" 'NR > from && /^# cardtable: end$/ { print NR; exit }' "$BOOT")
    if [ -z "$END" ]; then
        echo "uninstall.sh: $BOOT has \"# cardtable: begin\" (line $BEGIN) but no" \
             "\"# cardtable: end\" after it: left as it is; remove cardtable's lines by hand" >&2
        continue
    fi
    step "removing cardtable's lines $BEGIN-$END from $BOOT"
    awk -v from="$BEGIN" -v to="$END" '
        NR == from - 1 && $0 == "" { next }
        NR >= from && NR <= to { next }
        { print }' "$BOOT" > "$EDITED"
    cat "$EDITED" > "$BOOT"             # the same file: its owner and mode stay
done
if [ "$PURGE" = 1 ]; then
    step "removing the configuration, the match journal and the user cardtable"
    rm -rf "$R/etc/cardtable" "$R/var/lib/cardtable"
    if [ "$LIVE" = 1 ]; then
        # userdel also takes cardtable out of every group's member list
        if id cardtable >/dev/null 2>&1; then userdel cardtable; fi
        if getent group cardtable >/dev/null; then groupdel cardtable; fi
    else
        # the user's and its group's own lines, and the exact name "cardtable"
        # from the member lists (group: 4th field; gshadow: admins and members)
        for f in passwd shadow group gshadow; do
            [ -e "$R/etc/$f" ] || continue
            awk -F: -v OFS=: -v file="$f" '
                function drop(list,   n, i, parts, out) {
                    n = split(list, parts, ","); out = ""
                    for (i = 1; i <= n; i++)
                        if (parts[i] != "cardtable") out = out (out == "" ? "" : ",") parts[i]
                    return out
                }
                $1 == "cardtable" { next }
                file == "group" && NF >= 4 { $4 = drop($4) }
                file == "gshadow" && NF >= 4 { $3 = drop($3); $4 = drop($4) }
                { print }' "$R/etc/$f" > "$EDITED"
            cat "$EDITED" > "$R/etc/$f"
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
