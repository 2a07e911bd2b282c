# Sourced by scripts/test: a throw-away PostgreSQL server for the test run.
# start_test_postgres exports HIMIKO_TEST_POSTGRES_URL (unless it is already set) and arranges,
# with an EXIT trap, that the server is stopped and its directory deleted at the end.
# Without server programs (and no root to install Debian's postgresql package) the PostgreSQL
# variants of the tests are skipped, and this says so loudly.

_pg_bindir() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
    return 0
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
    return 0
  fi
  return 1
}

_pg_skip() {
  echo "************************************************************************" >&2
  echo "* PostgreSQL: $1" >&2
  echo "* The PostgreSQL variants of the store, service and e2e tests are SKIPPED." >&2
  echo "* Set HIMIKO_TEST_POSTGRES_URL=postgresql://USER@HOST:PORT/DB to use a server." >&2
  echo "************************************************************************" >&2
}

# Where the throw-away server keeps its files: memory (/dev/shm) when it is a writable tmpfs with
# 2 GB free, else /tmp. The tests create and drop a database each (a few hundred files every
# time); on the disk's file system the server spent most of its CPU allocating and freeing
# those files' inodes (perf: ext4's find_inode_bit, recently_deleted), about three times the
# CPU it needs in memory (D274).
_pg_data_parent() {
  local shm=/dev/shm free_kb
  if [ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] && [ -w "$shm" ]; then
    free_kb=$(df -Pk "$shm" | awk 'NR == 2 {print $4}')
    if [ "${free_kb:-0}" -ge 2097152 ]; then
      echo "$shm"
      return 0
    fi
  fi
  echo /tmp
}

_pg_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_pg_stop() {
  if [ -n "${_PG_DIR:-}" ] && [ -d "$_PG_DIR" ]; then
    $_PG_AS "$_PG_BIN/pg_ctl" -D "$_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$_PG_DIR"
  fi
}

start_test_postgres() {
  if [ -n "${HIMIKO_TEST_POSTGRES_URL:-}" ]; then
    echo "PostgreSQL: using HIMIKO_TEST_POSTGRES_URL from the environment" >&2
    return 0
  fi
  if ! _PG_BIN=$(_pg_bindir); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "PostgreSQL: installing Debian's postgresql package" >&2
      if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2; then
        _pg_skip "installing the postgresql package failed"
        return 0
      fi
      _PG_BIN=$(_pg_bindir) || { _pg_skip "no server programs after installing"; return 0; }
    else
      _pg_skip "no server programs (initdb, pg_ctl) and not root to install them"
      return 0
    fi
  fi
  _PG_DIR=$(mktemp -d "$(_pg_data_parent)/himiko-pg.XXXXXX")
  _PG_AS=""
  if [ "$(id -u)" = 0 ]; then  # the server refuses to run as root
    local user=postgres
    id -u "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$_PG_DIR"
    chmod 700 "$_PG_DIR"
    _PG_AS="runuser -u $user --"
  fi
  trap _pg_stop EXIT
  local port
  port=$(_pg_free_port)
  # fsync off: a test server whose data is thrown away (killing the bot's process, not the
  # machine, is what the crash tests do).
  if ! $_PG_AS "$_PG_BIN/initdb" -D "$_PG_DIR/data" -U himiko -A trust -E UTF8 --locale=C \
      --no-sync >"$_PG_DIR/initdb.log" 2>&1 \
    || ! $_PG_AS "$_PG_BIN/pg_ctl" -D "$_PG_DIR/data" -l "$_PG_DIR/server.log" -w -t 60 \
      -o "-p $port -k $_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off \
          -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null; then
    cat "$_PG_DIR"/*.log >&2 2>/dev/null || true
    _pg_skip "the test server did not start (log above)"
    _pg_stop
    return 0
  fi
  export HIMIKO_TEST_POSTGRES_URL="postgresql://himiko@127.0.0.1:$port/postgres"
  echo "PostgreSQL: test server $("$_PG_BIN/postgres" --version | awk '{print $3}') on port $port" >&2
}
