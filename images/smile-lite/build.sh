#!/usr/bin/env bash
# Builds smile-lite, the small Debian bookworm learner image, without any container
# registry: debootstrap from Debian packages (cached), trimmed, then `docker import`.
#
#   bash images/smile-lite/build.sh [IMAGE_TAG]     (default smile-lite:latest)
#
# The image carries the label org.smile-loop.inputs=<sha256 of this script>; when an
# image with that label exists the build is skipped (a second run is near-instant).
# Environment: SMILE_DEB_CACHE (default /var/cache/smile-loop/debs),
# SMILE_DEB_MIRROR (default http://deb.debian.org/debian), SMILE_FORCE_BUILD=1.
set -euo pipefail

tag=${1:-smile-lite:latest}
cache=${SMILE_DEB_CACHE:-/var/cache/smile-loop/debs}
mirror=${SMILE_DEB_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
# What a deterministic run and the tests need; sudo so that tutorials saying
# `sudo apt-get install …` work as they would on a developer machine.
packages=bash,coreutils,ca-certificates,curl,git,python3,python3-venv,procps,sudo,xz-utils,less,netbase
label=org.smile-loop.inputs

self="${BASH_SOURCE[0]}"
inputs=$(sha256sum "$self" | cut -c1-32)

if ! docker info >/dev/null 2>&1; then
  echo "Docker is required but not available: start the Docker daemon (or set DOCKER_HOST) and make sure this user may use its socket" >&2
  exit 1
fi

have_image() {
  local id
  if [ "$(docker image inspect --format "{{index .Config.Labels \"$label\"}}" "$tag" 2>/dev/null)" = "$inputs" ]; then
    return 0
  fi
  # Same inputs built under another tag: reuse it.
  id=$(docker image ls --quiet --filter "label=$label=$inputs" | head -n1)
  if [ -n "$id" ]; then
    docker tag "$id" "$tag"
    return 0
  fi
  return 1
}

if [ "${SMILE_FORCE_BUILD:-}" != 1 ] && have_image; then
  echo "$tag is up to date (inputs $inputs)" >&2
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  echo "building $tag needs root for debootstrap: run 'sudo make images'" >&2
  exit 1
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing: run 'make deps' (or apt-get install debootstrap)" >&2; exit 1; }

mkdir -p "$cache"
# Several builds at once (parallel test runs) share one cache: serialise them.
exec 9>"$cache/../build.lock"
flock 9
if [ "${SMILE_FORCE_BUILD:-}" != 1 ] && have_image; then
  echo "$tag was built meanwhile (inputs $inputs)" >&2
  exit 0
fi

rootfs=$(mktemp -d /var/tmp/smile-lite.XXXXXX)
cleanup() { rm -rf --one-file-system "$rootfs"; }
trap cleanup EXIT

echo "debootstrap $suite into $rootfs (packages: $packages)" >&2
start=$(date +%s)
debootstrap --variant=minbase --cache-dir="$cache" --include="$packages" \
  "$suite" "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || {
  echo "debootstrap failed; last lines of its log:" >&2
  tail -n 30 "$rootfs.log" >&2
  rm -f "$rootfs.log"
  exit 1
}
rm -f "$rootfs.log"

# A non-root user for tutorials that refuse to run as root (ExecRequest.User=learner).
chroot "$rootfs" useradd --create-home --uid 1000 --shell /bin/bash learner
echo 'learner ALL=(ALL) NOPASSWD:ALL' >"$rootfs/etc/sudoers.d/learner"
chmod 0440 "$rootfs/etc/sudoers.d/learner"
mkdir -p "$rootfs/workspace/tutorial" "$rootfs/workspace/work" "$rootfs/workspace/logs"
chmod 0777 "$rootfs/workspace/work" "$rootfs/workspace/logs"

# apt inside the container talks to the same mirror over HTTPS-less HTTP, like debian:bookworm.
cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
SOURCES
# Keep the image small when a tutorial installs packages (as the official debian image does).
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
APT
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-excludes" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
DPKG

# Trim: package lists, caches, docs, man pages, translations, logs.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
  "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/root/.cache
find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
# Packages whose maintainer scripts link a man page with update-alternatives (every
# OpenJDK) fail when the section directory is missing; a full Debian has it.
mkdir -p "$rootfs"/usr/share/man/man1
: >"$rootfs/etc/machine-id"
rm -f "$rootfs/etc/hostname" "$rootfs/etc/resolv.conf"

tar --numeric-owner --xattrs -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'WORKDIR /workspace/work' \
  --change 'CMD ["bash"]' \
  --change "LABEL $label=$inputs" \
  --change 'LABEL org.opencontainers.image.title=smile-lite' \
  --change "LABEL org.opencontainers.image.description=\"Debian $suite learner image for smile-loop\"" \
  - "$tag" >/dev/null

echo "built $tag in $(( $(date +%s) - start ))s: $(docker image inspect --format '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1/1e6}')" >&2
