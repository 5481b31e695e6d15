#!/usr/bin/env bash
# A real purchase scenario on the built-in catalog, in a fresh temporary store: every line is a
# command a user could type, and what it printed.
set -euo pipefail
bin=${1:-.build/release/iapctl}
store=$(mktemp -d)/demo-store
trap 'rm -rf "$(dirname "$store")"' EXIT
show() { printf '\n$ iapctl'; printf ' %q' "$@"; printf '\n'; }
step() { show "$@"; "$bin" --store "$store" "$@" 2>&1; }
try() { show "$@"; set +e; "$bin" --store "$store" "$@" 2>&1; printf '(exit %d)\n' $?; set -e; }

step init --bundle-id com.example.coins --app-version 1.2
step products com.x.coin42 com.x.noads com.x.vip2 com.x.nope
step products com.x.coin42 --storefront CHN
step products com.x.coin42 --storefront JPN
step sha256 'Handsome Jon'
step buy com.x.coin42 --account 'Handsome Jon' --quantity 2
step buy com.x.noads
step queue
step finish 2000000000000001 2000000000000002
try finish 2000000000000001
step buy com.x.noads
step restore
step launch
step finish --all
step config set payments-allowed false
try buy com.x.coin210
try can-pay
step config set payments-allowed true
printf '\n$ iapctl events --since 19 | cut -c1-110\n'
"$bin" --store "$store" events --since 19 | cut -c1-110
printf '\n$ iapctl dump | jq length\n'
if command -v jq >/dev/null; then "$bin" --store "$store" dump | jq length
else "$bin" --store "$store" dump | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; fi
step buy com.x.vip2
step clock advance P3M
step subscriptions
step verify --product com.x.vip2
step doctor
