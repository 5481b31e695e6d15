#!/usr/bin/env bash
# Regenerates Sources/iapctl/iapctl.order, the function order the release link of iapctl follows
# (Package.swift, ARCHITECTURE.md "Start-up"): runs a release iapctl under callgrind for
# `--version` and the everyday commands on a temporary store, and writes the section of every
# function of the binary each ran, the first command's functions first, then the functions the
# next one adds, and so on, each group hottest first. Needs valgrind; the build does not.
#   bash scripts/order-file.sh [path/to/release/iapctl] [output]
# Build the release iapctl first (make build); rebuild it afterwards to link with the new order.
set -euo pipefail
bin=$(realpath "${1:-.build/release/iapctl}")
out=${2:-Sources/iapctl/iapctl.order}
command -v valgrind >/dev/null || { echo "order-file.sh: needs valgrind (apt-get install valgrind)" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store=$work/store
n=0

# One profile per command, numbered in the order of importance: the order file lists the
# functions of profile 1, then those profile 2 adds, ...
profile() {
    n=$((n + 1))
    valgrind --tool=callgrind --callgrind-out-file="$work/$(printf %03d $n).out" --dump-instr=no \
        --compress-strings=no --compress-pos=no --demangle=no "$bin" "$@" >/dev/null 2>"$work/valgrind.log" \
        || true
}

profile --version
"$bin" --store "$store" init >/dev/null
profile --store "$store" buy com.x.coin42
profile --store "$store" buy com.x.coin42
profile --store "$store" finish 2000000000000001
profile --store "$store" buy com.x.noads --json
profile --store "$store" queue
profile --store "$store" finish --all
profile --store "$store" products com.x.coin42 com.x.noads com.x.nope
profile --store "$store" show 2000000000000002
profile --store "$store" restore
profile --store "$store" launch
profile --store "$store" dump
profile --store "$store" events
profile --store "$store" receipt show
profile --store "$store" buy com.x.vip2
profile --store "$store" clock advance P1M
profile --store "$store" subscriptions
profile --store "$store" can-pay
profile --store "$store" config set payments-allowed true
profile --store "$store" sha256 'Handsome Jon'
profile --help
profile --store "$store" buy com.x.nope
profile --store "$work/fresh" init

# callgrind's output: `ob=` names the object, `fn=` the function whose cost lines follow; a cost
# line after `calls=` is a callee's inclusive cost, not the function's own. Functions of other
# objects (libc) and callgrind's recursion suffixes ('2) are dropped.
awk -v bin="$bin" '
    FNR == 1 { file++ }
    /^ob=/ { ours = (substr($0, 4) == bin); next }
    /^fn=/ {
        fn = ""
        if (ours) { fn = substr($0, 4); sub(/\x27[0-9]+$/, "", fn); if (fn ~ /^0x|^\(/) fn = "" }
        if (fn != "" && !(fn in first)) first[fn] = file
        callee = 0; next
    }
    /^calls=/ { callee = 1; next }
    /^[0-9+-]/ { if (fn != "" && !callee) cost[fn] += $2; callee = 0; next }
    END { for (f in first) printf "%d %d .text.%s\n", first[f], cost[f], f }
' "$work"/*.out | sort -k1,1n -k2,2nr -k3,3 | cut -d' ' -f3 >"$out"
echo "order-file.sh: $(wc -l <"$out") functions from $n profiles -> $out"
