#!/bin/sh
# Install the Debian packages kab builds with, runs with and tests with.
# Idempotent and quiet when everything is already there.
#   scripts/deps.sh          what make, make test and make bench need
#   scripts/deps.sh kernel   also what building kernels needs (make demo,
#                            make test-kernel): Debian's 6.1 source and
#                            the kernel's build tools
#   scripts/deps.sh fuzz     also clang and libFuzzer (make fuzz)
set -e

pkgs="build-essential pkg-config
libsqlite3-dev libgsl-dev libyaml-dev libjansson-dev libhwloc-dev zlib1g-dev
libarchive-dev nettle-dev libelf-dev libcurl4-openssl-dev qemu-system-x86 linux-image-amd64
stress-ng git
libcmocka-dev sqlite3 python3 python3-yaml python3-scipy binutils bsdutils procps file
chromium openssh-server openssh-client scdoc man-db bash-completion zsh
debhelper dpkg-dev fakeroot lintian lava-dispatcher lava-common"
if [ "${1:-}" = fuzz ]; then
	pkgs="$pkgs clang libclang-rt-14-dev"
fi
if [ "${1:-}" = kernel ]; then
	pkgs="$pkgs linux-source-6.1 xz-utils flex bison bc libelf-dev
libssl-dev cpio ccache"
fi

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "kab: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
