#!/usr/bin/env bash
# Cuts a release: scripts/release.sh X.Y.Z [--push]
#   - sets the version (package.json, package-lock.json, src/common/version.ts),
#   - turns CHANGELOG.md's "## [Unreleased]" section into "## [X.Y.Z] - date" (Keep a Changelog; the older
#     "## Unreleased" heading becomes "## X.Y.Z (date)"); a new empty Unreleased section stays on top,
#   - rebuilds dist/ (the bundle the tag must carry: `uses: ...@vX.Y.Z` runs dist/index.js from the tag),
#   - commits "Release vX.Y.Z", tags vX.Y.Z (annotated) and moves the major tag vX to it,
#   - with --push: pushes the branch and vX.Y.Z, and force-pushes vX (the only tag ever moved).
# `scripts/release.sh notes X.Y.Z` prints that version's CHANGELOG section (the release notes).
# KPT_LIVE_RELEASE_SKIP_PACKAGE=1 skips the rebuild (tests of this script only).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "release: $*" >&2; exit 1; }

if [ "${1:-}" = notes ]; then
  v="${2:?usage: scripts/release.sh notes X.Y.Z}"
  awk -v v="$v" '
    /^## / {
      if (found) exit
      if (index($0, "## " v " ") == 1 || $0 == "## " v || index($0, "## [" v "]") == 1) { found = 1; next }
    }
    found { line[n++] = $0; if ($0 ~ /[^[:space:]]/) { if (first == "") first = n - 1; last = n - 1 } }
    END { if (first != "") for (i = first; i <= last; i++) print line[i] }
  ' CHANGELOG.md
  exit 0
fi

version="${1:-}"
push="${2:-}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "usage: scripts/release.sh X.Y.Z [--push] (got \"$version\")"
[ -z "$push" ] || [ "$push" = --push ] || die "unknown argument \"$push\""
tag="v$version"
major="v${version%%.*}"

git diff --quiet && git diff --cached --quiet || die "the working tree has changes: commit or stash them first"
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then die "tag $tag exists already"; fi
today="$(date -u +%Y-%m-%d)"
if grep -q '^## \[Unreleased\]$' CHANGELOG.md; then
  unreleased='## [Unreleased]' heading="## [$version] - $today"
elif grep -q '^## Unreleased$' CHANGELOG.md; then
  unreleased='## Unreleased' heading="## $version ($today)"
else
  die "CHANGELOG.md has no \"## [Unreleased]\" section to release"
fi
notes="$(awk -v h="$unreleased" '$0 == h {f=1; next} /^## / {f=0} f' CHANGELOG.md | grep -v '^[[:space:]]*$' || true)"
[ -n "$notes" ] || die "CHANGELOG.md's Unreleased section is empty: say what changed first"

npm version --no-git-tag-version --allow-same-version "$version" >/dev/null
sed -i "s/^export const VERSION = '.*';$/export const VERSION = '$version';/" src/common/version.ts
grep -q "^export const VERSION = '$version';$" src/common/version.ts || die "could not set src/common/version.ts"
awk -v h="$unreleased" -v n="$heading" '
  !done && $0 == h { print; print ""; print n; done = 1; next }
  { print }
' CHANGELOG.md >CHANGELOG.md.tmp && mv CHANGELOG.md.tmp CHANGELOG.md

if [ "${KPT_LIVE_RELEASE_SKIP_PACKAGE:-}" != 1 ]; then npm run --silent package >/dev/null; fi

git add package.json package-lock.json src/common/version.ts CHANGELOG.md
[ -d dist ] && git add -A dist
git commit -q -m "Release $tag"
git tag -a "$tag" -m "$tag"
git tag -f -a "$major" -m "$major: latest $major.x release ($tag)" >/dev/null
echo "release: committed and tagged $tag; $major now points at it"

if [ "$push" = --push ]; then
  branch="$(git rev-parse --abbrev-ref HEAD)"
  git push origin "HEAD:refs/heads/$branch" "refs/tags/$tag"
  git push --force origin "refs/tags/$major"
  echo "release: pushed $branch, $tag and $major"
fi
