#!/bin/sh
# A LAVA server on this machine for make test-lava-server, its daemons
# started by hand (no systemd): PostgreSQL, lava-server's gunicorn and
# scheduler, and a lava-worker with two qemu devices (TCG, or KVM when
# the CPU has VMX or SVM), each tagged with its own name (kab ab
# --devices pins jobs by such tags).  As root; idempotent.
#   scripts/lava-server.sh start   install what is missing, start what
#                                  is not running; the URL and a user
#                                  token go to $KAB_LAVA_SERVER_DIR
#   scripts/lava-server.sh stop    stop the daemons it started
set -e
# lava's tools are Debian's python3's, not a virtualenv's
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
D=${KAB_LAVA_SERVER_DIR:-/tmp/kab-lava-server}
PORT=${KAB_LAVA_SERVER_PORT:-8000}
URL=http://127.0.0.1:$PORT/
WORKER=kab-worker
DEVICES="kab-qemu01 kab-qemu02"
USER=kab-test

say() { echo "lava-server.sh: $*" >&2; }

listening() {
	python3 -c "import socket, sys; s = socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $1)) != 0)"
}

alive() {
	[ -f "$D/$1.pid" ] && kill -0 "$(cat "$D/$1.pid")" 2>/dev/null
}

start_bg() {
	name=$1
	shift
	alive "$name" && return 0
	setsid "$@" >"$D/$name.out" 2>&1 </dev/null &
	echo $! >"$D/$name.pid"
}

stop() {
	for n in worker scheduler gunicorn; do
		if alive $n; then
			kill "$(cat "$D/$n.pid")" 2>/dev/null || true
		fi
		rm -f "$D/$n.pid"
	done
	if [ -f "$D/postgres-started" ]; then
		pg_ctlcluster "$(cat "$D/postgres-started")" main stop || true
		rm -f "$D/postgres-started"
	fi
}

start() {
	[ "$(id -u)" -eq 0 ] || { say "run me as root (apt-get, PostgreSQL)"; exit 2; }
	mkdir -p "$D"
	missing=
	for p in postgresql lava-server lava-dispatcher; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		say "installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null
	fi
	ver=$(pg_lsclusters -h | awk '$2 == "main" { print $1; exit }')
	if pg_lsclusters -h | awk '$2 == "main" { print $4 }' | grep -q down; then
		pg_ctlcluster "$ver" main start
		echo "$ver" >"$D/postgres-started"
	fi
	# the database, when the package's set-up found no PostgreSQL running
	if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'lavaserver'\"" | grep -q 1; then
		say "configuring lava-server's database"
		dpkg-reconfigure -f noninteractive lava-server >/dev/null
	fi
	if ! listening "$PORT"; then
		start_bg gunicorn gunicorn3 lava_server.wsgi --log-level INFO \
			-u lavaserver -g lavaserver --worker-class eventlet \
			--workers 2 --bind 127.0.0.1:"$PORT" --timeout 30
	fi
	start_bg scheduler lava-server manage lava-scheduler --level INFO \
		--log-file "$D/scheduler.log"
	for i in $(seq 100); do
		listening "$PORT" && break
		sleep 0.2
	done
	listening "$PORT" || { say "gunicorn did not start: $D/gunicorn.out"; exit 1; }

	lava-server manage users list 2>/dev/null | grep -q "$USER" ||
		lava-server manage users add "$USER" --passwd "$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')" >/dev/null
	[ -s "$D/token" ] ||
		lava-server manage tokens add --user "$USER" | tail -n 1 >"$D/token"
	chmod 600 "$D/token"
	lava-server manage workers add "$WORKER" >/dev/null 2>&1 || true
	wtoken=$(lava-server manage workers details "$WORKER" | sed -n 's/^token *: //p')
	lava-server manage device-types add qemu >/dev/null 2>&1 || true
	if grep -qw -e vmx -e svm /proc/cpuinfo; then
		kvm="{% set no_kvm = False %}"
		accel=kvm
	else
		kvm="{% set no_kvm = True %}"
		accel=tcg
	fi
	n=60
	for dev in $DEVICES; do
		cat >/etc/lava-server/dispatcher-config/devices/$dev.jinja2 <<EOF
{% extends 'qemu.jinja2' %}
{% set mac_addr = '52:54:00:12:34:$n' %}
{% set memory = '2048' %}
{% set netdevice = 'user' %}
$kvm
{% set extra_options = ['-cpu max', '-smp 2', '-no-reboot', '-accel $accel'] %}
EOF
		n=$((n + 1))
		lava-server manage devices add --device-type qemu \
			--worker "$WORKER" "$dev" >/dev/null 2>&1 || true
		# a tag of its own (kab ab --devices pins jobs by it)
		lava-server manage device-tags create "$dev" \
			"the device $dev itself" >/dev/null 2>&1 || true
		lava-server manage device-tags add "$dev" --tags "$dev" \
			>/dev/null 2>&1 || true
		lava-server manage devices update --health GOOD "$dev" \
			>/dev/null 2>&1 || true
	done
	start_bg worker lava-worker --level INFO --url "$URL" --token "$wtoken" \
		--name "$WORKER" --log-file "$D/worker.log"
	# the worker online and the device idle
	python3 - "$URL" "$WORKER" "$(cat "$D/token")" <<'PY' || { say "the worker did not come online: $D/worker.log"; exit 1; }
import json, sys, time, urllib.request
url, worker, token = sys.argv[1:4]
for i in range(150):
    req = urllib.request.Request(url + "api/v0.2/workers/" + worker + "/",
                                 headers={"Authorization": "Token " + token})
    try:
        if json.load(urllib.request.urlopen(req))["state"] == "Online":
            sys.exit(0)
    except Exception:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
	echo "$URL" >"$D/url"
	say "LAVA at $URL: devices $DEVICES (qemu, $accel) on worker $WORKER; token in $D/token"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) echo "usage: scripts/lava-server.sh start|stop" >&2; exit 2 ;;
esac
