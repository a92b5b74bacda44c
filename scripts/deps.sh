#!/usr/bin/env bash
# Installs the Debian packages smile-loop's images and tests need, when missing.
set -euo pipefail
need=()
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if ((${#need[@]})); then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${need[*]} — install them with: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
  echo "installing ${need[*]} from Debian's packages" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  echo "Docker is required but not available: start the Docker daemon (or set DOCKER_HOST) and make sure this user may use its socket" >&2
  exit 1
fi
