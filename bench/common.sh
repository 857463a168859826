# Shared by the bench scripts (sourced): a scratch directory and background processes cleaned up on exit, the
# packaged build unless BENCH_SKIP_BUILD is set, start(), which waits until a process is ready, and start_path().
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

# The load generators' clients are one anonymous caller at one address, thousands of runs at once: past the bounds a
# production server keeps per process (agui.run.max-active, 1000 by default), which would answer most of them 429.
bench_bounds=(-Dagui.run.max-active=100000)

# starts the packaged server on $ours_port with $jvm_opts, answering from the scripted demo model ($pace ms a chunk)
# or, on the real path, from BenchServers' upstream stub on $stub_port (40 chunks $pace ms apart); sets $started
start_path() { # scripted|real
  local llm=(-Dagui.llm.demo.chunk-delay="${pace}ms")
  if [ "$1" = real ]; then
    start stub "grep -q ready $work/stub.log" java -cp "target/test-classes:target/quarkus-app/lib/main/*" \
      dev.aguistate.bench.BenchServers upstream "$stub_port" 40 "$pace"
    llm=(-Dagui.llm.base-url="http://127.0.0.1:$stub_port/v1" -Dagui.llm.api-key=bench -Dagui.llm.model=bench)
  fi
  # shellcheck disable=SC2086
  start ours "curl -sf http://127.0.0.1:$ours_port/q/health/ready" env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL \
    java $jvm_opts -Dquarkus.http.port="$ours_port" "${llm[@]}" "${bench_bounds[@]}" -jar target/quarkus-app/quarkus-run.jar
}
