#!/usr/bin/env bash
# Smoke test of the self-hosted stack of docker-compose.yml, run natively (no Docker engine):
#
#   postgres         Debian's PostgreSQL, a throwaway cluster on 127.0.0.1:<free port>
#   prefect-server   `prefect server start` on it (postgresql+asyncpg), API auth string set
#   register-deployments
#                    work pool ddrank-process, `prefect deploy --all` of prefect.yaml (must exit
#                    0), then `prefect deployment inspect` of all three
#   worker           `prefect worker start --pool ddrank-process --type process --with-healthcheck`
#   watcher          `ddrank watch` on an inbox folder
#
# Then it drops the small vugraph LIN file of ddrank/data/sample/lin into the inbox and checks that the
# event-triggered run of ddrank-inbox-on-event completes and the store holds the new records,
# that `prefect flow-run ls` and `prefect automation ls` list them, that the API refuses a
# request without the auth string, that no log holds an HTTP 422, and that every socket the
# started processes listen on is bound to 127.0.0.1 or ::1. It stops everything it started (also on
# error or Ctrl-C), prints PASS/FAIL per check and a final summary line; the exit status is 0
# only if every check passed.
#
# Usage:  PYTHON=.venv/bin/python ops/stack-smoke.sh        (PYTHON: where prefect and ddrank
#         are installed; default .venv/bin/python, else python3). KEEP_TMP=1 keeps the temp
#         folder (logs, store, cluster); it is kept anyway when a check fails.
# Needs:  root (apt-get, and the cluster runs as the `postgres` user) or, as a normal user, an
#         installed PostgreSQL; ss (iproute2), curl. Installs postgresql with apt-get if missing.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z ${PYTHON:-} ]]; then
  if [[ -x $REPO/.venv/bin/python ]]; then PYTHON=$REPO/.venv/bin/python; else PYTHON=python3; fi
fi
SAMPLE=${STACK_SMOKE_FILE:-$REPO/ddrank/data/sample/lin/usbf-2010-sf-14502.lin}
# checked before anything starts: a missing file once made the script wait 900 s for nothing
[[ -f $SAMPLE && -r $SAMPLE ]] || { echo "ERROR: the file to drop is not there: $SAMPLE (set STACK_SMOKE_FILE)" >&2; exit 1; }
RUN_TIMEOUT=${STACK_SMOKE_RUN_TIMEOUT:-900} # seconds for the event-triggered run to finish
POOL=ddrank-process
# An HTTP 422 as a Prefect client ("Client error '422 Unprocessable Entity'") or uvicorn's access
# log ("POST /api/... HTTP/1.1" 422) reports it; a bare 422 may be part of an id or a duration.
HTTP_422="422 Unprocessable|Unprocessable Entity|HTTP/1\.[01]\" 422"
DEPLOYMENTS=(inbox-rerun/ddrank-inbox-hourly inbox-rerun/ddrank-inbox-on-event pipeline/ddrank-pipeline)

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { log "ERROR: $*"; exit 1; }

# --- results --------------------------------------------------------------------------------
CHECKS=()
FAILED=0
check() { # check NAME STATUS DETAIL: record one PASS/FAIL line
  local name=$1 ok=$2 detail=$3
  if [[ $ok == 0 ]]; then CHECKS+=("PASS  $name: $detail"); else CHECKS+=("FAIL  $name: $detail"); FAILED=1; fi
  log "${CHECKS[-1]}"
}

# --- everything lives under one temp folder; everything started is stopped on exit ----------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ddrank-stack.XXXXXX")
chmod 755 "$TMP" # the postgres user must reach its cluster folder below
LOGS=$TMP/logs
mkdir -p "$LOGS" "$TMP/inbox" "$TMP/data" "$TMP/out" "$TMP/prefect-home" "$TMP/prefect-results"
PGDATA=$TMP/pgdata
PGSOCK=$TMP/pgsock
NAMES=()
PIDS=()
STARTED_PIDS=()
SIGS=()
SECRETS=() # masked in what the script prints
PG_STARTED=0

as_pg() { # run a PostgreSQL server binary as an unprivileged user (initdb/postgres refuse root)
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() { # start NAME CMD...: in its own session (so its whole process tree can be stopped)
  local name=$1 sig=TERM
  shift
  if [[ $1 == --stop-signal=* ]]; then sig=${1#--stop-signal=}; shift; fi
  setsid "$@" >"$LOGS/$name.log" 2>&1 </dev/null &
  NAMES+=("$name")
  SIGS+=("$sig")
  PIDS+=("$!")
  STARTED_PIDS+=("$!")
  disown "$!" # stopped by stop_all through its process group; no job notices from bash
  local shown="$*" secret
  for secret in "${SECRETS[@]}"; do shown=${shown//"$secret"/***}; done
  log "started $name (pid ${PIDS[-1]}): $shown"
}

group_alive() { # group_alive PGID: a process of that group runs (zombies awaiting reaping don't)
  ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ {found = 1} END {exit !found}'
}

stop_all() {
  local i pid name t how
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    pid=${PIDS[i]}
    name=${NAMES[i]}
    group_alive "$pid" || continue
    kill "-${SIGS[i]}" -- "-$pid" 2>/dev/null || kill "-${SIGS[i]}" "$pid" 2>/dev/null || true
    how="SIG${SIGS[i]}"
    for ((t = 0; t < 60; t++)); do
      group_alive "$pid" || break
      if ((t == 20)); then # still there after 10 s: signal again (a Prefect worker exits on the
        # second interrupt; it ignores the first one for 20 s and more, even when idle)
        kill "-${SIGS[i]}" "$pid" 2>/dev/null || true
        how="$how twice"
      fi
      sleep 0.5
    done
    if group_alive "$pid"; then
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      how="SIGKILL after 30 s"
    fi
    log "stopped $name ($how)"
  done
  PIDS=()
  NAMES=()
  SIGS=()
  if [[ $PG_STARTED == 1 ]]; then
    if as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >>"$LOGS/pg_ctl.log" 2>&1; then
      log "stopped postgres"
    else
      log "postgres did not stop cleanly (see $LOGS/pg_ctl.log)"
    fi
    PG_STARTED=0
  fi
}

on_exit() {
  local rc=$?
  trap - EXIT INT TERM
  stop_all
  if [[ $rc != 0 || $FAILED != 0 || -n ${KEEP_TMP:-} ]]; then
    if [[ $rc != 0 || $FAILED != 0 ]]; then
      for f in "$LOGS"/*.log; do
        [[ -s $f ]] || continue
        printf -- '--- last lines of %s\n' "$f"
        tail -n 15 "$f"
      done
    fi
    log "kept $TMP (logs in $LOGS)"
  else
    rm -rf "$TMP"
  fi
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for() { # wait_for SECONDS WHAT CMD...: poll CMD every second until it succeeds
  local secs=$1 what=$2
  shift 2
  local deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what not ready after ${secs} s"
    sleep 1
  done
}

# --- tools ------------------------------------------------------------------------------------
"$PYTHON" -c 'import prefect, asyncpg, cli.main' 2>/dev/null ||
  die "$PYTHON lacks prefect, asyncpg or ddrank (install the project: pip install -e .)"
for tool in ss curl setsid; do command -v "$tool" >/dev/null || die "$tool not found"; done
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  [[ $EUID -eq 0 ]] || die "PostgreSQL is not installed and installing it needs root"
  log "installing PostgreSQL (apt-get install -y postgresql)"
  apt-get update -qq >"$LOGS/apt.log" 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >>"$LOGS/apt.log" 2>&1
fi
PG_BIN=$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
python_pkg() { "$PYTHON" -c 'import importlib.metadata as m, sys; print(" ".join(f"{p} {m.version(p)}" for p in sys.argv[1:]))' "$@"; }
PY_VERSIONS=$(python_pkg prefect fastapi starlette sqlalchemy asyncpg)
log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'); $PY_VERSIONS"

# --- postgres ---------------------------------------------------------------------------------
PG_PORT=$(free_port)
PG_PASSWORD=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(24))')
SECRETS+=("$PG_PASSWORD")
mkdir -p "$PGDATA" "$PGSOCK"
printf '%s\n' "$PG_PASSWORD" >"$TMP/pg-superuser-password"
if [[ $EUID -eq 0 ]]; then chown postgres: "$PGDATA" "$PGSOCK" "$TMP/pg-superuser-password" "$LOGS"; fi
chmod 600 "$TMP/pg-superuser-password"
as_pg "$PG_BIN/initdb" -D "$PGDATA" -U postgres --auth=scram-sha-256 \
  --pwfile="$TMP/pg-superuser-password" -E UTF8 --locale=C.UTF-8 >"$LOGS/initdb.log" 2>&1
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgres.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PGSOCK" start >"$LOGS/pg_ctl.log" 2>&1
PG_STARTED=1
PG_PID=$(head -n 1 "$PGDATA/postmaster.pid")
log "started postgres (pid $PG_PID) on 127.0.0.1:$PG_PORT, data in $PGDATA"
# The compose postgres service: user prefect, database prefect (owned by it, so Prefect's
# migrations may create the trusted pg_trgm extension).
PGPASSWORD=$PG_PASSWORD "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres \
  -v ON_ERROR_STOP=1 -q -v pw="$PG_PASSWORD" >"$LOGS/psql.log" 2>&1 <<'SQL'
CREATE ROLE prefect LOGIN PASSWORD :'pw';
CREATE DATABASE prefect OWNER prefect;
SQL
wait_for 30 "postgres" "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$PG_PORT" -U prefect -d prefect

# --- environment shared by the server and the clients (the compose file's) ------------------
API_PORT=$(free_port)
WORKER_PORT=$(free_port)
AUTH="admin:$("$PYTHON" -c 'import secrets; print(secrets.token_hex(24))')"
SECRETS+=("${AUTH#admin:}")
API=http://127.0.0.1:$API_PORT/api
export PYTHONPATH=$REPO${PYTHONPATH:+:$PYTHONPATH}
export DO_NOT_TRACK=1 PREFECT_SERVER_ANALYTICS_ENABLED=false PYTHONUNBUFFERED=1
export PREFECT_HOME=$TMP/prefect-home # no profile or state of the user's own Prefect
unset PREFECT_API_URL PREFECT_API_KEY PREFECT_PROFILE PREFECT_API_AUTH_STRING

# prefect-server
start prefect-server env \
  PREFECT_API_DATABASE_CONNECTION_URL="postgresql+asyncpg://prefect:$PG_PASSWORD@127.0.0.1:$PG_PORT/prefect" \
  PREFECT_SERVER_API_AUTH_STRING="$AUTH" \
  PREFECT_UI_API_URL="$API" \
  "$PYTHON" -m prefect server start --host 127.0.0.1 --port "$API_PORT"
wait_for 180 "prefect server (GET $API/health)" curl -fsS --max-time 5 "$API/health"
log "prefect server answers on $API"

# the clients' environment (x-ddrank-client-env of docker-compose.yml)
export PREFECT_API_URL=$API PREFECT_API_AUTH_STRING=$AUTH
export PREFECT_LOCAL_STORAGE_PATH=$TMP/prefect-results
export DDRANK_DB=$TMP/data/ddrank.duckdb DDRANK_INBOX=$TMP/inbox DDRANK_OUT=$TMP/out
export DDRANK_RUNNER=process
# prefect.yaml's pull step: the worker's runs work in DDRANK_CODE_DIR (/opt/ddrank in the image)
export DDRANK_CODE_DIR=$REPO

# --- register-deployments ---------------------------------------------------------------------
cd "$REPO"
"$PYTHON" -m prefect work-pool create "$POOL" --type process --overwrite >"$LOGS/register.log" 2>&1 ||
  die "work pool not created (see $LOGS/register.log)"
deploy_rc=0 # the compose service's command: every deployment of prefect.yaml in one call
"$PYTHON" -m prefect --no-prompt deploy --all >>"$LOGS/register.log" 2>&1 || deploy_rc=$?
registered=0
for spec in "${DEPLOYMENTS[@]}"; do
  "$PYTHON" -m prefect deployment inspect "$spec" >>"$LOGS/register.log" 2>&1 && registered=$((registered + 1))
done
n422=$(grep -cE "$HTTP_422" "$LOGS/register.log" || true)
check "deployments registered" "$([[ $deploy_rc == 0 && $registered == 3 && $n422 == 0 ]] && echo 0 || echo 1)" \
  "\`prefect deploy --all\` exited $deploy_rc; $registered/3 found by \`prefect deployment inspect\`; lines with 422 in its log: $n422"

# --- worker and watcher -----------------------------------------------------------------------
start worker --stop-signal=INT env PREFECT_WORKER_WEBSERVER_HOST=127.0.0.1 PREFECT_WORKER_WEBSERVER_PORT="$WORKER_PORT" \
  PREFECT_WORKER_QUERY_SECONDS=2 \
  "$PYTHON" -m prefect worker start --pool "$POOL" --type process --with-healthcheck --install-policy never
wait_for 120 "worker (GET /health on 127.0.0.1:$WORKER_PORT)" curl -fsS --max-time 5 "http://127.0.0.1:$WORKER_PORT/health"
start watcher "$PYTHON" -m cli.main watch --poll 2
# importing the flows takes 20-30 s on a 2-core machine at load 15; 60 s was once not enough
wait_for 180 "watcher" grep -q "watching" "$LOGS/watcher.log"

# --- the API refuses a request without the auth string ----------------------------------------
code_none=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST -H 'Content-Type: application/json' -d '{"limit": 1}' "$API/flows/filter")
code_bad=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -u "admin:wrong" -X POST -H 'Content-Type: application/json' -d '{"limit": 1}' "$API/flows/filter")
code_auth=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -u "$AUTH" -X POST -H 'Content-Type: application/json' -d '{"limit": 1}' "$API/flows/filter")
code_health=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$API/health")
check "API refuses requests without the auth string" \
  "$([[ $code_none =~ ^40[13]$ && $code_bad =~ ^40[13]$ && $code_auth == 200 ]] && echo 0 || echo 1)" \
  "POST /api/flows/filter: no auth -> HTTP $code_none, wrong password -> HTTP $code_bad, auth string -> HTTP $code_auth"
check "healthchecks answer as compose expects" \
  "$([[ $code_health == 200 ]] && curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$WORKER_PORT/health" && echo 0 || echo 1)" \
  "GET /api/health without auth -> HTTP $code_health; worker GET /health -> HTTP 200"

# --- drop a real file into the inbox; the event-triggered run must process it -----------------
dropped=$TMP/inbox/$(basename "$SAMPLE")
# one command per line: `set -e` ignores a failure on the left of `&&`
cp "$SAMPLE" "$TMP/inbox/.incoming"
mv "$TMP/inbox/.incoming" "$dropped"
[[ -s $dropped ]] || die "the dropped file $dropped is missing or empty"
log "dropped $(basename "$SAMPLE") ($(stat -c %s "$dropped") bytes) into $TMP/inbox"
RESULT=$("$PYTHON" - "$API" "$AUTH" "$RUN_TIMEOUT" <<'PY'
"""Poll the REST API for the run of ddrank-inbox-on-event until it reaches a final state;
print one JSON line. (The Prefect CLI's list commands are checked separately below.)"""
import base64, json, sys, time, urllib.request

api, auth, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
headers = {"Authorization": "Basic " + base64.b64encode(auth.encode()).decode(),
           "Content-Type": "application/json"}

def call(path, body=None):
    req = urllib.request.Request(api + path, headers=headers, method="POST" if body is not None else "GET",
                                 data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)

dep = call("/deployments/name/inbox-rerun/ddrank-inbox-on-event")
automations = [a["name"] for a in call("/automations/filter", {"limit": 50, "offset": 0, "sort": "NAME_ASC"})]
start, run, seen = time.monotonic(), None, None
while time.monotonic() - start < timeout:
    runs = call("/flow_runs/filter", {"limit": 10, "offset": 0, "sort": "EXPECTED_START_TIME_ASC",
                                      "deployments": {"id": {"any_": [dep["id"]]}}})
    if runs:
        run = runs[0]
        if run["state_type"] != seen:
            seen = run["state_type"]
            print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] run {run['name']}: {run['state_name']}",
                  file=sys.stderr, flush=True)
        if run["state_type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED"):
            break
    time.sleep(3)
out = {"automations": automations, "runs": len(runs) if run else 0,
       "waited_s": round(time.monotonic() - start)}
# The hourly deployment: the server's scheduler must have created its upcoming runs.
hourly = call("/deployments/name/inbox-rerun/ddrank-inbox-hourly")
for _ in range(40):
    scheduled = call("/flow_runs/filter", {"limit": 200, "offset": 0, "sort": "EXPECTED_START_TIME_ASC",
                                           "deployments": {"id": {"any_": [hourly["id"]]}}})
    if scheduled:
        break
    time.sleep(3)
out["hourly_runs"] = len(scheduled)
out["hourly_next"] = [r["expected_start_time"][:16] for r in scheduled[:2]]
if run:
    ids, level = [run["id"]], [run["id"]]
    for _ in range(3):  # the pipeline subflow and its own subflows (dd_analysis, ...)
        try:
            level = [r["id"] for r in call("/flow_runs/filter", {
                "limit": 50, "offset": 0, "sort": "START_TIME_ASC",
                "flow_runs": {"parent_flow_run_id": {"any_": level}}})]
        except Exception:  # the filter is not essential: the parent's log is enough
            break
        ids += level
    logs = call("/logs/filter", {"limit": 200, "offset": 0, "sort": "TIMESTAMP_ASC",
                                 "logs": {"flow_run_id": {"any_": ids}}})
    key = ("new file(s)", "no new hand records", "store-busy", "ingest", "pending boards",
           "partition 0", "regression")
    out.update(id=run["id"], name=run["name"], state=run["state_type"], parameters=run["parameters"],
               triggered_by=(run.get("created_by") or {}).get("type"),
               log=[l["message"].splitlines()[0][:160] for l in logs
                    if any(k in l["message"] for k in key)][:8])
print(json.dumps(out))
PY
) || die "could not poll the API for the event-triggered run"
field() { "$PYTHON" -c 'import json, sys; v = json.loads(sys.argv[1]).get(sys.argv[2]); print(v if isinstance(v, (str, int)) else json.dumps(v))' "$RESULT" "$1"; }
state=$(field state)
took_file=$(field log | grep -c "1 new file(s): $(basename "$SAMPLE")" || true)
check "event-triggered run of ddrank-inbox-on-event completes" \
  "$([[ $state == COMPLETED && $took_file == 1 ]] && echo 0 || echo 1)" \
  "flow run $(field name) ended $state after $(field waited_s) s, $([[ $took_file == 1 ]] && echo "ran the pipeline on the dropped file" || echo "did NOT process the dropped file") (created by $(field triggered_by), parameters $(field parameters); automations: $(field automations))"
"$PYTHON" -c 'import json, sys; [print("        run log:", m) for m in json.loads(sys.argv[1]).get("log", [])]' "$RESULT"
tr -d '\n' <"$LOGS/watcher.log" | grep -o 'arrived [^)]*)' | sed 's/^/        watcher: /' || true
n_sqla=$(grep -ciE 'sqlalchemy\.(exc|orm\.exc)|InvalidRequestError' "$LOGS/prefect-server.log" || true)
check "hourly deployment is scheduled" "$([[ $(field hourly_runs) -gt 0 ]] && echo 0 || echo 1)" \
  "the server's scheduler created $(field hourly_runs) run(s) of ddrank-inbox-hourly, next at $(field hourly_next) UTC ($(python_pkg sqlalchemy); SQLAlchemy errors in the server log: $n_sqla)"

# --- the Prefect CLI's list commands work against this server -------------------------------
# (with the fastapi pin of earlier versions both failed with HTTP 422: docs/operations.md §5)
run_id=$(field id) # the table may shorten a long run name; the id is printed whole
cli_rc=0
COLUMNS=200 "$PYTHON" -m prefect flow-run ls --flow-name inbox-rerun --limit 10 >"$LOGS/flow-run-ls.log" 2>&1 || cli_rc=$?
auto_rc=0
COLUMNS=200 "$PYTHON" -m prefect automation ls >"$LOGS/automation-ls.log" 2>&1 || auto_rc=$?
listed_run=$(grep -cF -- "$run_id" "$LOGS/flow-run-ls.log" || true)
listed_auto=$(grep -c 'ddrank-inbox-on-event__automation' "$LOGS/automation-ls.log" || true)
check "prefect flow-run ls and prefect automation ls work" \
  "$([[ $run_id =~ ^[0-9a-f-]{36}$ && $cli_rc == 0 && $auto_rc == 0 && $listed_run -ge 1 && $listed_auto -ge 1 ]] && echo 0 || echo 1)" \
  "\`prefect flow-run ls\` exited $cli_rc and lists the run ($run_id); \`prefect automation ls\` exited $auto_rc and lists the automation of the prefect.yaml trigger"
sed 's/^/        /' "$LOGS/flow-run-ls.log" "$LOGS/automation-ls.log"

# --- the store holds the new records ----------------------------------------------------------
expected=$(grep -c '^qx|' "$SAMPLE" || true)
STORE=$("$PYTHON" - "$DDRANK_DB" "$dropped" <<'PY' 2>&1
import json, sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
one = lambda q, *p: con.execute(q, list(p)).fetchone()[0]
print(json.dumps({
    "raw_records": one("SELECT count(*) FROM raw_records"),
    "source_files": one("SELECT count(*) FROM source_files WHERE path = ?", sys.argv[2]),
    "boards": one("SELECT count(*) FROM boards"),
    "exclusions": one("SELECT count(*) FROM exclusions"),
}))
PY
) || STORE='{}'
n_raw=$("$PYTHON" -c 'import json, sys; print(json.loads(sys.argv[1]).get("raw_records", 0))' "$STORE" 2>/dev/null || echo 0)
check "store holds the new records" \
  "$([[ $n_raw -gt 0 && $n_raw -le $expected ]] && echo 0 || echo 1)" \
  "$STORE in $DDRANK_DB; the file holds $expected table results (qx lines)"

# --- nothing listens beyond 127.0.0.1 -----------------------------------------------------------
LISTEN=$("$PYTHON" - "$PG_PID" "${PIDS[@]}" <<'PY'
"""Every TCP/UDP socket in listening state owned by a started process or a descendant of one."""
import json, re, subprocess, sys

roots = {int(p) for p in sys.argv[1:]}
children = {}
for line in subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.splitlines():
    pid, ppid = map(int, line.split())
    children.setdefault(ppid, []).append(pid)
ours, todo = set(), list(roots)
while todo:
    p = todo.pop()
    if p not in ours:
        ours.add(p)
        todo += children.get(p, [])
ss = subprocess.run(["ss", "-Hltunp"], capture_output=True, text=True, check=True).stdout
found = []
for line in ss.splitlines():
    pids = {int(p) for p in re.findall(r"pid=(\d+)", line)}
    if pids & ours:
        local = line.split()[4]
        addr = local.rsplit(":", 1)[0].strip("[]").split("%")[0]
        found.append({"addr": local, "loopback": addr in ("127.0.0.1", "::1"),
                      "process": re.findall(r'"([^"]+)"', line)[0]})
print(json.dumps(found))
PY
) || LISTEN='[]'
listen_ok=$("$PYTHON" -c '
import json, sys
f = json.loads(sys.argv[1])
print(0 if len(f) >= 3 and all(s["loopback"] for s in f) else 1)' "$LISTEN")
check "nothing listens beyond 127.0.0.1" "$listen_ok" \
  "$("$PYTHON" -c 'import json, sys; print(", ".join(s["process"] + " " + s["addr"] for s in json.loads(sys.argv[1])) or "no listening socket found")' "$LISTEN")"

# --- stop everything and report ---------------------------------------------------------------
stop_all
sleep 1
# No HTTP 422 anywhere: the registration, the CLI list commands, the worker, the watcher, the
# server (422 is what the fastapi pin of earlier versions caused; docs/operations.md §5).
with422=$(grep -lE "$HTTP_422" "$LOGS"/*.log 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ' || true)
check "no HTTP 422 in any log" "$([[ -z $with422 ]] && echo 0 || echo 1)" \
  "$(ls "$LOGS"/*.log | wc -l) logs searched$([[ -n $with422 ]] && echo ": 422 in $with422")"
left=$("$PYTHON" - "$PG_PID" "${STARTED_PIDS[@]}" <<'PY'
"""Started processes (and their process groups) still alive; a zombie awaiting its reaper is gone."""
import os, subprocess, sys

roots = set(sys.argv[1:])
alive = []
for line in subprocess.run(["ps", "-e", "-o", "pid=,pgid=,stat=,comm="], capture_output=True, text=True).stdout.splitlines():
    pid, pgid, stat, comm = line.split(None, 3)
    if (pid in roots or pgid in roots) and not stat.startswith("Z"):
        alive.append(f"{comm}({pid})")
print(" ".join(alive))
PY
)
if [[ -z $left ]]; then
  check "everything started is stopped" 0 "postgres, prefect-server, worker, watcher and all their processes are gone"
else
  check "everything started is stopped" 1 "still running: $left"
fi

echo
echo "== ddrank stack smoke (native) =="
printf '%s\n' "${CHECKS[@]}"
passed=$(printf '%s\n' "${CHECKS[@]}" | grep -c '^PASS' || true)
if [[ $FAILED == 0 ]]; then
  echo "SUMMARY: PASS ($passed/${#CHECKS[@]} checks)"
else
  echo "SUMMARY: FAIL ($passed/${#CHECKS[@]} checks passed)"
  exit 1
fi
