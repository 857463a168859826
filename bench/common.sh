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

# The JIT compilers' time so far in a JVM, in seconds (jstat's C1 and C2 together).
jit_seconds() { jstat -compiler "$1" | awk 'NR == 2 { print $4 }'; }

# The CPU time a process has used so far, in seconds (user and system, all its threads).
cpu_seconds() { awk -v tick="$(getconf CLK_TCK)" '{ print ($14 + $15) / tick }' "/proc/$1/stat"; }

# Runs CLIENTS closed-loop clients against URL in 10 s slices until the JIT of the JVM PID has settled: its compilers
# took under 2 % of the JVM's CPU time in the last slice, or BENCH_JIT_MAX seconds (420) went by. At N = 2,000 on 2
# cores ours kept C2 busy at about a core's worth for the first minute and settled after 80–110 s, the relay and the
# bare writer after 70: a window that opens earlier measures the JIT as much as the server. At 50 clients (a sixth
# of a core once settled) ours compiled in bursts for about 270 s. Prints how long it took, and sets
# $settled_seconds to that.
settle_jit() { # url pid clients
  local jit cpu slices=0 outcome="still compiling after"
  while [ $((slices * 10)) -lt "${BENCH_JIT_MAX:-420}" ]; do
    jit=$(jit_seconds "$2")
    cpu=$(cpu_seconds "$2")
    node bench/load.mjs --url "$1" --clients "$3" --warmup 0 --seconds 10 --pace "$pace" >/dev/null
    slices=$((slices + 1))
    if awk -v j="$(jit_seconds "$2")" -v jb="$jit" -v c="$(cpu_seconds "$2")" -v cb="$cpu" \
      'BEGIN { exit !(j - jb < 0.02 * (c - cb)) }'; then
      outcome="settled after"
      break
    fi
  done
  settled_seconds=$((slices * 10))
  echo "JIT of $2 $outcome ${slices} × 10 s at $3 clients (its compilers: $(jit_seconds "$2") s in all)" >&2
}

# starts one of BenchServers' servers (test sources: upstream, relay or bare, then its arguments) as NAME; sets $started
start_bench_server() { # name server args...
  local name=$1; shift
  start "$name" "grep -q ready $work/$name.log" java -cp "target/test-classes:target/quarkus-app/lib/main/*" \
    dev.aguistate.bench.BenchServers "$@"
}

# starts BenchServers' OpenAI-wire upstream stub on $stub_port ($words chunks, 40 unless set, $pace ms apart)
start_stub() { start_bench_server stub upstream "$stub_port" "${words:-40}" "$pace"; }

# starts BenchServers' bare relay of start_stub's stub on PORT (the real path's reference); sets $started
start_relay() { # port
  start_bench_server relay relay "$1" "${words:-40}" "$pace" "$stub_port"
}

# starts the packaged server on $ours_port with $jvm_opts, answering from the scripted demo model ($pace ms a chunk)
# or, on the real path, from start_stub's stub; sets $started
start_path() { # scripted|real
  local llm=(-Dagui.llm.demo.chunk-delay="${pace}ms")
  if [ "$1" = real ]; then
    start_stub
    llm=(-Dagui.llm.base-url="http://127.0.0.1:$stub_port/v1" -Dagui.llm.api-key=bench -Dagui.llm.model=bench)
  fi
  # shellcheck disable=SC2086
  start ours "curl -sf http://127.0.0.1:$ours_port/q/health/ready" env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL \
    java $jvm_opts -Dquarkus.http.port="$ours_port" "${llm[@]}" "${bench_bounds[@]}" -jar target/quarkus-app/quarkus-run.jar
}
