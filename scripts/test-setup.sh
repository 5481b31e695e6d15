#!/usr/bin/env bash
# What `make test` needs besides Swift, set up without root: Apple's app-store-server-library in a
# virtual environment under .build/ (made once from requirements-test.txt, made again when that
# file changes), and a check of the system tools the interop tests run.
#
# Nothing here stops the test run. A missing tool gets one line naming the Debian package; the
# tests that need it then fail with the same fix named, and every other test still runs.
#   scripts/test-setup.sh VENV_DIR
set -uo pipefail
venv=${1:-.build/venv}
python=${PYTHON:-python3}

missing() { printf 'warning: %s is not installed; the tests that use it will fail (Debian: apt-get install %s)\n' "$1" "$2" >&2; }

for tool in openssl jq curl git; do
  command -v "$tool" >/dev/null 2>&1 || missing "$tool" "$tool"
done

if ! command -v "$python" >/dev/null 2>&1; then
  missing "$python" "python3 python3-venv"
  exit 0
fi
if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  missing "$python's venv module" "python3-venv"
  exit 0
fi

# Up to date: made from the same requirements, and its python still runs.
stamp="$venv/requirements-test.txt"
if cmp -s requirements-test.txt "$stamp" && "$venv/bin/python" -c 'import appstoreserverlibrary' >/dev/null 2>&1; then
  exit 0
fi

echo "setting up $venv from requirements-test.txt (Apple's app-store-server-library, for the interop tests)"
rm -rf "$venv"
# On a fresh clone `make test` may run before anything has made .build/.
mkdir -p "$(dirname "$venv")"
log="$venv.log"
if "$python" -m venv "$venv" >"$log" 2>&1 \
  && "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-test.txt >>"$log" 2>&1; then
  cp requirements-test.txt "$stamp"
  rm -f "$log"
else
  printf 'warning: could not install requirements-test.txt into %s (pip needs the network or a wheel cache; see %s); the tests that run Apple'\''s library will fail\n' \
    "$venv" "$log" >&2
  rm -rf "$venv"
fi
exit 0
