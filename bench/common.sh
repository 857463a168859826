# Shared by the bench scripts (sourced): a scratch directory and background processes cleaned up on exit, the
# packaged build unless BENCH_SKIP_BUILD is set, and start(), which waits until a process is ready.
work=$(mktemp -d)
pids=()

clean_up() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap clean_up EXIT

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  ./mvnw -q package -DskipTests
fi

# starts a process in the background, waits until its ready check passes; sets $started
start() { # name ready-command command...
  local name=$1 ready=$2; shift 2
  "$@" >"$work/$name.log" 2>&1 &
  started=$!
  pids+=("$started")
  for _ in $(seq 1 120); do
    eval "$ready" >/dev/null 2>&1 && return 0
    kill -0 "$started" 2>/dev/null || break
    sleep 0.5
  done
  cat "$work/$name.log" >&2
  echo "$name did not start" >&2
  exit 1
}
