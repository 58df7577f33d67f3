# An OpenSSH server on 127.0.0.1 for the ssh target's tests: its own host
# key, a user key made here, sessions with a PATH of $TMP/rbin only (no
# stress-ng there unless a test puts it) and a cache in $TMP, so that
# nothing outside the test's directory is touched.  "kabtest" is its
# name in $SSHD_DIR/client.conf, which KAB_SSH hands to ssh (ssh reads
# the config of the passwd home, not of $HOME).
SSHD_DIR=$TMP/sshd

sshd_start() {
	local port i
	mkdir -p "$SSHD_DIR" /run/sshd "$HOME/.ssh" "$TMP/rbin" "$TMP/remote cache"
	ssh-keygen -q -t ed25519 -N "" -f "$SSHD_DIR/host_key" </dev/null
	ssh-keygen -q -t ed25519 -N "" -f "$SSHD_DIR/user_key" </dev/null
	cp "$SSHD_DIR/user_key.pub" "$SSHD_DIR/authorized_keys"
	chmod 600 "$SSHD_DIR/authorized_keys"
	for p in sh bash env mkdir tar touch cat rm ls uname hostname sleep; do
		ln -sf "$(command -v $p)" "$TMP/rbin/$p"
	done
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$SSHD_DIR/config" <<-EOC
	Port $port
	ListenAddress 127.0.0.1
	HostKey $SSHD_DIR/host_key
	AuthorizedKeysFile $SSHD_DIR/authorized_keys
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	StrictModes no
	UsePAM no
	PidFile $SSHD_DIR/pid
	SetEnv PATH=$TMP/rbin "XDG_CACHE_HOME=$TMP/remote cache/it's"
	EOC
	/usr/sbin/sshd -f "$SSHD_DIR/config" -E "$SSHD_DIR/log" || return 1
	cat >"$SSHD_DIR/client.conf" <<-EOC
	Host kabtest
	  HostName 127.0.0.1
	  Port $port
	  User $(id -un)
	  IdentityFile $SSHD_DIR/user_key
	  IdentitiesOnly yes
	  StrictHostKeyChecking no
	  UserKnownHostsFile /dev/null
	  LogLevel ERROR
	EOC
	SSHD_PORT=$port
	export KAB_SSH="ssh -F $SSHD_DIR/client.conf"
	for i in $(seq 50); do
		$KAB_SSH -o BatchMode=yes kabtest true 2>/dev/null && return 0
		sleep 0.1
	done
	cat "$SSHD_DIR/log"
	return 1
}

# Drop every connection the server holds (the listener stays).
sshd_drop() {
	pkill -KILL -P "$(cat "$SSHD_DIR/pid")"
}

sshd_stop() {
	[ -f "$SSHD_DIR/pid" ] && kill "$(cat "$SSHD_DIR/pid")" 2>/dev/null
	pkill -KILL -P "$(cat "$SSHD_DIR/pid" 2>/dev/null)" 2>/dev/null
	true
}
