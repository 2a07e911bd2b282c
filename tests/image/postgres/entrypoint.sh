#!/bin/sh
# The official image's first start, in short: an empty data folder gets POSTGRES_USER with
# POSTGRES_PASSWORD (password logins over TCP) and the database POSTGRES_DB. Then the server
# runs with the command's arguments ("postgres -c ...").
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  umask 077
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password
  initdb --username="$POSTGRES_USER" --pwfile=/tmp/password --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f /tmp/password
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  # socket only meanwhile, as the official image does: pg_isready over TCP waits for the end
  pg_ctl --silent --wait --options="-c listen_addresses=''" start
  createdb --username="$POSTGRES_USER" "${POSTGRES_DB:-$POSTGRES_USER}"
  pg_ctl --silent --wait --mode=fast stop
fi
if [ "${1:-}" = postgres ]; then
  shift
fi
exec postgres -c listen_addresses='*' "$@"
