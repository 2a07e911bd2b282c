# shellcheck shell=bash
# Sourced by scripts/test: a Docker engine and a Python base image for the container image's
# tests (tests/image). ensure_test_docker exports HIMIKO_TEST_DOCKER (the docker command, its
# engine answering), HIMIKO_TEST_IMAGE_BASE (the base the tests build the Dockerfile on) and
# HIMIKO_TEST_COMPOSE (the compose command: the docker plugin, else Debian's docker-compose).
#
# No image registry is reachable from the test machines, so the base is made from the machine's
# own Debian packages (mmdebstrap: minbase, python3, python3-venv) and imported; its tarball is
# kept in the cache folder (HIMIKO_CACHE, default ~/.cache/himiko) for the next run.
# HIMIKO_TEST_IMAGE_BASE=python:3.11-slim-bookworm (or any such image you have) skips that.
#
# An engine already answering is used as it is. Otherwise, as root, Debian's docker.io is
# installed if needed and dockerd started WITHOUT a bridge (--bridge=none, no iptables, no IP
# forwarding): the tests' containers use the host's network and talk on 127.0.0.1 only. An engine
# started here is stopped at the end (an EXIT trap, run before the traps set earlier).
# Without an engine the image tests are skipped, and this says so loudly.

HIMIKO_BASE_RECIPE=1 # bump when the base's recipe below changes: a new tag, a new tarball

_docker_skip() {
  echo "************************************************************************" >&2
  echo "* Docker: $1" >&2
  echo "* The container image's tests (tests/image) are SKIPPED." >&2
  echo "* Run as root on Debian (docker.io is installed), or start an engine yourself." >&2
  echo "************************************************************************" >&2
  unset HIMIKO_TEST_DOCKER HIMIKO_TEST_IMAGE_BASE HIMIKO_TEST_COMPOSE
}

_docker_client() {
  # Debian's client first: it matches Debian's engine.
  if [ -x /usr/bin/docker ]; then
    echo /usr/bin/docker
  else
    command -v docker
  fi
}

_docker_answers() {
  "$1" version --format '{{.Server.Version}}' >/dev/null 2>&1
}

_docker_stop() {
  if [ -n "${_DOCKERD_PID:-}" ]; then
    kill -TERM "$_DOCKERD_PID" 2>/dev/null || true
    local waited=0
    while kill -0 "$_DOCKERD_PID" 2>/dev/null && [ "$waited" -lt 30 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    kill -KILL "$_DOCKERD_PID" 2>/dev/null || true
    rm -rf "$_DOCKERD_DIR"
    _DOCKERD_PID=""
  fi
}

_docker_install() {
  echo "Docker: installing Debian's docker.io, docker-compose and mmdebstrap packages" >&2
  local log
  log=$(mktemp /tmp/himiko-docker-apt.XXXXXX)
  if { apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      docker.io docker-compose mmdebstrap; } >"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  tail -n 20 "$log" >&2
  rm -f "$log"
  return 1
}

_docker_start_engine() {
  # The engine's data stays in its usual place (/var/lib/docker): the layers of the last build
  # are reused by the next one on this machine.
  _DOCKERD_DIR=$(mktemp -d /tmp/himiko-dockerd.XXXXXX)
  setsid dockerd --bridge=none --iptables=false --ip6tables=false --ip-forward=false \
    --pidfile "$_DOCKERD_DIR/dockerd.pid" >"$_DOCKERD_DIR/dockerd.log" 2>&1 </dev/null &
  _DOCKERD_PID=$!
  local previous
  previous=$(trap -p EXIT)
  previous=${previous#"trap -- '"}
  previous=${previous%"' EXIT"}
  # shellcheck disable=SC2064 # the earlier traps are read now, on purpose
  trap "_docker_stop${previous:+; $previous}" EXIT
  local waited=0
  until _docker_answers "$1"; do
    if ! kill -0 "$_DOCKERD_PID" 2>/dev/null || [ "$waited" -ge 60 ]; then
      tail -n 20 "$_DOCKERD_DIR/dockerd.log" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "Docker: engine $("$1" version --format '{{.Server.Version}}') started (no bridge)" >&2
}

_docker_sources() {
  # The machine's own Debian sources, so the base comes from the mirror apt already uses.
  local file
  for file in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    if [ -s "$file" ]; then
      echo "$file"
      return 0
    fi
  done
  return 1
}

_docker_make_base() {
  local docker=$1 tag=$2 codename=$3
  local cache="${HIMIKO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/himiko}/docker"
  local tarball="$cache/base-$codename-$HIMIKO_BASE_RECIPE.tar"
  local part="$cache/part-$$.tar" # mmdebstrap writes a tarball for a name ending in .tar
  if [ ! -s "$tarball" ]; then
    command -v mmdebstrap >/dev/null 2>&1 || return 1
    mkdir -p "$cache" || return 1
    local sources=() source_file
    if source_file=$(_docker_sources); then
      sources=("$source_file")
    fi
    echo "Docker: making the base image from Debian's packages (mmdebstrap, about a minute)" >&2
    # The machine's own local certificate authorities come along: pip in the build trusts what
    # the machine trusts (Debian's pip reads the system's certificate store).
    # shellcheck disable=SC2016 # "$1" is the hook's: the new system's folder
    if ! mmdebstrap --quiet --variant=minbase --include=python3,python3-venv,ca-certificates \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --aptopt='Acquire::Languages "none"' \
      --customize-hook='if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
          cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/"
          chroot "$1" update-ca-certificates >/dev/null 2>&1
        fi' \
      "$codename" "$part" "${sources[@]}" >&2; then
      rm -f "$part"
      return 1
    fi
    mv "$part" "$tarball"
  fi
  "$docker" import "$tarball" "$tag" >/dev/null
}

_docker_compose() {
  if "$1" compose version >/dev/null 2>&1; then
    echo "$1 compose"
  elif command -v docker-compose >/dev/null 2>&1; then
    command -v docker-compose
  else
    return 1
  fi
}

_docker_tools_there() {
  local docker
  command -v dockerd >/dev/null 2>&1 && command -v mmdebstrap >/dev/null 2>&1 \
    && docker=$(_docker_client) && _docker_compose "$docker" >/dev/null
}

ensure_test_docker() {
  local docker
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && ! _docker_tools_there; then
    if ! _docker_install; then
      _docker_skip "installing Debian's docker.io, docker-compose and mmdebstrap failed"
      return 0
    fi
  fi
  if ! docker=$(_docker_client); then
    _docker_skip "there is no docker command"
    return 0
  fi
  if ! _docker_answers "$docker"; then
    if [ "$(id -u)" != 0 ] || ! command -v dockerd >/dev/null 2>&1; then
      _docker_skip "no engine answers (and not root to start Debian's dockerd)"
      return 0
    fi
    if ! _docker_start_engine "$docker"; then
      _docker_skip "dockerd did not start (its log above)"
      _docker_stop
      return 0
    fi
  fi
  export HIMIKO_TEST_DOCKER="$docker"
  if ! HIMIKO_TEST_COMPOSE=$(_docker_compose "$docker"); then
    echo "Docker: no compose command: the compose test (tests/image) is SKIPPED" >&2
  fi
  export HIMIKO_TEST_COMPOSE
  if [ -n "${HIMIKO_TEST_IMAGE_BASE:-}" ]; then
    echo "Docker: building on HIMIKO_TEST_IMAGE_BASE=$HIMIKO_TEST_IMAGE_BASE" >&2
    return 0
  fi
  local codename=""
  if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    codename=$(. /etc/os-release && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")
  fi
  if [ -z "$codename" ]; then
    _docker_skip "the test base is made from Debian's packages and this is not Debian
* (set HIMIKO_TEST_IMAGE_BASE to a Python 3.11+ image you have)"
    return 0
  fi
  local tag="himiko-test-base:$codename-$HIMIKO_BASE_RECIPE"
  if ! "$docker" image inspect "$tag" >/dev/null 2>&1 \
    && ! _docker_make_base "$docker" "$tag" "$codename"; then
    _docker_skip "making the base image $tag failed (mmdebstrap, docker import)"
    return 0
  fi
  export HIMIKO_TEST_IMAGE_BASE="$tag"
}
