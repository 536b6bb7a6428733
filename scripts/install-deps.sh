#!/usr/bin/env bash
# Installs, from Debian's packages, whatever stampede's build (and with --test, its tests) needs.
set -euo pipefail

build_packages=(g++ cmake ninja-build libboost1.81-dev libboost-url1.81-dev
  libboost-program-options1.81-dev nlohmann-json3-dev libspdlog-dev libgtest-dev libssl-dev
  libnghttp2-dev zlib1g-dev libbrotli-dev libzstd-dev pkg-config libprotobuf-dev libprotoc-dev)
test_packages=(nginx apache2 nghttp2-server nghttp2-client openssl python3 python3-websockets curl clang-format
  clang protobuf-compiler python3-grpcio python3-protobuf prometheus iproute2 openssh-server
  podman catatonit runc busybox-static ca-certificates
  openssh-client)

wanted=("${build_packages[@]}")
# npm fetches --html's chart library at build time (and the tests' hdr-histogram-js): Debian's
# nodejs and npm, unless a Node.js that brings its own npm is already there.
command -v node >/dev/null || wanted+=(nodejs)
command -v npm >/dev/null || wanted+=(npm)
if [[ "${1:-}" == "--test" ]]; then wanted+=("${test_packages[@]}" chromium); fi

missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
