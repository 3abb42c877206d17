#!/usr/bin/env bash
# Runs the shader fuzz targets (shader/fuzz) one after the other, single job each.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s, frontend csir exec guest
# Installs cargo-fuzz (nightly) when it is missing. Corpora live in shader/fuzz/corpus/<target>
# (not committed) and are re-seeded on every run from shader/tests/in (frontend, exec) and from
# CSIR blobs that shc saves from a few of those sources (csir). Crash inputs are written to
# shader/fuzz/artifacts/<target>/. Exits non-zero when any target found a crash, a timeout or a
# leak. Not part of the test suite: CI has no nightly toolchain.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fuzz="$root/shader/fuzz"
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontend csir exec guest)
case "$secs" in '' | *[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 2 ;; esac

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo +nightly install cargo-fuzz --locked
fi

# Seeds. frontend: 1 stage byte + source; exec: options byte (bit 0 = stage) + uniform seed
# byte + source; csir: mode byte (0 as is; 3 fix the checksum, draw) + v1 or v2 blob.
for t in frontend csir exec guest; do mkdir -p "$fuzz/corpus/$t"; done
for f in "$root"/shader/tests/in/*.vert "$root"/shader/tests/in/*.frag; do
    b=$(basename "$f")
    case "$b" in *.frag) s='\001' ;; *) s='\000' ;; esac
    { printf "$s"; cat "$f"; } >"$fuzz/corpus/frontend/seed_$b"
    case "$b" in err_*) continue ;; esac
    case "$b" in *.frag) o='\003' ;; *) o='\002' ;; esac
    { printf "$o\007"; cat "$f"; } >"$fuzz/corpus/exec/seed_$b"
done
if [[ " ${targets[*]} " == *" csir "* ]]; then
    for b in tri.vert tri.frag tex.frag light.vert light.frag world.frag ok_builtins.frag \
        ok_samplers_4.frag ok_uniforms_32_slots.vert ok_varyings_8.vert ok_instructions.vert \
        ok_functions.vert ok_discard.frag ok_fragcoord.frag; do
        for v in v1 v2; do
            (cd "$root" && cargo run -q -p shc -- csir save "shader/tests/in/$b" \
                -o "$fuzz/corpus/csir/blob.tmp" "--$v")
            { printf '\000'; cat "$fuzz/corpus/csir/blob.tmp"; } >"$fuzz/corpus/csir/seed_${b}_$v"
            { printf '\003'; cat "$fuzz/corpus/csir/blob.tmp"; } >"$fuzz/corpus/csir/seed_${b}_${v}_draw"
        done
    done
    rm -f "$fuzz/corpus/csir/blob.tmp"
fi

status=0
summary=()
for t in "${targets[@]}"; do
    echo "== fuzzing $t for ${secs}s" >&2
    log="$fuzz/artifacts/$t.log"
    mkdir -p "$fuzz/artifacts/$t"
    dict=()
    case "$t" in frontend | exec) dict=(-dict="$fuzz/glsl.dict") ;; esac
    set +e
    (cd "$fuzz" && cargo +nightly fuzz run "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$fuzz/artifacts/$t/" "${dict[@]}") 2>&1 | tee "$log" | grep -E '^(==|INFO: seed|#[0-9]+ +DONE|Done|stat::number_of_executed_units|SUMMARY|.*panicked|artifact_prefix|Test unit written)' >&2
    rc=${PIPESTATUS[0]}
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    summary+=("$t: rc=$rc executions=${runs:-?}")
    if [ "$rc" -ne 0 ]; then
        status=1
        echo "$t failed; reproduce with: (cd shader/fuzz && cargo +nightly fuzz run $t ARTIFACT)" >&2
    fi
done
printf '%s\n' "${summary[@]}" >&2
exit $status
