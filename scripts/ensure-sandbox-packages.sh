#!/usr/bin/env bash
# Every command runs inside a bubblewrap sandbox (docs/security.md), with limits set by util-linux's prlimit; socat and
# ripgrep are what @anthropic-ai/sandbox-runtime's dependency check asks for. On a fresh machine where we are root
# with apt-get, install what is missing; elsewhere say how (the server then refuses commands with sandbox_unavailable).
set -euo pipefail
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || missing+=(util-linux)
command -v socat >/dev/null 2>&1 || missing+=(socat)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
# Terminal sessions (docs/terminal-sessions.md): util-linux's script opens the terminal inside the sandbox, bash runs
# the line; the terminal-session tests page with less and edit with `vim` (vim-tiny has no `vim` command).
command -v script >/dev/null 2>&1 || missing+=(bsdutils)
command -v bash >/dev/null 2>&1 || missing+=(bash)
command -v less >/dev/null 2>&1 || missing+=(less)
command -v vim >/dev/null 2>&1 || missing+=(vim)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-sandbox-packages: installing ${missing[*]} for the command sandbox" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "ensure-sandbox-packages: missing ${missing[*]}; install them (e.g. 'sudo apt-get install ${missing[*]}')" >&2
exit 1
