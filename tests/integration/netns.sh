# A lab of "hosts" on one machine: network namespaces, each with its own address, joined by a
# bridge in the target's namespace, for tests of runs spread over several machines.
# shellcheck shell=bash
#
# Use after lib.sh:  source "$(dirname "$0")/netns.sh"
#                    netns_lab 3          # TARGET_NS at $TARGET_ADDR; HOST_NS[i] at HOST_ADDR[i]
#                    in_ns "$TARGET_NS" nginx ...; in_ns "${HOST_NS[0]}" "$STAMPEDE" ...
# The addresses (10.231.0.0/24) exist only inside these namespaces: nothing is routed out of
# them, so no traffic leaves the lab. They are deleted on exit (lib.sh's _cleanup).

# _reap_stale_netns: deletes the namespaces of earlier runs of these tests whose script is gone
# (killed before its EXIT trap ran).
_reap_stale_netns() {
  local ns pid
  for ns in $(ip netns list 2>/dev/null | awk '/^stpd-[0-9]+-/ {print $1}'); do
    pid=${ns#stpd-}
    pid=${pid%%-*}
    kill -0 "$pid" 2>/dev/null || ip netns del "$ns" 2>/dev/null || true
  done
}

# _new_ns NAME: a namespace with its loopback up, deleted on exit.
_new_ns() {
  ip netns add "$1" 2>/dev/null ||
    fail "cannot make network namespace $1 (ip netns add needs root: CAP_SYS_ADMIN and CAP_NET_ADMIN)"
  _NETNS+=("$1")
  ip -n "$1" link set lo up
}

# netns_lab HOSTS: sets TARGET_NS and TARGET_ADDR (10.231.0.1), HOST_NS[i] and HOST_ADDR[i]
# (10.231.0.10+i) for i < HOSTS; each host reaches the target (and the others) over a veth pair
# to the bridge in the target's namespace.
netns_lab() {
  local hosts=$1 i ns
  command -v ip >/dev/null || fail "'ip' is not installed (apt-get install iproute2)"
  _reap_stale_netns
  TARGET_NS=stpd-$$-target
  TARGET_ADDR=10.231.0.1
  _new_ns "$TARGET_NS"
  ip -n "$TARGET_NS" link add br0 type bridge
  ip -n "$TARGET_NS" addr add "$TARGET_ADDR/24" dev br0
  ip -n "$TARGET_NS" link set br0 up
  HOST_NS=()
  HOST_ADDR=()
  for ((i = 0; i < hosts; i++)); do
    ns=stpd-$$-host$i
    _new_ns "$ns"
    ip link add name eth0 netns "$ns" type veth peer name "port$i" netns "$TARGET_NS"
    ip -n "$TARGET_NS" link set "port$i" master br0 up
    ip -n "$ns" addr add "10.231.0.$((10 + i))/24" dev eth0
    ip -n "$ns" link set eth0 up
    HOST_NS+=("$ns")
    HOST_ADDR+=("10.231.0.$((10 + i))")
  done
  log "lab: target $TARGET_ADDR ($TARGET_NS), hosts ${HOST_ADDR[*]}"
}

# in_ns NS COMMAND...: runs COMMAND in namespace NS.
in_ns() {
  local ns=$1
  shift
  ip netns exec "$ns" "$@"
}

# wait_for_port_in NS ADDR PORT [SECONDS=10] [PID]: as wait_for_port, inside NS.
wait_for_port_in() {
  local ns=$1 addr=$2 port=$3 deadline=$((SECONDS + ${4:-10})) pid=${5:-}
  while ((SECONDS <= deadline)); do
    if ip netns exec "$ns" bash -c "exec 3<>/dev/tcp/$addr/$port" 2>/dev/null; then return 0; fi
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.05
  done
  return 1
}

# start_lab_target: in TARGET_NS, nginx on $TARGET_ADDR:8080 (its access log, ACCESS_LOG, has
# each request's source address) in front of stampede serve (its /delay/MS answers after MS
# ms); sets LAB_URL.
start_lab_target() {
  local host
  ip netns exec "$TARGET_NS" timeout -k 5 600 "$STAMPEDE" serve --port 8081 --threads 1 \
    >"$TEST_TMP/serve.out" 2>&1 &
  _PIDS+=("$!")
  NGINX_DIR=$TEST_TMP/nginx
  mkdir -p "$NGINX_DIR/tmp"
  cat >"$NGINX_DIR/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log warn;
events { worker_connections 4096; }
http {
    log_format lab '\$remote_addr \$status "\$request"';
    access_log $NGINX_DIR/access.log lab;
    keepalive_requests 100000;
    client_body_temp_path $NGINX_DIR/tmp/body;
    proxy_temp_path $NGINX_DIR/tmp/proxy;
    upstream serve { server 127.0.0.1:8081; keepalive 64; }
    server {
        listen $TARGET_ADDR:8080;
        location / {
            proxy_pass http://serve;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
EOF
  ip netns exec "$TARGET_NS" nginx -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" &
  _PIDS+=("$!")
  ACCESS_LOG=$NGINX_DIR/access.log
  for host in "${HOST_NS[@]}"; do
    wait_for_port_in "$host" "$TARGET_ADDR" 8080 10 || fail "nginx is not reachable from $host"
  done
  wait_for_port_in "$TARGET_NS" 127.0.0.1 8081 10 || fail "serve did not start: $(head -c 500 "$TEST_TMP/serve.out")"
  LAB_URL=http://$TARGET_ADDR:8080
}

# start_lab_sshd: an sshd in each host's namespace on its address, port 22, that takes a key
# made here; sets SSH_CONFIG (for `ssh -F`: that key, root, no host key checks) and SSHD_PID[i].
start_lab_sshd() {
  local i dir=$TEST_TMP/ssh
  command -v sshd >/dev/null || PATH=$PATH:/usr/sbin
  command -v sshd >/dev/null || fail "'sshd' is not installed (apt-get install openssh-server)"
  mkdir -p "$dir" /run/sshd  # sshd's privilege separation needs /run/sshd
  chmod 700 "$dir"
  ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
  ssh-keygen -q -t ed25519 -N '' -f "$dir/id"
  cp "$dir/id.pub" "$dir/authorized_keys"
  SSH_CONFIG=$dir/config
  cat >"$SSH_CONFIG" <<EOF
Host *
  User root
  IdentityFile $dir/id
  IdentitiesOnly yes
  UserKnownHostsFile /dev/null
  StrictHostKeyChecking no
  LogLevel ERROR
EOF
  SSHD_PID=()
  for ((i = 0; i < ${#HOST_NS[@]}; i++)); do
    cat >"$dir/sshd$i.conf" <<EOF
ListenAddress ${HOST_ADDR[i]}
Port 22
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PidFile $dir/sshd$i.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
    ip netns exec "${HOST_NS[i]}" "$(command -v sshd)" -D -e -f "$dir/sshd$i.conf" 2>"$dir/sshd$i.log" &
    SSHD_PID[i]=$!
    _PIDS+=("$!")
    wait_for_port_in "$TARGET_NS" "${HOST_ADDR[i]}" 22 10 "$!" || fail "sshd $i did not start: $(head -c 500 "$dir/sshd$i.log")"
  done
}
