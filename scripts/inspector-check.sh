#!/usr/bin/env bash
# Runs the official MCP Inspector CLI (pinned) against `term-mcp stdio` in both eras, listing tools and planning `pwd`.
# Usage: scripts/inspector-check.sh [workspace-dir]   (needs `npm run build` first; fetches the Inspector with npx)
set -euo pipefail
cd "$(dirname "$0")/.."
INSPECTOR="@modelcontextprotocol/inspector@2.12.0"
WORKSPACE="${1:-$PWD}"
SERVER=(node "$PWD/dist/main/cli.js" stdio --workspace "$WORKSPACE")
for era in legacy modern; do
  echo "== Inspector ${INSPECTOR} --protocol-era ${era}: tools/list"
  npx -y "$INSPECTOR" --cli --protocol-era "$era" "${SERVER[@]}" --method tools/list --format json
  echo "== Inspector ${INSPECTOR} --protocol-era ${era}: tools/call terminal_plan {command: pwd}"
  npx -y "$INSPECTOR" --cli --protocol-era "$era" "${SERVER[@]}" --method tools/call \
    --tool-name terminal_plan --tool-args-json '{"command":"pwd"}' --format json
done
