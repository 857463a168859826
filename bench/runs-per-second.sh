#!/usr/bin/env bash
# Runs/s of a short scripted run per thread store, through the packaged server over real HTTP.
# For each store (memory, redis, postgres): starts the packaged server with the scripted demo model at
# agui.llm.demo.chunk-delay=0ms, drives it with RunsPerSecond (src/test/java/dev/aguistate/store/bench) for
# each scenario (new thread per run / continue one thread per client) and client count, stops it, and deletes
# the threads it made from Redis and PostgreSQL. Prints a markdown table; results are in docs/benchmarks.md.
#
# Needs Redis and PostgreSQL as the store tests do (AGUI_TEST_REDIS_URL, AGUI_TEST_POSTGRES_URL, else the local
# defaults), and redis-cli and psql for the clean-up. Settings, by environment variable:
#   BENCH_PORT (18310)  BENCH_STORES ("memory redis postgres")  BENCH_CLIENTS ("1 16")
#   BENCH_SERVER_WARMUP_SECONDS (15, per scenario, at 16 clients, right after the server starts: its JIT)
#   BENCH_WARMUP_SECONDS (5, before each row)  BENCH_SECONDS (20)
#   BENCH_SKIP_BUILD (unset: build with ./mvnw -q package -DskipTests)
#   BENCH_SERVER_OPTS (more JVM options for the server, e.g. -Dquarkus.otel.sdk.disabled=false to trace)
set -euo pipefail
cd "$(dirname "$0")/.."

port=${BENCH_PORT:-18310}
stores=${BENCH_STORES:-memory redis postgres}
clients=${BENCH_CLIENTS:-1 16}
server_warmup=${BENCH_SERVER_WARMUP_SECONDS:-15}
warmup=${BENCH_WARMUP_SECONDS:-5}
seconds=${BENCH_SECONDS:-20}
redis_url=${AGUI_TEST_REDIS_URL:-redis://127.0.0.1:6379}
postgres_url=${AGUI_TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/test}

# The bench's user, and the prefix of every thread id it makes: what the clean-up deletes.
prefix=bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
api_key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
work=$(mktemp -d)
server_pid=

stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=
}

delete_bench_data() {
  case " $stores " in *" redis "*)
    redis-cli -u "$redis_url" --scan --pattern "agui:*${prefix}*" | xargs -r -n 500 redis-cli -u "$redis_url" del >/dev/null
  esac
  case " $stores " in *" postgres "*)
    psql -q -w "$postgres_url" \
      -c "DELETE FROM agui_threads WHERE owner = '$prefix'" \
      -c "DELETE FROM agui_thread_locks WHERE thread_id LIKE '$prefix-%'" \
      -c "DELETE FROM agui_scopes WHERE scope = 'user:$prefix'"
  esac
}

clean_up() {
  stop_server
  delete_bench_data
  rm -rf "$work"
}
trap clean_up EXIT

start_server() { # store kind
  # shellcheck disable=SC2086 # BENCH_SERVER_OPTS is a list of options
  env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL java ${BENCH_SERVER_OPTS:-} \
    -Dquarkus.http.port="$port" \
    -Dagui.llm.demo.chunk-delay=0ms \
    -Dagui.auth.api-keys."$api_key"="$prefix" \
    -Dagui.store.kind="$1" \
    -Dagui.store.redis.url="$redis_url" \
    -Dagui.store.postgres.url="$postgres_url" \
    -jar target/quarkus-app/quarkus-run.jar >"$work/server-$1.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 60); do
    curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 1
  done
  cat "$work/server-$1.log"
  echo "the $1 server did not become ready" >&2
  exit 1
}

drive() { # store scenario clients warm-up-seconds measured-seconds
  java -cp target/test-classes dev.aguistate.store.bench.RunsPerSecond "http://127.0.0.1:$port" "$api_key" \
    "$prefix" "$@"
}

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  ./mvnw -q package -DskipTests
fi

echo "$(nproc) cores, $(java -version 2>&1 | head -n 1); server warm-up 2 × ${server_warmup} s;" \
  "warm-up ${warmup} s and measured ${seconds} s per row"
echo
echo "| store | scenario | clients | runs/s | p50 ms | p99 ms | runs | failed |"
echo "|---|---|---|---|---|---|---|---|"
for store in $stores; do
  start_server "$store"
  # A fresh server runs several times slower until its JIT has compiled the run path: that is not the store.
  for scenario in new continue; do
    drive "$store" "$scenario" 16 0 "$server_warmup" >/dev/null
  done
  for scenario in new continue; do
    for count in $clients; do
      drive "$store" "$scenario" "$count" "$warmup" "$seconds"
    done
  done
  stop_server
done
