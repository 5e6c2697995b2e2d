import { readFileSync } from 'node:fs';
import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import { TYPES } from '../../src/main/types';
import {
  TOKEN,
  UiPage,
  useChromium,
  VIEWPORTS,
  describeInBrowser,
  startEmbeddedServer,
  startTestServer,
  type EmbeddedServer,
  type TestServer,
} from './ui-harness';

// Reloads, a server restart and a graceful shutdown take a few seconds each on a loaded machine.
jest.setTimeout(90_000);

function sessionIds(server: TestServer): string[] {
  return server.handle.container
    .get<TerminalSessionStore>(TYPES.TerminalSessionStore)
    .list()
    .map((session) => session.id);
}

describeInBrowser.each(VIEWPORTS)('mission control sessions, failures, embedding and receipts, $name', (viewport) => {
  const chromium = useChromium();
  let server: TestServer | undefined;
  let embedded: EmbeddedServer | undefined;
  let ui: UiPage;

  beforeEach(async () => {
    ui = await chromium.open(viewport);
  });

  afterEach(async () => {
    await ui.close();
    await server?.stop();
    await embedded?.stop();
    server = undefined;
    embedded = undefined;
  });

  function expectNoUnexpectedFailure(): void {
    expect(ui.errors).toEqual([]);
    expect(ui.notFound).toEqual([]);
  }

  it('opens the session with the first plan, reuses it across reloads (never one per reload); New session and Lock close theirs', async () => {
    const { page } = ui;
    server = await startTestServer();
    await ui.connect(`${server.origin}/`);
    // Connecting opens nothing: MCP opens a session with the first terminal_plan.
    expect([await ui.sessionId(), sessionIds(server)]).toEqual(['', []]);
    const card = await ui.plan('echo kept', 'Planned');
    const first = await ui.waitForSession();
    expect(sessionIds(server)).toEqual([first]);
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();

    for (let reload = 0; reload < 3; reload += 1) {
      await page.reload();
      expect(await ui.waitForSession()).toBe(first);
    }
    expect(sessionIds(server)).toEqual([first]);
    await ui.card(1).locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    expect(await ui.card(1).locator('[data-role=command]').textContent()).toBe('echo kept');
    await ui.card(1).locator('[data-action=receipt]').click();
    await page.locator('#receipt-command').filter({ hasText: 'echo kept' }).waitFor();

    await page.click('#new-session');
    await ui.until(`document.getElementById('session-id').title !== ${JSON.stringify(first)}`);
    await ui.until(`document.getElementById('ledger-empty').checkVisibility()`);
    expect(await page.locator('.plan-card').count()).toBe(0);
    expect(sessionIds(server)).toEqual([]);
    await ui.plan('echo next', 'Planned');
    const second = await ui.waitForSession();
    expect(second).not.toBe(first);
    expect(sessionIds(server)).toEqual([second]);

    await page.click('#lock');
    await page.locator('#gate').waitFor();
    expect(sessionIds(server)).toEqual([]);
    expect(
      await page.evaluate('[sessionStorage.getItem("term-mcp-auth"), sessionStorage.getItem("term-mcp-session")]'),
    ).toEqual([null, null]);
    expect(await page.inputValue('#token')).toBe('');
    expectNoUnexpectedFailure();
  });

  it('after a reload, follows a command that is still running and replays its output', async () => {
    const { page } = ui;
    server = await startTestServer();
    await ui.connect(`${server.origin}/`);
    const card = await ui.plan('echo one; sleep 2; echo two', 'Planned');
    await card.locator('[data-action=approve]').click();
    await card.locator('[data-action=run]').click();
    await ui.waitForTerminalLine(/^one$/);
    await page.reload();
    await ui.waitForSession();
    await ui.waitForTerminalLine(/^two$/);
    const lines = await ui.terminalLines();
    expect(lines.filter((line) => line === 'one')).toHaveLength(1);
    await ui.card(1).locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    expect(await page.textContent('#receipt-status')).toBe('Succeeded');
    expect(sessionIds(server)).toHaveLength(1);
    expectNoUnexpectedFailure();
  });

  it('says so when the session has ended, and starts a new one on request', async () => {
    const { page } = ui;
    server = await startTestServer();
    const sessionId = await (async () => {
      await ui.connect(`${server.origin}/`);
      await ui.plan('echo first', 'Planned');
      await ui.waitForEventStreams(1);
      return ui.waitForSession();
    })();
    await server.handle.container.get<TerminalSessionStore>(TYPES.TerminalSessionStore).close(sessionId);
    await page
      .locator('#banner-text')
      .filter({ hasText: 'This session has ended: it expired or was closed.' })
      .waitFor();
    expect(await page.textContent('#connection')).toBe('Session ended');
    await page.getByRole('button', { name: 'Start a new session' }).click();
    await ui.until(`document.getElementById('session-id').title !== ${JSON.stringify(sessionId)}`);
    await page.locator('#banner').waitFor({ state: 'hidden' });
    const card = await ui.plan('echo again', 'Planned');
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    expectNoUnexpectedFailure();
  });

  it('reports a graceful stop as a stop (not "session ended", not "Failed to fetch") and reconnects once it is back', async () => {
    const { page } = ui;
    server = await startTestServer();
    await ui.connect(`${server.origin}/`);
    const port = server.port;
    await ui.plan('echo before the stop', 'Planned');
    const firstSession = await ui.waitForSession();
    // The stream must be open to hear the session close as the server stops.
    await ui.waitForEventStreams(1);
    await server.stop();
    server = undefined;
    // A graceful shutdown ends the session first (its stream says so), then stops answering: that is a stop.
    const banner = page.locator('#banner-text');
    await banner
      .filter({
        hasText:
          'The term-mcp server was stopped: it shut down gracefully and closed this session on the way. Start it again (term-mcp http), then press Reconnect.',
      })
      .waitFor();
    expect(await page.textContent('#connection')).toBe('Server stopped');
    expect(await page.isVisible('#banner-action')).toBe(true);
    expect(await page.textContent('#banner-action')).toBe('Reconnect');
    const text = await ui.bodyText();
    expect(text).not.toContain('Failed to fetch');
    expect(text).not.toContain('This session has ended');

    server = await startTestServer({ PORT: String(port) });
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await page.locator('#connection').filter({ hasText: 'Connected' }).waitFor();
    // The restarted server knows nothing of the first session: the page forgets it, and its next plan opens one.
    await ui.until(`document.getElementById('session-id').title === ''`);
    expect(sessionIds(server)).toEqual([]);
    const card = await ui.plan('echo back', 'Planned');
    expect(sessionIds(server)).toEqual([await ui.waitForSession()]);
    expect(await ui.sessionId()).not.toBe(firstSession);
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    // The failed calls while the server was down are Chromium's own network errors.
    ui.errors.splice(0, ui.errors.length, ...ui.errors.filter((error) => !error.includes('ERR_CONNECTION_REFUSED')));
    expectNoUnexpectedFailure();
  });

  it('works where a host app mounts it under /terminal: relative assets and API calls, nothing outside the prefix', async () => {
    const { page } = ui;
    embedded = await startEmbeddedServer();
    const bare = await fetch(`${embedded.origin}/terminal`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/terminal/']);
    await page.goto(`${embedded.origin}/terminal`);
    expect(page.url()).toBe(embedded.pageUrl);
    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await ui.waitForConsole();
    const card = await ui.plan("printf '\\033[32mgreen\\033[0m\\n'", 'Planned');
    await card.locator('[data-action=run]').click();
    await ui.waitForTerminalLine(/^green$/);
    expect(await page.locator('#terminal .xterm-rows span.xterm-fg-2', { hasText: 'green' }).count()).toBe(1);
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await page.reload();
    await ui.waitForSession();
    expect(ui.requested.length).toBeGreaterThan(10);
    // Only the bare `/terminal` the test typed, redirected; everything the page itself asked for is inside the prefix.
    expect(ui.requested.filter((path) => !path.startsWith('/terminal/'))).toEqual(['/terminal']);
    expect(ui.requested).toEqual(
      expect.arrayContaining([
        '/terminal/vendor/xterm.mjs',
        '/terminal/static/app.js',
        '/terminal/mcp',
        '/terminal/ui/config',
      ]),
    );
    expect(await ui.scrollWidth()).toBeLessThanOrEqual(viewport.width);
    expectNoUnexpectedFailure();
  });

  it('imports a receipt file (≤ 2 MB), refuses what is not one, and copies the receipt JSON', async () => {
    const { page } = ui;
    server = await startTestServer();
    await ui.connect(`${server.origin}/`);
    const card = await ui.plan('echo receipt', 'Planned');
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await page.click('#receipt-copy');
    await page.locator('#receipt-note').filter({ hasText: 'Receipt JSON copied to the clipboard.' }).waitFor();
    const receipt = JSON.parse((await page.evaluate('navigator.clipboard.readText()')) as string) as Record<
      string,
      unknown
    >;
    expect(receipt).toMatchObject({ command: 'echo receipt', status: 'succeeded', stdout: 'receipt\n', exit_code: 0 });

    await page.click('#new-session');
    await ui.until(`document.getElementById('receipt-body').hidden`);
    await page.setInputFiles('#receipt-file', {
      name: 'receipt.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(receipt)),
    });
    await page.locator('#receipt-origin').filter({ hasText: 'imported from receipt.json' }).waitFor();
    expect(await page.textContent('#receipt-command')).toBe('echo receipt');
    expect(await page.textContent('#receipt-stdout')).toBe('receipt\n');
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();

    await page.setInputFiles('#receipt-file', {
      name: 'big.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20),
    });
    await page.locator('#receipt-note').filter({ hasText: 'This file is larger than 2 MB' }).waitFor();
    await page.setInputFiles('#receipt-file', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not json at all'),
    });
    await page
      .locator('#receipt-note')
      .filter({ hasText: 'notes.txt: This file is not JSON, so it is not a receipt.' })
      .waitFor();
    // The receipt shown before is put away: its seal said nothing about this file.
    expect(await page.isHidden('#receipt-body')).toBe(true);
    expect(await page.getAttribute('#receipt-seal', 'data-seal')).toBe('none');
    expect(await page.isVisible('#receipt-seal')).toBe(false);
    expect(await page.isDisabled('#receipt-copy')).toBe(true);
    expectNoUnexpectedFailure();
  });
});

// The receipt toolchain's routes: `/mcp/info`, `/receipts/validate`, `/receipts/redact`, `/demo/scenarios`.
describeInBrowser.each(VIEWPORTS)('mission control with the receipt routes, $name', (viewport) => {
  const chromium = useChromium();
  let server: TestServer | undefined;
  let ui: UiPage;

  beforeEach(async () => {
    ui = await chromium.open(viewport);
    server = await startTestServer();
    await ui.connect(`${server.origin}/`);
  });

  afterEach(async () => {
    await ui.close();
    await server?.stop();
    server = undefined;
  });

  async function runEcho(): Promise<Record<string, unknown>> {
    const card = await ui.plan('echo sealed', 'Planned');
    await card.locator('[data-action=run]').click();
    await ui.page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    await ui.page.click('#receipt-copy');
    await ui.page.locator('#receipt-note').filter({ hasText: 'copied' }).waitFor();
    return JSON.parse((await ui.page.evaluate('navigator.clipboard.readText()')) as string) as Record<string, unknown>;
  }

  async function importJson(value: unknown): Promise<void> {
    await ui.page.setInputFiles('#receipt-file', {
      name: 'import.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(value)),
    });
  }

  it('shows the guided scenarios as a rail; a click loads the command; the workspace facts come from /mcp/info', async () => {
    const { page } = ui;
    await page.locator('#scenarios').waitFor();
    expect(await page.locator('.scenario code').allTextContents()).toEqual(['pwd', 'sleep 15', 'ls -la']);
    await page.locator('.scenario', { hasText: 'ls -la' }).click();
    expect(await page.inputValue('#command')).toBe('ls -la');
    expect(await page.innerText('#workspace-facts')).toContain(server!.workspaceRoot);
    expect(await page.innerText('#workspace-facts')).toMatch(/Network\s+Denied by default/);
    expect(await page.innerText('#workspace-facts')).toMatch(/Sandbox\s+bubblewrap · workspace read-only · no network/);
  });

  it('seals a tampered receipt BAD SIGNATURE and a malformed one INVALID', async () => {
    const receipt = await runEcho();
    await importJson({ ...receipt, stdout: 'forged\n' });
    await ui.page
      .locator('#receipt-seal')
      .filter({ hasText: /^BAD SIGNATURE$/ })
      .waitFor();
    await importJson({ hello: 'world' });
    await ui.page
      .locator('#receipt-seal')
      .filter({ hasText: /^INVALID$/ })
      .waitFor();
  });

  it('exports the share-redacted copy, re-signed by the server', async () => {
    const receipt = await runEcho();
    const [download] = await Promise.all([ui.page.waitForEvent('download'), ui.page.click('#receipt-export')]);
    expect(download.suggestedFilename()).toBe(`term-mcp-receipt-${String(receipt.id)}-redacted.json`);
    const path = await download.path();
    const redacted = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(redacted).toMatchObject({
      sharing_redacted: true,
      command: '[REDACTED FOR SHARING]',
      stdout: '[REDACTED FOR SHARING]',
    });
    await importJson(redacted);
    await ui.page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expect(await ui.scrollWidth()).toBeLessThanOrEqual(viewport.width);
  });
});
