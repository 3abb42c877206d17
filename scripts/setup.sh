#!/usr/bin/env bash
# Installs what the build and the QEMU runs need, idempotently; shared by run-qemu.sh and test.sh.
#
# Debian packages: QEMU with the GTK display and VirGL (virglrenderer), Xvfb for machines without a
# display, Mesa's GL/EGL drivers (QEMU's GL context and the host-side Mesa reference renderer), and
# virgl_test_server (the vtest host tests). Rust: the pinned toolchain with rust-src (the kernel
# target builds core/alloc from source). Prints one line per thing it installs, nothing otherwise.
set -euo pipefail

APT_PACKAGES=(qemu-system-x86 qemu-system-gui xvfb xauth libvirglrenderer1 libgl1-mesa-dri
              virgl-server libegl1 libegl-mesa0)

fail() {
    echo "setup: $*" >&2
    exit 1
}

setup_log="$(mktemp -t chrisos-setup.XXXXXX)"
trap 'rm -f "$setup_log"' EXIT

missing=()
for package in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]})); then
    echo "setup: installing Debian packages (first use only): ${missing[*]}"
    command -v apt-get >/dev/null || fail "apt-get not found: install ${missing[*]} by hand (this needs a Debian-based system)"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || fail "need root (or sudo) to install ${missing[*]}"
        sudo=(sudo)
    fi
    if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
           "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
           >"$setup_log" 2>&1; then
        tail -n 20 "$setup_log" >&2
        fail "apt-get could not install ${missing[*]} (output above)"
    fi
fi

command -v cargo >/dev/null || fail "cargo not found: install Rust with rustup (the toolchain is pinned in rust-toolchain.toml)"
if command -v rustup >/dev/null; then
    # rust-toolchain.toml asks for rust-src, but an already-installed toolchain may lack it.
    sysroot="$(rustc --print sysroot)"
    if [ ! -d "$sysroot/lib/rustlib/src/rust/library/core" ]; then
        echo "setup: adding the rust-src component (core/alloc sources for the kernel target)"
        rustup component add rust-src >"$setup_log" 2>&1 || { cat "$setup_log" >&2; fail "rustup component add rust-src failed"; }
    fi
else
    sysroot="$(rustc --print sysroot)"
    [ -d "$sysroot/lib/rustlib/src/rust/library/core" ] ||
        fail "rust-src is missing and rustup is not available to add it ($sysroot/lib/rustlib/src)"
fi
