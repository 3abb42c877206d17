#!/usr/bin/env bash
# Proves that `run-qemu.sh --test` fails, and says why, for every way a guest run can go wrong:
# a failing selftest, a panic, CPU faults (#UD, #PF on null, stack overflow into the guard page; #UD
# and a stack overflow on an application processor),
# a VirGL error that only QEMU's stderr shows, and a hang ended by the timeout.
# One line per check; the full output of each run is appended to out/harness.log.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
log=out/harness.log
: >"$log"
failures=0

check() {
    local name=$1 expect=$2
    shift 2
    local output status
    output=$(./run-qemu.sh --test "$@" 2>&1)
    status=$?
    { echo "=== $name: ./run-qemu.sh --test $*"; echo "$output"; echo "(exit $status)"; } >>"$log"
    if ((status != 0)) && grep -qF -- "$expect" <<<"$output"; then
        echo "harness: $name -> exit $status, says \"$expect\""
    else
        echo "harness: $name -> NOT DETECTED (exit $status, wanted non-zero and \"$expect\"; see $log)"
        failures=$((failures + 1))
    fi
}

check "failing selftest" "FAILED: this test fails on purpose" --filter selftest_meta::
check "kernel panic" "the kernel panicked: KERNEL PANIC: crash=panic" --append crash=panic
check "CPU fault" "the CPU faulted: CPU FAULT: #UD" --append crash=fault
check "null pointer" "CPU FAULT: #PF page fault" --append crash=pagefault
check "stack overflow" "boot stack overflow: hit the guard page" --append crash=stackoverflow
check "CPU fault on an application processor" "the CPU faulted: CPU FAULT: #UD invalid opcode (vector 6) on CPU 1" --smp 2 --append crash=ap-fault
check "stack overflow on an application processor" "(CPU 1 stack overflow: hit the guard page)" --smp 2 --append crash=ap-stackoverflow
check "VirGL error on QEMU's stderr" "QEMU reported VirGL errors on stderr" --append crash=virgl
check "hang" "timed out after 5 s" --timeout 5 --append crash=hang

if ((failures)); then
    echo "harness: $failures failure path(s) not detected"
    exit 1
fi
