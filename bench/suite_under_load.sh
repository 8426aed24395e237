#!/usr/bin/env bash
# Runs the CI test command while other processes keep every core busy.
#
# The hogs start in their own sessions: Linux autogroup scheduling shares the CPU between
# sessions, so load started from this shell's session would barely slow the bots (see
# docs/isolation.md). Usage: bash bench/suite_under_load.sh [HOGS]  (default: one per core)
set -u
cd "$(dirname "$0")/.."
hogs="${1:-$(nproc)}"
pids=()
for _ in $(seq "$hogs"); do
    setsid python3 -c 'while True: pass' &
    pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
echo "suite_under_load: $hogs busy-loop processes in their own sessions"
start=$(date +%s)
CI=true bash .ci/run
code=$?
echo "suite_under_load: exit $code after $(( $(date +%s) - start )) s"
exit "$code"
