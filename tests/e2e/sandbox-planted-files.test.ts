import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeOutsideDir } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 26 items 2 and 5, against the built server and the real bubblewrap sandbox, with the server as root and as
 * uid 65534: a command in sandboxed mode tries to plant a program that the user's own `git status` / `git checkout`
 * (run afterwards on the host, outside any sandbox) or the user's editor and agent host would run. The planted
 * program writes a canary outside /tmp; the host's git runs after every attack and the canary must stay untouched.
 * With TERM_MCP_SANDBOX=off the first attack succeeds, which shows the canary can fail. Links at protected paths
 * never stop later commands from running.
 */

jest.setTimeout(90_000);

const NOBODY = 65534;
const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];

interface Scene {
  workspace: { root: string; remove(): void };
  outside: { root: string; remove(): void };
  canary: string;
  /** The program a planted config names: it writes the canary. */
  payload: string;
}

function setUp(): Scene {
  const workspace = makeTempWorkspace('term-mcp-plant-');
  const outside = makeOutsideDir('term-mcp-plant-canary-');
  const canary = path.join(outside.root, 'canary.txt');
  writeFileSync(canary, 'untouched\n');
  const payload = path.join(outside.root, 'payload.sh');
  writeFileSync(payload, `#!/bin/sh\necho PLANTED-RAN > '${canary}'\n`);
  chmodSync(payload, 0o755);
  hostGit(workspace.root, 'init', '-q', '.');
  writeFileSync(path.join(workspace.root, 'README'), 'hello\n');
  hostGit(workspace.root, 'add', 'README');
  hostGit(workspace.root, 'commit', '-q', '-m', 'init');
  mkdirSync(path.join(workspace.root, '.git', 'hooks'), { recursive: true });
  // The unprivileged server's commands must be able to write the workspace (its git objects included).
  execFileSync('chmod', ['-R', 'a+rwX', workspace.root]);
  return { workspace, outside, canary, payload };
}

/** The user's own git, on the host: `safe.directory=*` so that a repository a command made is not skipped as foreign. */
function hostGit(cwd: string, ...args: string[]): ReturnType<typeof spawnSync> {
  return spawnSync('git', ['-c', 'safe.directory=*', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** What the user does next: git status and a checkout at the root and in every repository the workspace has. */
function userRunsGit(scene: Scene, repositories: readonly string[] = ['.']): void {
  for (const relative of repositories) {
    const cwd = path.join(scene.workspace.root, relative);
    if (!existsSync(cwd)) continue;
    hostGit(cwd, 'status');
    hostGit(cwd, 'checkout', '--', '.');
  }
}

function startServer(scene: Scene, asNobody: boolean, env: Record<string, string> = {}): StdioPeer {
  return new StdioPeer(
    { WORKSPACE_ROOT: scene.workspace.root, APPROVAL_MODE: 'sandboxed', HOME: scene.outside.root, ...env },
    ['stdio'],
    asNobody ? AS_NOBODY : [],
  );
}

let calls = 0;

/** Polls a condition (no fixed sleep decides the outcome); fails with `what` after 30 s. */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `script` as a workspace script (sandboxed mode runs it at once) and returns the receipt. */
async function runScript(peer: StdioPeer, scene: Scene, script: string): Promise<Record<string, unknown>> {
  calls += 1;
  const file = path.join(scene.workspace.root, `step-${String(calls)}.sh`);
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o777);
  const answer = await peer.request(
    modern('tools/call', `call-${String(calls)}`, {
      name: 'terminal_execute',
      arguments: { command: `./${path.basename(file)}` },
    }),
    60_000,
  );
  const result = answer.result as { isError?: boolean; structuredContent: Record<string, unknown> };
  // A receipt, whatever the script's exit code (an attack's refused steps fail it).
  expect(result.structuredContent).toMatchObject({ schema_version: '1.0', confinement: { sandbox: 'bubblewrap' } });
  return result.structuredContent;
}

const fsmonitor = (payload: string): string => `printf '[core]\\n\\tfsmonitor = "${payload}"\\n'`;

/** Each attack: the script, and the repositories the user later runs git in. */
function attacks(scene: Scene): Array<{ name: string; script: string; repositories?: string[] }> {
  const { payload } = scene;
  return [
    {
      name: 'moves .git aside and writes the copy',
      script: `D=.git; mv $D .ga && mkdir $D && cp -a .ga/. ./$D && cd $D && ${fsmonitor(payload)} >> config`,
    },
    {
      name: 'appends to .git/config and plants hooks',
      script: `${fsmonitor(payload)} >> .git/config; cp '${payload}' .git/hooks/post-checkout; rm -rf .git/hooks`,
    },
    {
      name: 'writes .git/commondir pointing at a copied git directory',
      script: `cp -a .git .gx && ${fsmonitor(payload)} >> .gx/config; echo ../.gx > .git/commondir`,
    },
    {
      name: 'replaces .git by a gitdir file pointing at a planted git directory',
      script: `cp -a .git .gy && ${fsmonitor(payload)} >> .gy/config; mv .git .gz; rm -f .git; echo 'gitdir: .gy' > .git`,
    },
    {
      name: 'writes .git/modules/*/config',
      script:
        'mkdir -p .git/modules; cp -a .git /tmp/sub-gitdir && rm -rf /tmp/sub-gitdir/modules && cp -a /tmp/sub-gitdir .git/modules/sub && ' +
        `${fsmonitor(payload)} >> .git/modules/sub/config`,
    },
  ];
}

/**
 * A scene and a server over it for one describe block, as root or as uid 65534: `prepare` changes the scene before the
 * server starts; both are gone after the block. The returned getter is read inside the tests.
 */
function useScenePeer(
  asNobody: boolean,
  prepare: (scene: Scene) => void = () => undefined,
): () => { scene: Scene; peer: StdioPeer } {
  let current: { scene: Scene; peer: StdioPeer } | undefined;
  beforeAll(() => {
    const scene = setUp();
    prepare(scene);
    current = { scene, peer: startServer(scene, asNobody) };
  });
  afterAll(async () => {
    if (current === undefined) return;
    await current.peer.end();
    current.scene.workspace.remove();
    current.scene.outside.remove();
  });
  return () => {
    if (current === undefined) throw new Error('the scene is made in beforeAll');
    return current;
  };
}

describe.each([
  ['root', false],
  ['uid 65534', true],
] as const)('the server as %s, sandboxed mode', (_user, asNobody) => {
  describe.each([0, 1, 2, 3, 4])('attack %i on the git directory', (index) => {
    const current = useScenePeer(asNobody);

    it('plants nothing that the user’s git status or checkout runs', async () => {
      const { scene, peer } = current();
      const attack = attacks(scene)[index];
      if (!attack) throw new Error(`no attack ${String(index)}`);
      const receipt = await runScript(peer, scene, attack.script);
      expect(receipt.confinement).toMatchObject({ sandbox: 'bubblewrap' });
      userRunsGit(scene, ['.', '.ga', '.gx', '.gy']);
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
      expect(hostGit(scene.workspace.root, 'config', 'core.fsmonitor').stdout).toBe('');
      // Still a working repository for the next command.
      expect(
        (await runScript(peer, scene, 'git -c safe.directory=* status --short >/dev/null && echo GIT-OK')).stdout,
      ).toContain('GIT-OK');
    });
  });

  describe('a nested repository and the files editors and agent hosts run on open', () => {
    const current = useScenePeer(asNobody);

    it('cannot create run-on-open files that did not exist; the placeholders go after the command', async () => {
      const { scene, peer } = current();
      const receipt = await runScript(
        peer,
        scene,
        [
          'mkdir -p .vscode && echo \'{"tasks":[]}\' > .vscode/tasks.json && echo VSCODE-WRITTEN',
          'mkdir -p .claude && echo \'{"hooks":{}}\' > .claude/settings.json && echo CLAUDE-WRITTEN',
          "echo '{}' > .claude/settings.local.json && echo CLAUDE-LOCAL-WRITTEN",
          'echo \'{"mcpServers":{}}\' > .mcp.json && echo MCP-WRITTEN',
          'echo "touch pwned" > .envrc && echo ENVRC-WRITTEN',
          'mkdir -p .idea && echo x > .idea/workspace.xml && echo IDEA-WRITTEN',
          'echo "[submodule \\"x\\"]" > .gitmodules && echo GITMODULES-WRITTEN',
          'echo "* filter=x" > .gitattributes && echo GITATTRIBUTES-WRITTEN',
          'ln -s /etc .vscode 2>/dev/null && echo LINK-MADE',
          'ln -s /etc/hostname .mcp.json 2>/dev/null && echo LINK-MADE',
          'echo ran',
        ].join('\n'),
      );
      expect(receipt.stdout).toBe('ran\n');
      expect(receipt.run_on_open_changes).toEqual([]);
      // The empty placeholders linger briefly for the next command, then go (nothing the command wrote stays).
      const names = ['.vscode', '.claude', '.mcp.json', '.envrc', '.idea', '.gitmodules', '.gitattributes'];
      await waitUntil(
        () => names.every((name) => !existsSync(path.join(scene.workspace.root, name))),
        'the placeholders to be removed',
      );
    });

    it('names a nested repository with its own config in the receipt, and the user’s git status at the root does not run it', async () => {
      const { scene, peer } = current();
      const receipt = await runScript(
        peer,
        scene,
        `mkdir sub && cd sub && git init -q . && ${fsmonitor(scene.payload)} >> .git/config && echo NESTED-MADE`,
      );
      expect(receipt.stdout).toBe('NESTED-MADE\n');
      expect(receipt.run_on_open_changes).toEqual(expect.arrayContaining(['sub/.git', 'sub/.git/config']));
      userRunsGit(scene, ['.']);
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
    });

    it('protects a nested repository that existed before the command, like the root one', async () => {
      const { scene, peer } = current();
      const nested = path.join(scene.workspace.root, 'lib', 'vendor');
      mkdirSync(nested, { recursive: true });
      hostGit(nested, 'init', '-q', '.');
      execFileSync('chmod', ['-R', 'a+rwX', path.join(scene.workspace.root, 'lib')]);
      const receipt = await runScript(
        peer,
        scene,
        `cd lib/vendor && (${fsmonitor(scene.payload)} >> .git/config || mv .git .old || mv ../vendor ../v2 || mv ../../lib ../../l2) 2>/dev/null; echo done`,
      );
      expect(receipt.stdout).toBe('done\n');
      expect(receipt.run_on_open_changes).toEqual([]);
      userRunsGit(scene, ['lib/vendor']);
      expect(readFileSync(scene.canary, 'utf8')).toBe('untouched\n');
    });
  });

  describe('links at protected paths (made by the user on the host)', () => {
    const current = useScenePeer(asNobody, (scene) => {
      symlinkSync('/etc', path.join(scene.workspace.root, '.vscode'));
      symlinkSync('/etc/hostname', path.join(scene.workspace.root, '.mcp.json'));
      mkdirSync(path.join(scene.workspace.root, 'shared-claude'));
      symlinkSync('shared-claude', path.join(scene.workspace.root, '.claude'));
      execFileSync('chmod', ['-R', 'a+rwX', scene.workspace.root]);
    });

    it('do not stop commands from running, and a link into the workspace protects its target', async () => {
      const { scene, peer } = current();
      for (let round = 0; round < 2; round += 1) {
        const receipt = await runScript(
          peer,
          scene,
          'echo x > shared-claude/settings.json 2>/dev/null && echo TARGET-WRITTEN; echo still-runs',
        );
        expect(receipt).toMatchObject({ status: 'succeeded', stdout: 'still-runs\n' });
      }
      expect(existsSync(path.join(scene.workspace.root, 'shared-claude', 'settings.json'))).toBe(false);
    });

    it('a link the user made that a command replaces is named in the receipt', async () => {
      const { scene, peer } = current();
      const receipt = await runScript(peer, scene, 'rm .mcp.json && echo "{}" > .mcp.json && echo REPLACED');
      expect(receipt.stdout).toBe('REPLACED\n');
      expect(receipt.run_on_open_changes).toEqual(['.mcp.json']);
    });
  });
});

describe('the same attacks without a sandbox (the control: the canary can fail)', () => {
  it.each([0, 1, 2, 3, 4])(
    'attack %i run directly on the host plants a program the user’s git status or checkout runs',
    (index) => {
      const scene = setUp();
      try {
        const attack = attacks(scene)[index];
        if (!attack) throw new Error(`no attack ${String(index)}`);
        spawnSync('/bin/sh', ['-c', attack.script], { cwd: scene.workspace.root, stdio: 'ignore' });
        if (index === 4) {
          // A submodule's git directory is used once the superproject has the submodule: what a later clone or
          // `git submodule absorbgitdirs` leaves, done here by hand.
          mkdirSync(path.join(scene.workspace.root, 'sub'));
          writeFileSync(path.join(scene.workspace.root, 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
          hostGit(scene.workspace.root, '--git-dir=.git/modules/sub', 'config', 'core.worktree', '../../../sub');
        }
        userRunsGit(scene, ['.', '.ga', '.gx', '.gy', 'sub']);
        expect(readFileSync(scene.canary, 'utf8')).toBe('PLANTED-RAN\n');
      } finally {
        scene.workspace.remove();
        scene.outside.remove();
      }
    },
  );
});
