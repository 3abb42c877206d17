#!/usr/bin/env bash
# The main job: build the kernel and boot it in QEMU with virtio-gpu-gl (VirGL).
#
#   ./run-qemu.sh                    main job: the selftests, then the demo (out/screenshot.png)
#   ./run-qemu.sh --test             selftests only; exit status tells whether everything passed
#   options: --filter PREFIX  --append "ARGS"  --timeout SECONDS  --backend auto|software|virgl|mock
#            --frames N (demo frames; default about 4 s of animation)
#            --smp N (guest CPUs; default 2, or the host's core count if fewer)
#
# The serial console is this script's standard output. QEMU's stderr goes to out/qemu-stderr.log
# and is scanned for VirGL errors (virglrenderer reports a bad command only there). Port 0xe9
# (debugcon) is written to out/screenshot.ppm for guest screenshots.
set -euo pipefail
cd "$(dirname "$0")"

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

test_mode=0
filter=""
append=""
timeout_s=""
backend=""
frames=""
smp=""
while (($#)); do
    case "$1" in
        --test) test_mode=1 ;;
        --filter) filter="${2:?--filter needs a PREFIX}"; shift ;;
        --append) append="${2?--append needs ARGS}"; shift ;;
        --timeout) timeout_s="${2:?--timeout needs SECONDS}"; shift ;;
        --backend) backend="${2:?--backend needs a NAME}"; shift ;;
        --frames) frames="${2:?--frames needs N}"; shift ;;
        --smp) smp="${2:?--smp needs N}"; shift ;;
        -h|--help) usage 0 ;;
        *) echo "run-qemu: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done
if [ -z "$timeout_s" ]; then
    # Test runs must end on their own; the main job runs until the guest (or the user) ends it.
    if ((test_mode)); then timeout_s=600; else timeout_s=0; fi
fi
[[ "$timeout_s" =~ ^[0-9]+$ ]] || { echo "run-qemu: --timeout wants whole seconds, got '$timeout_s'" >&2; exit 2; }
if [ -z "$smp" ]; then
    # Two guest CPUs, or fewer when the host has fewer cores (one TCG thread per guest CPU).
    host_cores=$(nproc 2>/dev/null || echo 1)
    smp=$((host_cores < 2 ? host_cores : 2))
fi
[[ "$smp" =~ ^[1-9][0-9]*$ ]] && ((smp <= 16)) ||
    { echo "run-qemu: --smp wants a CPU count from 1 to 16 (the kernel's MAX_CPUS), got '$smp'" >&2; exit 2; }

say() { echo "run-qemu: $*"; }
die() { echo "run-qemu: $*" >&2; exit 1; }

bash scripts/setup.sh

# --- Can this machine run QEMU with GL at all? Say exactly why not. ---
QEMU=qemu-system-x86_64
command -v "$QEMU" >/dev/null || die "cannot run: $QEMU is not installed (Debian package qemu-system-x86)"
"$QEMU" -display help 2>/dev/null | grep -qw gtk ||
    die "cannot run: this QEMU has no GTK display, the only display that runs VirGL here (Debian package qemu-system-gui)"
"$QEMU" -device help 2>/dev/null | grep -q '"virtio-gpu-gl-pci"' ||
    die "cannot run: this QEMU has no virtio-gpu-gl-pci device (it was built without OpenGL/virglrenderer; Debian package libvirglrenderer1)"
wrap=()
if [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null ||
        die "cannot run: no DISPLAY is set and xvfb-run is missing (Debian package xvfb); QEMU's GTK/GL display needs an X server"
    wrap=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi

# --- Build (the unstable flags stay here: host builds and cargo test never see them). ---
say "building the kernel (release, target x86_64-chrisos.json)"
RUSTC_BOOTSTRAP=1 cargo build --quiet -p kernel --release --target x86_64-chrisos.json \
    -Z build-std=core,alloc,compiler_builtins -Z build-std-features=compiler-builtins-mem \
    -Z json-target-spec || die "the kernel build failed (errors above)"
kernel=target/x86_64-chrisos/release/kernel

# --- Command line ---
if ((test_mode)); then cmdline="selftest"; else cmdline="demo"; fi
[ -n "$filter" ] && cmdline+=" filter=$filter"
[ -n "$backend" ] && cmdline+=" backend=$backend"
[ -n "$frames" ] && cmdline+=" frames=$frames"
[ -n "$append" ] && cmdline+=" $append"

mkdir -p out
stderr_log=out/qemu-stderr.log
serial_log=out/serial.log
result_file=out/guest-result.txt
screenshot=out/screenshot.ppm
rm -f "$stderr_log" "$serial_log" "$result_file" "$screenshot"

# TCG (KVM is not used here, see docs/ARCHITECTURE.md), one host thread per guest CPU.
qemu_cmd=("$QEMU" -M q35 -accel tcg,thread=multi -smp "$smp" -m 1G -vga none -nic none
          -serial stdio -no-reboot
          -device isa-debug-exit,iobase=0xf4,iosize=0x04
          -device virtio-gpu-gl-pci -display gtk,gl=on
          -debugcon "file:$screenshot"
          -kernel "$kernel" -append "$cmdline")
timer=()
if ((timeout_s > 0)); then timer=(timeout --kill-after=5 "$timeout_s"); fi

say "booting: $QEMU ... -smp $smp -append \"$cmdline\"${timer:+ (timeout ${timeout_s} s)}"
start=$EPOCHREALTIME
first_line_ms=""
set +e
{
    "${wrap[@]}" "${timer[@]}" "${qemu_cmd[@]}" </dev/null 2>"$stderr_log"
    echo "$?" >out/.qemu-status
} | while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line"
    printf '%s\n' "$line" >>"$serial_log"
    if [ -z "$first_line_ms" ]; then
        now=$EPOCHREALTIME
        first_line_ms=$(( (${now/./} - ${start/./}) / 1000 ))
        echo "run-qemu: first serial line ${first_line_ms} ms after starting ${wrap:+Xvfb and }QEMU"
    fi
done
set -e
status=$(cat out/.qemu-status 2>/dev/null || echo 255)
rm -f out/.qemu-status

count_line=""
if [ -f "$serial_log" ]; then
    count_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$serial_log" | tail -n 1 || true)
fi
[ -n "$count_line" ] && echo "$count_line" >"$result_file"

problems=()
case "$status" in
    33) ;;
    35) problems+=("the guest reported failing selftests (lines with FAILED above)") ;;
    37) problems+=("the kernel panicked: $(grep -m1 'KERNEL PANIC' "$serial_log" 2>/dev/null || echo '(no message)')") ;;
    39) problems+=("the CPU faulted: $(grep -m1 'CPU FAULT' "$serial_log" 2>/dev/null || echo '(no message)')") ;;
    41) problems+=("the kernel could not boot: $(grep -m1 'boot error' "$serial_log" 2>/dev/null || echo '(no message)')") ;;
    124|137) problems+=("timed out after ${timeout_s} s: the guest hung or ran too long, QEMU was stopped") ;;
    0) problems+=("QEMU ended without a verdict from the guest (window closed, or the guest reset: a triple fault)") ;;
    *)
        problems+=("QEMU failed with status $status")
        if [ ! -s "$serial_log" ]; then
            problems+=("QEMU could not start with GL here; its error output: $(head -c 2000 "$stderr_log" | tr '\n' ' ')")
        fi ;;
esac
if virgl_errors=$(grep -E 'context error|failed to dispatch|failed to convert' "$stderr_log"); then
    problems+=("QEMU reported VirGL errors on stderr (full log: $stderr_log):")
    while IFS= read -r l; do problems+=("  $l"); done <<<"$(head -n 20 <<<"$virgl_errors")"
fi
# The demo writes its last frame as a PPM to the debug console; keep a PNG of it.
png=out/screenshot.png
rm -f "$png"
if [ -s "$screenshot" ]; then
    if python3 scripts/ppm2png.py "$screenshot" "$png"; then
        say "screenshot of the last frame: $(pwd)/$png"
    else
        problems+=("the guest's screenshot ($screenshot) could not be converted to PNG (reason above)")
    fi
fi
if ((test_mode)) && [ "$status" = 33 ] && [ -z "$count_line" ]; then
    problems+=("the guest exited successfully but printed no 'N passed, N failed' line")
fi

if ((${#problems[@]})); then
    for p in "${problems[@]}"; do echo "run-qemu: FAILED: $p"; done
    # Keep the guest's count as the final line, as on success.
    [ -n "$count_line" ] && echo "$count_line"
    exit 1
fi
exit 0
