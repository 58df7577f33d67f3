#!/bin/sh
# Install the Debian packages kab builds with, runs with and tests with.
# Idempotent and quiet when everything is already there.
#   scripts/deps.sh          what make, make test and make bench need
#   scripts/deps.sh kernel   also what building kernels needs (make demo,
#                            make test-kernel): Debian's 6.1 source and
#                            the kernel's build tools
#   scripts/deps.sh fuzz     also clang and libFuzzer (make fuzz)
# On Debian 12 QEMU comes from bookworm-backports (10.x: exact mode's cost
# model needs its plugin API); KAB_QEMU_BACKPORTS=no keeps Debian's 7.2.
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

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive

if [ -n "$missing" ]; then
	echo "kab: installing:$missing"
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# The major version of the installed qemu-system-x86 (epoch stripped).
qemu_major() {
	dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null |
		sed 's/^[0-9]*://; s/[^0-9].*//'
}

codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ "$codename" = bookworm ] || exit 0
[ "${KAB_QEMU_BACKPORTS:-yes}" = no ] && exit 0
major=$(qemu_major)
[ -n "$major" ] && [ "$major" -ge 10 ] && exit 0

# Backports' packages are pinned at bookworm's priority only for QEMU and
# what it needs at a newer version; everything else stays bookworm's.
src=/etc/apt/sources.list.d/kab-bookworm-backports.sources
pin=/etc/apt/preferences.d/kab-qemu
uri=${KAB_BACKPORTS_URI:-http://deb.debian.org/debian}
echo "kab: installing QEMU from bookworm-backports ($src, pinned in $pin)"
printf '%s\n' 'Types: deb' "URIs: $uri" 'Suites: bookworm-backports' \
	'Components: main' \
	'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
	$SUDO tee "$src" >/dev/null
printf '%s\n' \
	'Package: qemu-system-x86 qemu-system-common qemu-system-data qemu-utils qemu-block-extra qemu-system-gui seabios ipxe-qemu' \
	'Pin: release n=bookworm-backports' 'Pin-Priority: 500' |
	$SUDO tee "$pin" >/dev/null
if $SUDO apt-get update -qq &&
	$SUDO apt-get install -y -qq --no-install-recommends qemu-system-x86 \
		>/dev/null; then
	exit 0
fi
$SUDO rm -f "$src" "$pin"
echo "kab: QEMU $major kept: bookworm-backports is not reachable; exact mode runs without --model (KAB_QEMU_BACKPORTS=no skips this)" >&2
