#!/usr/bin/env bash
# Runs the shader fuzz targets (shader/fuzz) one after the other, single job each.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s, frontend csir exec guest
# Installs cargo-fuzz (nightly) when it is missing. Corpora live in shader/fuzz/corpus/<target>
# (not committed) and are re-seeded on every run from the committed minimized corpora
# (shader/fuzz/corpus-min/<target>, replayed by `cargo test -p shader --test fuzz_corpus`), from
# shader/tests/in (frontend, exec) and from CSIR blobs that shc saves from a few of those sources
# (csir; a source that cannot be saved in a version, such as v1 for DIV/SQRT, is skipped).
# FUZZ_MINIMIZE=1 rewrites shader/fuzz/corpus-min/<target> after fuzzing: libFuzzer's merge of
# the old minimized corpus and this run's corpus (inputs that add coverage), then at most
# FUZZ_MIN_FILES (default 40) of them per target, spread over their sizes. Crash inputs are written to
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

# Seeds. frontend: 1 options byte (bit 0 = stage, bit 1 = profile 2) + source; exec: options byte (bit 0 = stage) + uniform seed
# byte + source; csir: mode byte (0 as is; 3 fix the checksum, draw) + v1 or v2 blob.
for t in frontend csir exec guest; do
    mkdir -p "$fuzz/corpus/$t"
    if [ -d "$fuzz/corpus-min/$t" ]; then cp "$fuzz/corpus-min/$t"/* "$fuzz/corpus/$t"/ 2>/dev/null || true; fi
done
for f in "$root"/shader/tests/in/*.vert "$root"/shader/tests/in/*.frag; do
    b=$(basename "$f")
    case "$b" in *.frag) s='\001' ;; *) s='\000' ;; esac
    { printf "$s"; cat "$f"; } >"$fuzz/corpus/frontend/seed_$b"
    # Profile-2 sources (their pragma) also as profile-2 compiles (options bit 1).
    if grep -q '^#pragma chrisos profile 2' "$f"; then
        case "$b" in *.frag) p='\003' ;; *) p='\002' ;; esac
        { printf "$p"; cat "$f"; } >"$fuzz/corpus/frontend/seed_p2_$b"
    fi
    case "$b" in err_*) continue ;; esac
    case "$b" in *.frag) o='\003' ;; *) o='\002' ;; esac
    { printf "$o\007"; cat "$f"; } >"$fuzz/corpus/exec/seed_$b"
done
# The profile-2 compatibility suite (real-application GLSL 3.30 with macros) as profile-2 seeds.
for f in "$root"/tools/shc/tests/compat/*.vert "$root"/tools/shc/tests/compat/*.frag; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    case "$b" in *.frag) p='\003' ;; *) p='\002' ;; esac
    { printf "$p"; cat "$f"; } >"$fuzz/corpus/frontend/seed_compat_$b"
done
if [[ " ${targets[*]} " == *" csir "* ]]; then
    for b in tri.vert tri.frag tex.frag light.vert light.frag world.frag ok_builtins.frag \
        ok_samplers_4.frag ok_uniforms_32_slots.vert ok_varyings_8.vert ok_instructions.vert \
        ok_functions.vert ok_discard.frag ok_fragcoord.frag; do
        for v in v1 v2; do
            if ! (cd "$root" && cargo run -q -p shc -- csir save "shader/tests/in/$b" \
                -o "$fuzz/corpus/csir/blob.tmp" "--$v" 2>/dev/null); then
                echo "seed: $b cannot be saved as $v, skipped" >&2
                continue
            fi
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
    # Longest input: a whole CSIR blob (CSIR_MAX = 9176 bytes) plus the mode byte; a source one
    # past profile 1's 4095-byte limit plus the option bytes (libFuzzer's default is 4096);
    # frontend: 8 KiB, room for profile-2 macro soup (longer sources only add time per run).
    case "$t" in csir) dict+=(-max_len=9177) ;; exec) dict+=(-max_len=4100) ;; frontend) dict+=(-max_len=8192) ;; esac
    set +e
    (cd "$fuzz" && cargo +nightly fuzz run "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$fuzz/artifacts/$t/" "${dict[@]}") 2>&1 | tee "$log" | grep -E '^(==|INFO: seed|#[0-9]+ +DONE|Done|stat::number_of_executed_units|SUMMARY|.*panicked|artifact_prefix|Test unit written)' >&2
    rc=${PIPESTATUS[0]}
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ "$rc" -eq 0 ] && [ "${FUZZ_MINIMIZE:-0}" = 1 ]; then
        min="$fuzz/corpus-min/$t"
        new="$fuzz/corpus-min.new/$t"
        rm -rf "$new" && mkdir -p "$new" "$min"
        # The binary cargo fuzz built (cargo fuzz run would put its own corpus first, and merge
        # writes into the first directory).
        bin="$fuzz/target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release/$t"
        "$bin" -merge=1 "${dict[@]}" "$new" "$min" "$fuzz/corpus/$t" >>"$log" 2>&1 || true
        # At most FUZZ_MIN_FILES of the merged inputs, spread evenly over their sizes (small
        # inputs hit the early rejections, large ones the deep paths).
        rm -f "$min"/*
        ls -S -r "$new" | awk -v c="${FUZZ_MIN_FILES:-40}" '{ a[NR] = $0 }
            END { s = int((NR + c - 1) / c); if (s < 1) s = 1; for (i = 1; i <= NR; i += s) print a[i] }' |
            while read -r f; do cp "$new/$f" "$min/"; done
        rm -rf "$fuzz/corpus-min.new"
        echo "$t: minimized corpus $(ls "$min" | wc -l) files" >&2
    fi
    summary+=("$t: rc=$rc executions=${runs:-?}")
    if [ "$rc" -ne 0 ]; then
        status=1
        echo "$t failed; reproduce with: (cd shader/fuzz && cargo +nightly fuzz run $t ARTIFACT)" >&2
    fi
done
printf '%s\n' "${summary[@]}" >&2
exit $status
