#!/usr/bin/env bash
# make dist: static (CGO_ENABLED=0) release archives of the operator
# binaries for linux/amd64 and linux/arm64 in dist/, with SHA256SUMS, then
# checks them: the sums verify, each archive holds every binary, built for
# its architecture without cgo, and the amd64 one (on an amd64 host) prints
# the version it was stamped with.
set -euo pipefail

GO=${GO:-go}
DIST=${DIST:-dist}
LDFLAGS=${LDFLAGS:?the Makefile passes the -X flags}
VERSION=${VERSION:?the Makefile passes the version}
ARCHES=${ARCHES:-amd64 arm64}
BINARIES=(namesrv broker mqadmin controller)
# source:name in the archive (a folder named broker would clash with the binary)
# and the license, the changelog and the published pages the README's tour links (docs/*.md, the pictures)
docs=(README.md:README.md broker/README.md:README-broker.md cmd/mqadmin/README.md:README-mqadmin.md
  controller/config/README.md:README-controller-config.md
  LICENSE:LICENSE CHANGELOG.md:CHANGELOG.md)
for page in docs/*.md docs/*.png docs/*.svg; do [ -e "$page" ] && docs+=("$page:$page"); done

archives=()
for arch in $ARCHES; do archives+=("gonamesrv-$VERSION-linux-$arch.tar.gz"); done

build() {
rm -rf "$DIST"
mkdir -p "$DIST"
for arch in $ARCHES; do
  name="gonamesrv-$VERSION-linux-$arch"
  stage="$DIST/$name"
  mkdir -p "$stage"
  pkgs=()
  for b in "${BINARIES[@]}"; do pkgs+=("./cmd/$b"); done
  CGO_ENABLED=0 GOOS=linux GOARCH="$arch" "$GO" build -trimpath -ldflags "$LDFLAGS" -o "$stage/" "${pkgs[@]}"
  for d in "${docs[@]}"; do
    mkdir -p "$(dirname "$stage/${d#*:}")"
    cp "${d%%:*}" "$stage/${d#*:}"
  done
  tar -C "$DIST" -czf "$DIST/$name.tar.gz" "$name"
  rm -rf "$stage"
done
(cd "$DIST" && sha256sum "${archives[@]}" > SHA256SUMS)
}

# "scripts/dist.sh check" checks archives already built (make dist-check).
[ "${1:-}" = check ] || build

(cd "$DIST" && sha256sum --check --strict SHA256SUMS)
for a in "${archives[@]}"; do
  grep -q "  $a\$" "$DIST/SHA256SUMS" || { echo "dist: SHA256SUMS lacks $a" >&2; exit 1; }
done
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
for arch in $ARCHES; do
  name="gonamesrv-$VERSION-linux-$arch"
  tar -C "$check" -xzf "$DIST/$name.tar.gz"
  for d in "${docs[@]}"; do
    [ -f "$check/$name/${d#*:}" ] || { echo "dist: $name.tar.gz lacks ${d#*:}" >&2; exit 1; }
  done
  for b in "${BINARIES[@]}"; do
    bin="$check/$name/$b"
    [ -x "$bin" ] || { echo "dist: $name.tar.gz lacks $b" >&2; exit 1; }
    meta=$("$GO" version -m "$bin")
    grep -q "GOARCH=$arch\$" <<<"$meta" || { echo "dist: $name/$b is not built for $arch" >&2; exit 1; }
    grep -q "CGO_ENABLED=0\$" <<<"$meta" || { echo "dist: $name/$b is not static (CGO_ENABLED=0)" >&2; exit 1; }
    if [ "$arch" = "$("$GO" env GOHOSTARCH)" ]; then
      out=$("$bin" -version)
      grep -qF "$b $VERSION " <<<"$out" || { echo "dist: $name/$b -version says: $out (want version $VERSION)" >&2; exit 1; }
    fi
  done
done
echo "dist: ${archives[*]} and SHA256SUMS in $DIST/: sums verify, each holds ${BINARIES[*]} (static), LICENSE and the docs"
