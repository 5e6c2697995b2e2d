import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { TOKEN, startTestServer, type TestServer } from './http-harness';

const CHROMIUM = '/usr/bin/chromium';
const OPERATOR_TOKEN = 'operator-token-that-is-longer-than-thirty-two-chars';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Skipped only on a developer machine without Chromium; in CI a missing browser must fail the suite.
const describeInBrowser = existsSync(CHROMIUM) || process.env.CI ? describe : describe.skip;

describeInBrowser('browser UI (real Chromium)', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let server: TestServer | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  });

  afterEach(async () => {
    // The page first: its open event stream would otherwise hold the server's graceful close.
    await context?.close();
    await server?.stop();
    context = undefined;
    server = undefined;
    pageErrors.length = 0;
  });

  async function openUi(env: Record<string, string> = {}): Promise<void> {
    server = await startTestServer(env);
    await page.goto(`${server.origin}/`);
  }

  async function connect(): Promise<void> {
    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await page.locator('#session-id').filter({ hasText: /^[0-9a-f-]{36}$/ }).waitFor();
  }

  async function plan(command: string, verdict: string): Promise<void> {
    await page.fill('#command', command);
    await page.click('#plan-button');
    await page.locator('#decision-verdict').filter({ hasText: verdict }).waitFor();
  }

  it('refuses a wrong token, then connects, plans `echo hello` (allow), runs it and streams its output', async () => {
    await openUi();
    await page.fill('#token', 'w'.repeat(40));
    await page.click('#connect');
    await page.locator('#notice').filter({ hasText: 'Authentication failed. Check the bearer token' }).waitFor();
    expect(await page.isHidden('#plan-panel')).toBe(true);

    await connect();
    // A string: this test is compiled without the DOM typings; it runs in the page.
    expect(await page.evaluate('[sessionStorage.getItem("term-mcp-auth"), localStorage.length]')).toEqual([TOKEN, 0]);

    await plan('echo hello', 'allow');
    expect(await page.textContent('#decision-risk')).toBe('LOW RISK');
    expect(await page.isHidden('#approve')).toBe(true);

    await page.click('#run');
    await page.locator('#exec-state').filter({ hasText: 'succeeded' }).waitFor();
    expect(await page.textContent('#output')).toBe('hello\n');
    expect(await page.textContent('#exit-status')).toBe('(exit 0)');
    expect(await page.isHidden('#chat-panel')).toBe(true);
    // The only console error allowed is the browser's own report of the refused token.
    expect(pageErrors.filter((error) => !error.includes('401'))).toEqual([]);
  });

  it('in the operator channel, waits for the operator, who approves in the UI with the operator token', async () => {
    await openUi({ TERM_MCP_APPROVAL: 'operator', TERM_MCP_OPERATOR_TOKEN: OPERATOR_TOKEN });
    await connect();
    await plan('sleep 0', 'approval_required');
    expect(await page.isHidden('#approve')).toBe(true);
    expect(await page.isDisabled('#run')).toBe(true);
    expect(await page.textContent('#decision-next')).toMatch(/^Waiting for an operator to approve approval id apr_/);

    await page.fill('#operator-token', OPERATOR_TOKEN);
    await page.click('#operator-load');
    await page.getByRole('button', { name: 'Approve as operator' }).click();
    await page.locator('#decision-status').filter({ hasText: 'approved' }).waitFor();
    await page.click('#run');
    await page.locator('#exec-state').filter({ hasText: 'succeeded' }).waitFor();
    expect(await page.textContent('#exit-status')).toBe('(exit 0)');
    expect(pageErrors).toEqual([]);
  });
});
