import path from 'node:path';
import { runDoctor } from '../../../src/main/commands/doctor-command';
import { makeTempWorkspace } from '../../support/workspace';

interface DoctorReport {
  version: string;
  ok: boolean;
  checks: Record<string, { ok: boolean; detail: string; required: boolean }>;
}

function doctor(argv: string[], env: NodeJS.ProcessEnv): { code: number; output: string } {
  let output = '';
  const code = runDoctor(argv, { env, cwd: '/', nodeVersion: process.version, write: (text) => (output += text) });
  return { code, output };
}

describe('term-mcp doctor', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  beforeEach(() => {
    workspace = makeTempWorkspace();
  });
  afterEach(() => workspace.remove());

  it('starts a real sandbox: a write outside fails, the network is off; exit 0 when every required check holds', () => {
    const { code, output } = doctor(['--json'], { WORKSPACE_ROOT: workspace.root });
    const report = JSON.parse(output) as DoctorReport;
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.sandbox).toEqual({ ok: true, detail: 'a write outside the workspace failed; network off (loopback only)', required: true });
    expect(report.checks.node).toMatchObject({ ok: true, required: true });
    expect(report.checks.workspace_read).toMatchObject({ ok: true, required: true });
    expect(report.checks.deepseek_key).toMatchObject({ ok: false, required: false });
  });

  it('fails (exit 1) with how to fix it when bubblewrap is missing, one line per check', () => {
    const { code, output } = doctor([], { WORKSPACE_ROOT: workspace.root, TERM_MCP_BWRAP: path.join(workspace.root, 'no-bwrap') });
    expect(code).toBe(1);
    expect(output).toMatch(/^FAIL sandbox: bubblewrap not found at .*apt-get install bubblewrap/m);
    expect(output).toMatch(/^ok {3}node: /m);
    expect(output.trim().split('\n').at(-1)).toBe('term-mcp doctor: a required check failed');
  });

  it('reports a configuration error as a failed check', () => {
    const { code, output } = doctor(['--json'], { WORKSPACE_ROOT: path.join(workspace.root, 'missing') });
    const report = JSON.parse(output) as DoctorReport;
    expect(code).toBe(1);
    expect(report.checks.configuration).toMatchObject({ ok: false, required: true, detail: expect.stringContaining('WORKSPACE_ROOT') });
  });

  it('reports TERM_MCP_SANDBOX=off as a warning, not a failure', () => {
    const { code, output } = doctor(['--json'], { WORKSPACE_ROOT: workspace.root, TERM_MCP_SANDBOX: 'off' });
    expect(code).toBe(0);
    expect((JSON.parse(output) as DoctorReport).checks.sandbox).toMatchObject({ ok: false, required: false });
  });
});
