#!/usr/bin/env bash
# Idle cost: starts bin/api in the embedded default and bin/worker and bin/scheduler against
# the local Postgres and Redis (a scratch database and a free Redis database), waits 10 s, then
# prints each process's resident set size (and its two parts: anonymous memory — heap, stacks —
# and the pages of the binary file it has mapped) and the share of one core it used over the
# next IDLE_SECONDS (default 10) as a JSON line. Usage: bench/idle/rss.sh [BIN_DIR]
set -euo pipefail
BIN=${1:-bin}
dir=$(mktemp -d)
db=""
for n in $(seq 1 15); do
  if [ "$(redis-cli SET flowmill:test:db:$n bench-idle NX EX 600)" = "OK" ]; then db=$n; break; fi
done
[ -n "$db" ] || { echo "bench-idle: no free Redis database" >&2; exit 1; }
pgdb=bench_idle_$$
psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $pgdb" >/dev/null
pids=()
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  redis-cli -n "$db" FLUSHDB >/dev/null; redis-cli DEL "flowmill:test:db:$db" >/dev/null
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $pgdb" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
# The processes run copies of the binaries. The linker writes its output through a memory map,
# which leaves the file in the page cache as 2 MB folios; a process maps those whole
# (FilePmdMapped in /proc/PID/smaps_rollup), so a binary run straight from `go build` shows some
# 10 MB more resident file pages than the same binary installed by copying (an image's COPY,
# a package): measured that way, a figure depended on when the file was last linked.
mkdir "$dir/bin"
cp "$BIN/api" "$BIN/worker" "$BIN/scheduler" "$dir/bin/"
BIN=$dir/bin
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
FLOWMILL_PORT=$(free_port) FLOWMILL_DATA_DIR=$dir/embedded FLOWMILL_LOG_LEVEL=error "$BIN/api" >/dev/null 2>&1 & embedded=$!; pids+=($!)
export FLOWMILL_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$pgdb?sslmode=disable" FLOWMILL_REDIS_URL="redis://127.0.0.1:6379/$db" \
  FLOWMILL_ENCRYPTION_KEY=bench-idle-key-0123456789 FLOWMILL_DATA_DIR=$dir/scaled FLOWMILL_LOG_LEVEL=error
FLOWMILL_PORT=$(free_port) "$BIN/api" >/dev/null 2>&1 & scaled=$!; pids+=($!)
sleep 3 # the scaled api migrates the database first
"$BIN/worker" >/dev/null 2>&1 & worker=$!; pids+=($!)
"$BIN/scheduler" >/dev/null 2>&1 & scheduler=$!; pids+=($!)
sleep 10
procs=("api-embedded:$embedded" "api-scaled:$scaled" "worker:$worker" "scheduler:$scheduler")
# utime + stime in clock ticks (USER_HZ, 100 a second): fields 14 and 15 of /proc/<pid>/stat.
ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; }
declare -A before
for p in "${procs[@]}"; do before[${p%%:*}]=$(ticks "${p##*:}"); done
window=${IDLE_SECONDS:-10}
sleep "$window"
load=$(cut -d' ' -f1 /proc/loadavg)
for p in "${procs[@]}"; do
  name=${p%%:*}; pid=${p##*:}
  kb=$(awk '/^VmRSS:/{print $2}' "/proc/$pid/status")
  anon=$(awk '/^RssAnon:/{print $2}' "/proc/$pid/status")
  file=$(awk '/^RssFile:/{print $2}' "/proc/$pid/status")
  cpu=$(awk "BEGIN{printf \"%.2f\", ($(ticks "$pid") - ${before[$name]}) / $window}")
  echo "{\"bench\":\"idle\",\"process\":\"$name\",\"rssMiB\":$(awk "BEGIN{printf \"%.1f\", $kb/1024}"),\"anonMiB\":$(awk "BEGIN{printf \"%.1f\", $anon/1024}"),\"fileMiB\":$(awk "BEGIN{printf \"%.1f\", $file/1024}"),\"cpuPercentOfCore\":$cpu,\"loadAverage1m\":$load}"
done
