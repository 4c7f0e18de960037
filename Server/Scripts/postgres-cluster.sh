#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the server package's tests (issue 23).
#
#   Server/Scripts/postgres-cluster.sh start FOLDER   # prints the URL; writes FOLDER/url
#   Server/Scripts/postgres-cluster.sh stop FOLDER    # stops it and deletes FOLDER
#   Server/Scripts/postgres-cluster.sh restart FOLDER # restarts it (same port), for the tests
#
# `start` installs Debian's postgresql if no server is found (apt-get), makes a cluster with
# initdb in FOLDER (trust authentication, loopback only), starts it with pg_ctl on 127.0.0.1
# on a free port, and creates the role and database `livedata`. The tests read the URL from
# LIVEDATA_TEST_POSTGRES. PostgreSQL refuses to run as root: as root, the cluster runs as the
# `postgres` user (made by the Debian package).
set -euo pipefail

command=${1:-}
folder=${2:-}
if [ -z "$command" ] || [ -z "$folder" ]; then
  echo "usage: $0 start|stop FOLDER" >&2
  exit 2
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ "$command" = start ] && [ -z "$bin" ]; then
  echo "installing Debian's postgresql" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 || {
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
  }
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start)
  mkdir -p "$folder"
  [ "$(id -u)" = 0 ] && chown postgres "$folder"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$folder/data" -U livedata -A trust -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 || {
    cat "$folder/initdb.log" >&2
    exit 1
  }
  as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $folder -c max_connections=200 -c fsync=on" start >&2 || {
    cat "$folder/server.log" >&2
    exit 1
  }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U livedata livedata
  url="postgres://livedata@127.0.0.1:$port/livedata"
  echo "$url" >"$folder/url"
  echo "$url"
  ;;
stop)
  if [ -d "$folder/data" ] && [ -n "$bin" ]; then
    as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >&2 || true
  fi
  rm -rf "$folder"
  ;;
restart)
  as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w restart >&2
  ;;
*)
  echo "unknown command $command" >&2
  exit 2
  ;;
esac
