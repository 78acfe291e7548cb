# Sourced by the scripts beside it: where the cross toolchain is cached (outside the work tree, so
# it survives a fresh checkout and `git clean`) and how to run a command inside its chroot.
CACHE=${BLAZEKIT_AARCH64_CACHE:-$HOME/.cache/blazekit-aarch64}
CHROOT=$CACHE/sid-amd64   # Debian sid amd64: swiftlang 6.2.3 (the cross compiler), pkgconf, lld
QEMU=$CHROOT/usr/bin/qemu-aarch64   # sid's qemu-user (statically linked, runs outside the chroot)
SDKS=$CACHE/sdks          # the Swift SDK bundle, for `swift build --swift-sdks-path`
SYSROOT=$SDKS/blazekit-aarch64.artifactbundle/aarch64-unknown-linux-gnu/sysroot   # Debian sid arm64
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
# Libraries the emulated binaries need: Swift's runtime and OpenBLAS (Debian's alternatives link
# for it is made by a postinst script, which an unpacked sysroot never runs).
GUEST_LIBS=/usr/libexec/swift/lib/swift/linux:/usr/lib/aarch64-linux-gnu/openblas-pthread

# chroot and mount need root: re-run the calling script through sudo when we are not root.
need_root() { [ "$(id -u)" -eq 0 ] || exec sudo BLAZEKIT_AARCH64_CACHE="$CACHE" "$0" "$@"; }

# in_chroot [--userspec U:G] CMD…: runs CMD in the chroot with the work tree and the SDK bundle at
# their own paths. unshare gives it a private mount namespace, so the bind mounts go away with
# the command however it ends (no mounts left behind to unmount).
in_chroot() {
  local spec=()
  if [ "${1:-}" = --userspec ]; then spec=(--userspec "$2"); shift 2; fi
  unshare --mount --propagation private -- /bin/bash -euc '
    root=$1 repo=$2 sdks=$3; shift 3
    for d in "$repo" "$sdks"; do mkdir -p "$root$d"; mount --bind "$d" "$root$d"; done
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    exec "$@"' _ "$CHROOT" "$REPO" "$SDKS" chroot "${spec[@]}" "$CHROOT" \
    /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
