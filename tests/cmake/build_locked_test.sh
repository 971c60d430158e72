#!/usr/bin/env bash
# scripts/build-locked: a second command on the same build dir waits, with its message, until
# the first one ends; a command on another dir does not wait.
set -euo pipefail
locked="$1"
work="$(mktemp -d)"
# (on failure: let the holder go, so that it does not wait forever)
trap 'touch "$work/go"; wait; rm -rf "$work"' EXIT
mkdir -p "$work/build" "$work/other"
# the holder says when it holds the lock, then keeps it until told to go
"$locked" "$work/build" bash -c "echo first >> '$work/log'; touch '$work/held'; while [ ! -e '$work/go' ]; do sleep 0.05; done; echo first-end >> '$work/log'" &
holder=$!
while [ ! -e "$work/held" ]; do sleep 0.05; done
"$locked" "$work/other" bash -c "echo other >> '$work/log'" 2> "$work/other.err"
"$locked" "$work/build" bash -c "echo second >> '$work/log'" 2> "$work/second.err" &
waiter=$!
# the waiter must be blocked (its message printed, its command not run) while the holder runs
for _ in $(seq 100); do grep -q "waiting" "$work/second.err" && break; sleep 0.05; done
grep -q "another build in $work/build holds .*waiting" "$work/second.err" || { echo "FAIL: no waiting message"; cat "$work/second.err"; exit 1; }
if grep -q second "$work/log"; then echo "FAIL: the second command ran while the lock was held"; exit 1; fi
touch "$work/go"
wait "$holder" "$waiter"
expected=$'first\nother\nfirst-end\nsecond'
[ "$(cat "$work/log")" = "$expected" ] || { echo "FAIL: order"; cat "$work/log"; exit 1; }
[ ! -s "$work/other.err" ] || { echo "FAIL: another dir waited"; cat "$work/other.err"; exit 1; }
echo "PASS: build-locked serializes one build dir"
