#!/usr/bin/env bash
# The release workflow's first step: checks that the pushed tag is a release the
# repository is ready for, and prints the values the later jobs use, as GITHUB_OUTPUT lines:
#   scripts/release-version.sh v1.2.3 OWNER   →  version=1.2.3 minor=1.2 major=1 owner=<lowercase> prerelease=false
# Ready means: action.yml runs docker://ghcr.io/<owner>/smile-action:<version> (the image
# this release publishes) and CHANGELOG.md has a "## [<version>]" section.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 TAG OWNER" >&2
  exit 2
fi
tag=$1
owner=$(printf '%s' "$2" | tr '[:upper:]' '[:lower:]') # GHCR names are lowercase
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if ! [[ $tag =~ ^v(([0-9]+)\.([0-9]+)\.([0-9]+))(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "tag $tag is not a release version: push tags like v1.2.3 (or v1.2.3-rc.1)" >&2
  exit 1
fi
version=${tag#v}
major=${BASH_REMATCH[2]}
minor=${BASH_REMATCH[2]}.${BASH_REMATCH[3]}
prerelease=false
[ -n "${BASH_REMATCH[5]}" ] && prerelease=true

want="docker://ghcr.io/$owner/smile-action:$version"
have=$(sed -n 's/^  image: *//p' "$root/action.yml" | tr -d '"'"'"'')
if [ "$have" != "$want" ]; then
  echo "action.yml runs '$have', not this release's image '$want': set runs.image to it, commit, and move the tag $tag to that commit" >&2
  exit 1
fi
if ! grep -q "^## \[$version\]" "$root/CHANGELOG.md"; then
  echo "CHANGELOG.md has no '## [$version]' section: rename [Unreleased] to it (Keep a Changelog), commit, and move the tag $tag to that commit" >&2
  exit 1
fi

printf 'version=%s\nminor=%s\nmajor=%s\nowner=%s\nprerelease=%s\n' "$version" "$minor" "$major" "$owner" "$prerelease"
