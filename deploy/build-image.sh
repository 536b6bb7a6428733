#!/usr/bin/env bash
# Builds the stampede image (deploy/Containerfile) from a built binary and Debian's packages, with
# no base image to pull: rootfs/ gets the binary, the shared libraries it loads, busybox-static's
# sh and tools (deploy/k8s/shard.sh needs sh, base64), CA certificates, /tmp and a passwd.
#   deploy/build-image.sh [BINARY=build/stampede] [TAG=localhost/stampede:VERSION]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=$(realpath "${1:-build/stampede}")
[[ -x $binary ]] || { echo "build-image.sh: no stampede binary at $binary (build it first)" >&2; exit 1; }
tag=${2:-localhost/stampede:$("$binary" --version | awk '{print $2}')}
missing=()
command -v podman >/dev/null || command -v docker >/dev/null || missing+=(podman)
[[ -x /bin/busybox ]] || missing+=(busybox-static)
[[ -f /etc/ssl/certs/ca-certificates.crt ]] || missing+=(ca-certificates)
if ((${#missing[@]})); then
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
engine=$(command -v podman || command -v docker)

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
root=$context/rootfs
mkdir -p "$root/usr/local/bin" "$root/bin" "$root/etc/ssl/certs" "$root/tmp"
chmod 1777 "$root/tmp"
strip -o "$root/usr/local/bin/stampede" "$binary"  # no debug info: a smaller image
# Each library at the path the loader finds it at here, and the loader itself.
ldd "$binary" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r library; do
  mkdir -p "$root$(dirname "$library")"
  cp -L "$library" "$root$library"
done
cp /bin/busybox "$root/bin/busybox"
for tool in sh base64 cat env sleep ls; do ln -s busybox "$root/bin/$tool"; done
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
printf 'root:x:0:0::/:/bin/sh\nnobody:x:65534:65534::/tmp:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
cp "$here/Containerfile" "$context/"
"$engine" build -q -t "$tag" -f "$context/Containerfile" "$context"
echo "build-image.sh: $tag ($("$engine" image inspect -f '{{.Size}}' "$tag") bytes)" >&2
