#!/usr/bin/env bash
# Runs the official MCP Inspector CLI (pinned) against `term-mcp stdio` in both eras, listing tools and planning `pwd`.
# Usage: scripts/inspector-check.sh [workspace-dir]   (needs `npm run build` first; uses the pinned devDependency in
# node_modules, or fetches the same version with npx when it is absent). tests/e2e/inspector-cli.test.ts runs more.
set -euo pipefail
cd "$(dirname "$0")/.."
INSPECTOR="@modelcontextprotocol/inspector@2.12.0"
if [[ -x node_modules/.bin/mcp-inspector ]]; then RUN=(node_modules/.bin/mcp-inspector); else RUN=(npx -y "$INSPECTOR"); fi
WORKSPACE="${1:-$PWD}"
SERVER=(node "$PWD/dist/main/cli.js" stdio --workspace "$WORKSPACE")
for era in legacy modern; do
  echo "== Inspector ${INSPECTOR} --protocol-era ${era}: tools/list"
  "${RUN[@]}" --cli --protocol-era "$era" "${SERVER[@]}" --method tools/list --format json
  echo "== Inspector ${INSPECTOR} --protocol-era ${era}: tools/call terminal_plan {command: pwd}"
  "${RUN[@]}" --cli --protocol-era "$era" "${SERVER[@]}" --method tools/call \
    --tool-name terminal_plan --tool-args-json '{"command":"pwd"}' --format json
done
