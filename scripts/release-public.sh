#!/usr/bin/env bash
# Checks that each released image can be pulled anonymously, as a user's runner pulls it:
#   scripts/release-public.sh OWNER VERSION IMAGE...
# GHCR creates a package private on its first push, and GitHub has no API to change a
# package's visibility (cli/cli#6820), so this cannot make them public: it fails the
# release with the settings page to flip, before the major and minor tags move.
# REGISTRY_URL (default https://ghcr.io) is for tests.
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 OWNER VERSION IMAGE..." >&2
  exit 2
fi
owner=$1
version=$2
shift 2
registry=${REGISTRY_URL:-https://ghcr.io}
accept='application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json'
failed=0
for image in "$@"; do
  repo="$owner/$image"
  # The anonymous token GHCR hands to `docker pull` (no credentials sent); registries
  # without a token service answer the manifest request directly.
  token=$(curl -sS "$registry/token?scope=repository:$repo:pull" 2>/dev/null | sed -n 's/.*"token" *: *"\([^"]*\)".*/\1/p' || true)
  auth=()
  [ -n "$token" ] && auth=(-H "Authorization: Bearer $token")
  code=$(curl -sS -o /dev/null -w '%{http_code}' "${auth[@]}" -H "Accept: $accept" "$registry/v2/$repo/manifests/$version" || echo 000)
  if [ "$code" = 200 ]; then
    echo "$repo:$version can be pulled anonymously"
  else
    echo "::error::$repo:$version cannot be pulled without credentials (HTTP $code): make the package public once at https://github.com/$owner?tab=packages → $image → Package settings → Change visibility, then re-run this job" >&2
    failed=1
  fi
done
exit $failed
