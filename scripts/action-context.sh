#!/usr/bin/env bash
# Stage the build context of the Action image (Dockerfile at the repository root):
#   scripts/action-context.sh DIR ARCH=BINARY [ARCH=BINARY...]
# e.g. scripts/action-context.sh bin/action-context amd64=bin/smile-action
# ARCH is Docker's TARGETARCH (amd64, arm64). Each BINARY must be a static
# (CGO_ENABLED=0) linux build of ./cmd/smile-action.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 DIR ARCH=BINARY [ARCH=BINARY...]" >&2
  exit 2
fi
dir=$1
shift
certs=${CA_CERTIFICATES:-/etc/ssl/certs/ca-certificates.crt}
if [ ! -s "$certs" ]; then
  echo "no CA certificates at $certs: install them (apt-get install ca-certificates) or set CA_CERTIFICATES" >&2
  exit 1
fi

rm -rf "$dir"
mkdir -p "$dir/rootfs/etc/ssl/certs" "$dir/rootfs/tmp"
chmod 1777 "$dir/rootfs/tmp"
cp "$certs" "$dir/rootfs/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' >"$dir/rootfs/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$dir/rootfs/etc/group"

for pair in "$@"; do
  arch=${pair%%=*}
  bin=${pair#*=}
  if [ "$arch" = "$pair" ] || [ -z "$arch" ] || [ ! -f "$bin" ]; then
    echo "$pair: want ARCH=BINARY with an existing binary (build it with 'make build')" >&2
    exit 1
  fi
  mkdir -p "$dir/$arch"
  cp "$bin" "$dir/$arch/smile-action"
  chmod 0755 "$dir/$arch/smile-action"
done
