#!/usr/bin/env bash
# tests/e2e/python-sdk.test.ts drives term-mcp with the official Python MCP SDK inside a virtual environment it makes
# under node_modules/.cache (python3 -m venv, then pip install mcp from PyPI). Debian's python3 needs python3-venv for
# that. On a fresh machine where we are root with apt-get, install what is missing; elsewhere say how (the test fails).
set -euo pipefail
if command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-python-venv: installing python3 and python3-venv for the Python SDK test" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
  exit 0
fi
echo "ensure-python-venv: python3 with the venv module is missing; install it (e.g. 'sudo apt-get install python3-venv') to run the Python SDK test" >&2
