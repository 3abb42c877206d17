#!/usr/bin/env bash
# The whole test suite: host tests of every crate, the harness's own failure-path checks, then the
# in-guest selftests under QEMU. Fails if any part fails. The last line printed is the guest's
# `N passed, N failed`. The guest suite runs twice: on one CPU (--smp 1) and on the default CPUs.
set -uo pipefail
cd "$(dirname "$0")"

bash scripts/setup.sh || exit 1

echo "test.sh: host tests (cargo test --workspace)"
cargo test --workspace
host_status=$?

echo "test.sh: harness failure paths (scripts/check-harness.sh)"
bash scripts/check-harness.sh
harness_status=$?

echo "test.sh: guest selftests on one CPU (./run-qemu.sh --test --smp 1)"
./run-qemu.sh --test --smp 1
one_cpu_status=$?

echo "test.sh: guest selftests (./run-qemu.sh --test)"
./run-qemu.sh --test
guest_status=$?

if ((host_status != 0 || harness_status != 0 || one_cpu_status != 0)); then
    ((host_status != 0)) && echo "test.sh: FAILED: the host tests failed (cargo test --workspace, output above)"
    ((harness_status != 0)) && echo "test.sh: FAILED: run-qemu.sh missed a failure path (scripts/check-harness.sh, above)"
    ((one_cpu_status != 0)) && echo "test.sh: FAILED: the guest selftests failed on one CPU (./run-qemu.sh --test --smp 1, above)"
    # Keep the guest's count as the final line.
    [ -f out/guest-result.txt ] && cat out/guest-result.txt
    exit 1
fi
exit "$guest_status"
