#!/usr/bin/env bash
# Installs the system programs the test suite runs for real (not from pip).
# On Debian/Ubuntu as root (or with sudo) it runs apt-get for what is missing;
# anywhere else it prints the exact install line and carries on (the tests that
# need a missing program then fail under CI=true and skip elsewhere).
set -u
# program:package pairs
needed="gcc:gcc mosquitto:mosquitto openssl:openssl initdb:postgresql chromium:chromium chromedriver:chromium-driver espeak-ng:espeak-ng sox:sox aplay:alsa-utils systemd-analyze:systemd taskset:util-linux"
missing=()
for pair in $needed; do
  prog=${pair%%:*}; pkg=${pair##*:}
  # (Debian keeps PostgreSQL's programs in /usr/lib/postgresql/<version>/bin)
  if ! command -v "$prog" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$prog" ] \
      && ! ls /usr/lib/postgresql/*/bin/"$prog" >/dev/null 2>&1; then
    missing+=("$pkg")
  fi
done
# Python headers for building RPi.GPIO and spidev from source.
py_inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
if [ -n "$py_inc" ] && [ ! -f "$py_inc/Python.h" ]; then missing+=("python3-dev"); fi
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
  if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
    echo "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
      exit 0
    fi
    echo "apt-get could not install: ${missing[*]}" >&2
  fi
fi
echo "Some tests need system programs that are missing. Install them with:" >&2
echo "  sudo apt-get install ${missing[*]}" >&2
exit 0
