#!/bin/sh
# Runs CMD with Xvfb (xvfb-run), a private D-Bus session and an unlocked gnome-keyring in a throwaway HOME,
# so nut-js, the keychain and Chromium meet real counterparts. Everything it starts is stopped by PID.
set -e
export KEYRING_HOME="${KEYRING_HOME:-$(mktemp -d)}"
exec xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- sh -c '
  REAL_HOME="$HOME"; export HOME="$KEYRING_HOME"
  printf ci-pass | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
  KR=$!
  i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; do
    i=$((i+1)); [ $i -gt 100 ] && { echo "gnome-keyring did not start" >&2; break; }; sleep 0.1; done
  export HOME="$REAL_HOME"
  set +e; "$@"; rc=$?
  kill "$KR" 2>/dev/null; wait "$KR" 2>/dev/null
  exit $rc' sh "$@"
