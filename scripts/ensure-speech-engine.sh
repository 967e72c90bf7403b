#!/usr/bin/env bash
# Installs the system speech engine pyttsx3 needs on Linux (Debian's espeak-ng) when it is missing.
# Never fails the build: without it the referee still runs, muted, and says so.
set -u
[ "$(uname -s)" = Linux ] || exit 0   # macOS and Windows use their own system voices
if command -v espeak-ng >/dev/null 2>&1; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
  if [ "$SUDO" != none ]; then
    echo "Installing the speech engine espeak-ng (Debian package) ..."
    if $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq espeak-ng >/dev/null; then
      exit 0
    fi
  fi
fi
echo "NOTE: the speech engine espeak-ng is missing and could not be installed here." >&2
echo "      Install it with 'sudo apt-get install espeak-ng' (or your system's package manager)." >&2
echo "      Until then the referee runs muted; everything else works." >&2
exit 0
