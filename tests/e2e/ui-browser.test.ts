import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FakeDeepSeekServer } from '../adapters/deepseek/fake-deepseek-server';
import {
  TOKEN,
  UiPage,
  useChromium,
  VIEWPORTS,
  describeInBrowser,
  startTestServer,
  type TestServer,
} from './ui-harness';

const OPERATOR_TOKEN = 'operator-token-that-is-longer-than-thirty-two-chars';
/** Red text, a reset, then a carriage return that moves the cursor back so `X` overwrites `a`. */
const COLOURED = "printf '\\033[31mred\\033[0m plain\\nabc\\rX\\n'";
/** Text written for the model (tool names, next_step wording) must never reach the page. */
const MODEL_TEXT = /terminal_[a-z]+|session_id|next_step|do not retry|Show the user|call terminal/i;

describeInBrowser.each(VIEWPORTS)('mission control in real Chromium, $name', (viewport) => {
  const chromium = useChromium();
  let server: TestServer | undefined;
  let deepseek: FakeDeepSeekServer | undefined;
  let ui: UiPage;

  beforeEach(async () => {
    ui = await chromium.open(viewport);
  });

  afterEach(async () => {
    // The page first: its open requests would otherwise hold the server's graceful close.
    await ui.close();
    await server?.stop();
    await deepseek?.stop();
    server = undefined;
    deepseek = undefined;
  });

  async function open(env: Record<string, string> = {}): Promise<TestServer> {
    server = await startTestServer(env);
    await ui.connect(`${server.origin}/`);
    return server;
  }

  function expectCleanPage(): void {
    expect(ui.errors).toEqual([]);
    expect(ui.notFound).toEqual([]);
  }

  it('refuses a wrong token in words, then plans, runs the card’s own command and renders it as a terminal', async () => {
    server = await startTestServer();
    const { page } = ui;
    await page.goto(`${server.origin}/`);
    await page.fill('#token', 'w'.repeat(40));
    await page.click('#connect');
    await page.locator('#gate-error').filter({ hasText: 'The server refused this token' }).waitFor();
    expect(await page.isHidden('#console')).toBe(true);

    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await ui.waitForConsole();
    expect(await page.evaluate('[sessionStorage.getItem("term-mcp-auth"), localStorage.length]')).toEqual([TOKEN, 0]);

    const card = await ui.plan(COLOURED, 'Planned');
    expect(await card.locator('[data-role=risk]').textContent()).toBe('LOW RISK');
    expect(await card.locator('[data-role=command]').textContent()).toBe(COLOURED);
    expect(await card.locator('[data-action=approve]').count()).toBe(0);
    expect(await card.locator('.card-facts').innerText()).toMatch(
      /Directory\s+\S+[\s\S]*Network\s+Not requested[\s\S]*Limits\s+20 s · 1 MiB output/,
    );

    // Whatever is typed since, Run executes the plan of its card.
    await page.fill('#command', 'echo typed-later');
    await card.locator('[data-action=run]').click();
    await ui.waitForTerminalLine(/^— Succeeded · exit 0/);
    const lines = await ui.terminalLines();
    expect(lines).toContain('red plain');
    expect(lines).toContain('Xbc');
    expect(lines.join('\n')).not.toContain('typed-later');
    expect(lines.join('\n')).not.toContain('\u001b');
    // xterm.js painted "red" with ANSI colour 1.
    expect(await page.locator('#terminal .xterm-rows span.xterm-fg-1', { hasText: 'red' }).count()).toBe(1);

    await ui.stripState('succeeded');
    expect(await card.locator('[data-role=status]').textContent()).toBe('Succeeded');
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expect(await page.textContent('#receipt-status')).toBe('Succeeded');
    expect(await page.textContent('#receipt-end')).toBe('exit 0');
    expect(await page.textContent('#receipt-command')).toBe(COLOURED);
    expect(await page.textContent('#receipt-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.textContent('#receipt-permission')).toBe('inspect / policy allowed');
    expect(await card.locator('[data-action=retry]').isVisible()).toBe(true);

    expect(await ui.bodyText()).not.toMatch(MODEL_TEXT);
    expect(await ui.scrollWidth()).toBeLessThanOrEqual(viewport.width);
    for (const selector of ['#command', '#plan-button', '.plan-card', '#strip', '#terminal', '#receipt-panel']) {
      await ui.assertFitsWidth(selector, viewport.width);
    }
    expectCleanPage();
  });

  it('keeps every plan as a card whose Approve, Run, Retry and Copy act on that plan; a blocked one offers none', async () => {
    const { page } = ui;
    await open();
    const sleeping = await ui.plan('sleep 1', 'Planned');
    expect(await sleeping.locator('[data-role=risk]').textContent()).toBe('MEDIUM RISK');
    expect(await sleeping.locator('[data-role=note]').textContent()).toBe('Needs your approval before it can run.');
    expect(await sleeping.locator('[data-action=run]').count()).toBe(0);

    const blocked = await ui.plan('rm -rf /', 'Blocked');
    expect(await blocked.locator('[data-role=risk]').count()).toBe(0);
    expect(await blocked.locator('[data-role=note]').textContent()).toBe(
      'The policy blocked this command. It cannot run.',
    );
    expect(await blocked.locator('.card-actions button').allTextContents()).toEqual(['Copy']);
    expect(await blocked.locator('.card-reasons li').count()).toBeGreaterThan(0);

    await blocked.locator('[data-action=copy]').click();
    await page.locator('#toast').filter({ hasText: 'Command copied.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('rm -rf /');

    const first = ui.card(1);
    await first.locator('[data-action=approve]').click();
    await first.locator('[data-role=status]').filter({ hasText: 'Approved' }).waitFor();
    await first.locator('[data-action=run]').click();
    await first.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await ui.waitForTerminalLine(/^\$ sleep 1$/);

    await first.locator('[data-action=retry]').click();
    const retried = ui.card(3);
    await retried.locator('[data-role=status]').filter({ hasText: 'Planned' }).waitFor();
    expect(await retried.locator('[data-role=command]').textContent()).toBe('sleep 1');
    expect(await retried.locator('[data-action=approve]').count()).toBe(1);
    expect(await page.locator('.plan-card .plan-number').allTextContents()).toEqual(['PLAN 03', 'PLAN 02', 'PLAN 01']);
    expect(await ui.bodyText()).not.toMatch(MODEL_TEXT);
    expectCleanPage();
  });

  it('streams a large output into the terminal in batches, to its last line', async () => {
    const { page } = ui;
    const running = await open();
    const lines = Array.from({ length: 20_000 }, (_unused, index) => `line ${String(index + 1).padStart(5, '0')}`);
    writeFileSync(path.join(running.workspaceRoot, 'big.txt'), `${lines.join('\n')}\n`);
    const card = await ui.plan('cat big.txt', 'Planned');
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await ui.waitForTerminalLine(/^line 20000$/);
    expect(await ui.terminalLines()).toContain('line 19999');
    // 234 KiB in at most 64 KiB per read: a handful of reads, not one per chunk the command wrote.
    expect(ui.requested.filter((requested) => requested === '/mcp').length).toBeLessThan(20);
    // The receipt is larger than an MCP request may be (MAX_REQUEST_BYTES, 64 KiB); /receipts/validate takes 2 MiB.
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expectCleanPage();
  });

  it('pauses, resumes and cancels the running command from the execution strip', async () => {
    const { page } = ui;
    await open();
    const card = await ui.plan('sleep 30', 'Planned');
    await card.locator('[data-action=approve]').click();
    await card.locator('[data-action=run]').click();
    await ui.stripState('running');
    expect(await page.isDisabled('#resume')).toBe(true);

    await page.click('#pause');
    await ui.stripState('paused');
    await card.locator('[data-role=status]').filter({ hasText: 'Paused' }).waitFor();
    await page.click('#resume');
    await ui.stripState('running');
    await card.locator('[data-role=status]').filter({ hasText: 'Running' }).waitFor();

    await page.click('#cancel');
    await ui.stripState('cancelled');
    await card.locator('[data-role=status]').filter({ hasText: 'Cancelled' }).waitFor();
    expect(await page.textContent('#receipt-status')).toBe('Cancelled');
    expect(await page.textContent('#receipt-end')).toMatch(/^signal \d+$/);
    expect(await page.isDisabled('#pause')).toBe(true);
    expect(await page.isDisabled('#cancel')).toBe(true);
    expectCleanPage();
  });

  it('shows sandboxed mode in its chip, and runs a shell loop there without an approval', async () => {
    await open({ APPROVAL_MODE: 'sandboxed' });
    const { page } = ui;
    expect(await page.textContent('#mode-chip')).toBe('Mode sandboxed');
    const card = await ui.plan("sh -c 'for i in 1 2; do echo ui-$i; done'", 'Planned');
    expect(await card.locator('[data-action=approve]').count()).toBe(0);
    await card.locator('[data-action=run]').click();
    await ui.waitForTerminalLine(/^— Succeeded · exit 0/);
    expect(await ui.terminalLines()).toEqual(expect.arrayContaining(['ui-1', 'ui-2']));
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expect(await page.textContent('#receipt-permission')).toBe('sandboxed / policy allowed');
    expectCleanPage();
  });

  it('names the run-on-open files a sandboxed command changed in the receipt panel (a nested repository)', async () => {
    await open({ APPROVAL_MODE: 'sandboxed' });
    const { page } = ui;
    const card = await ui.plan("sh -c 'git init -q nested && echo made'", 'Planned');
    await card.locator('[data-action=run]').click();
    await ui.waitForTerminalLine(/^— Succeeded · exit 0/);
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expect(await page.textContent('#receipt-run-on-open')).toMatch(/^CHANGED: .*nested\/\.git\b/);
    expect(await page.getAttribute('#receipt-run-on-open', 'data-changed')).toBe('true');
    expectCleanPage();
  });

  it('plans with Ctrl+Enter, focuses the command with /, and clears it with Esc', async () => {
    const { page } = ui;
    await open();
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement.id')).toBe('command');
    await page.keyboard.type('echo keyed');
    await page.keyboard.press('Control+Enter');
    await ui.card(1).locator('[data-role=status]').filter({ hasText: 'Planned' }).waitFor();
    expect(await ui.card(1).locator('[data-role=command]').textContent()).toBe('echo keyed');
    await page.keyboard.press('Escape');
    expect(await page.inputValue('#command')).toBe('');
    expectCleanPage();
  });

  it('shows that the advisor is thinking and brings each answer or error into view', async () => {
    const { page } = ui;
    deepseek = new FakeDeepSeekServer([
      { kind: 'hang' },
      { kind: 'reply', content: `Here is a plan.\n${'A line of advice.\n'.repeat(30)}\`\`\`sh\nls -la\n\`\`\`` },
    ]);
    const base = await deepseek.start();
    await open({
      DEEPSEEK_API_KEY: 'sk-e2e-deepseek-key-0123456789',
      DEEPSEEK_BASE_URL: base,
      DEEPSEEK_MAX_RETRIES: '0',
      DEEPSEEK_TIMEOUT: '4',
    });
    expect(await page.isVisible('#chat-panel')).toBe(true);
    expect(await page.textContent('#model-chip')).toMatch(/^Model /);

    const inView = (selector: string) =>
      ui.until(`(() => {
        const node = document.querySelector(${JSON.stringify(selector)});
        if (!node) return false;
        const box = node.getBoundingClientRect();
        const log = document.getElementById('chat-log').getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight && box.top >= log.top - 1 && box.top < log.bottom;
      })()`);

    await page.fill('#chat-message', 'what is in this folder?');
    await page.click('#chat-send');
    await page.locator('.chat-entry.pending', { hasText: 'The advisor is thinking' }).waitFor();
    expect(await page.isDisabled('#chat-send')).toBe(true);
    await inView('.chat-entry.pending');
    await page.locator('.chat-entry.error').waitFor({ timeout: 20_000 });
    expect(await page.textContent('.chat-entry.error')).toBe(
      'The model did not answer (DeepSeek did not answer within 4 seconds). The terminal tools still work.',
    );
    await inView('.chat-entry.error');

    await page.fill('#chat-message', 'and now?');
    await page.keyboard.press('Control+Enter');
    await page.locator('.chat-entry.assistant').waitFor({ timeout: 20_000 });
    await inView('.chat-entry.assistant:last-child');
    expect(await page.locator('.chat-entry.pending').count()).toBe(0);
    await page.locator('.chat-entry.assistant .suggestion button').click();
    await ui.card(1).locator('[data-role=command]').filter({ hasText: 'ls -la' }).waitFor();
    // Chromium itself logs the 502 of the timed-out turn; nothing else may fail.
    expect(ui.errors).toEqual(['Failed to load resource: the server responded with a status of 502 (Bad Gateway)']);
    ui.errors.length = 0;
    expectCleanPage();
  });

  it('says how to turn the advisor on without a model key, and in the operator channel waits for the operator, who approves here', async () => {
    const { page } = ui;
    await open({ TERM_MCP_APPROVAL: 'operator', TERM_MCP_OPERATOR_TOKEN: OPERATOR_TOKEN });
    expect(await page.isVisible('#chat-panel')).toBe(true);
    expect(await page.isHidden('#chat-form')).toBe(true);
    expect(await page.innerText('#chat-setup')).toMatch(
      /advisor is off on this server\. It needs a DeepSeek API key: set DEEPSEEK_API_KEY[\s\S]*restart it[\s\S]*Everything else works without it: plan, approve and run commands, and keep their signed receipts\./,
    );
    expect(await page.textContent('#model-chip')).toBe('Advisor off');
    expect(await page.getAttribute('#model-chip', 'title')).toContain('DEEPSEEK_API_KEY');
    expect(await page.textContent('#approval-chip')).toBe('Approval by operator');
    const card = await ui.plan('sleep 0', 'Planned');
    expect(await card.locator('[data-action=approve]').count()).toBe(0);
    expect(await card.locator('[data-role=note]').textContent()).toBe(
      'Waiting for an operator to approve it (Operator approvals, below).',
    );

    await page.fill('#operator-token', OPERATOR_TOKEN);
    await page.click('#operator-load');
    await page.getByRole('button', { name: 'Approve as operator' }).click();
    await card.locator('[data-role=status]').filter({ hasText: 'Approved' }).waitFor();
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    expect(await page.textContent('#receipt-permission')).toBe('inspect / explicit approval');
    expectCleanPage();
  });
});
