import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTermMcp, type TermMcp } from '../../src/main/term-mcp';
import { makeTempWorkspace } from '../support/workspace';
import { TOKEN, startTestServer, type TestServer } from './http-harness';

const CHROMIUM = '/usr/bin/chromium';
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

/** Skipped only on a developer machine without Chromium; in CI a missing browser must fail the suite. */
export const describeInBrowser = existsSync(CHROMIUM) || process.env.CI ? describe : describe.skip;

/**
 * Debian's Chromium for the enclosing describe block: launched once before its tests, closed after them. Each test
 * opens its own page (`open`), closed by the test's own afterEach before its servers stop.
 */
export function useChromium(): { open(viewport: { width: number; height: number }): Promise<UiPage> } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    open: (viewport) => {
      if (!browser) throw new Error('useChromium: the browser is not started (call it inside a describe block)');
      return UiPage.open(browser, viewport);
    },
  };
}

export const VIEWPORTS = [
  { name: 'desktop 1280 px', width: 1280, height: 860 },
  { name: 'phone 375 px', width: 375, height: 740 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A term-mcp served the way a host app embeds it: `host.use('/terminal', termMcp.httpApp())`. */
export interface EmbeddedServer {
  termMcp: TermMcp;
  origin: string;
  /** `http://127.0.0.1:<port>/terminal/` */
  pageUrl: string;
  stop(): Promise<void>;
}

export async function startEmbeddedServer(env: Record<string, string> = {}): Promise<EmbeddedServer> {
  const workspace = makeTempWorkspace('term-mcp-embedded-');
  const termMcp = createTermMcp({
    env: { WORKSPACE_ROOT: workspace.root, TERM_MCP_TOKEN: TOKEN, LOG_LEVEL: 'error', ...env },
  });
  const host = express();
  host.get('/', (_req, res) => {
    res.type('text/plain').send('the host app');
  });
  host.use('/terminal', termMcp.httpApp());
  const server: Server = createServer(host);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    termMcp,
    origin,
    pageUrl: `${origin}/terminal/`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await termMcp.close();
      workspace.remove();
    },
  };
}

/** One page in a fresh context, recording what the page did wrong. */
export class UiPage {
  readonly errors: string[] = [];
  /** Paths (no origin) that answered 404, in order. */
  readonly notFound: string[] = [];
  readonly requested: string[] = [];
  /** Session event streams (`GET ui/events`) the server opened for the page (status 200, headers received). */
  eventStreams = 0;

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async open(browser: Browser, viewport: { width: number; height: number }): Promise<UiPage> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const ui = new UiPage(context, page);
    page.on('pageerror', (error) => ui.errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // A 404 or 401 the UI expects is logged by Chromium itself; those are checked through `notFound` instead.
      if (message.type() === 'error' && !/status of (404|401)/.test(message.text())) ui.errors.push(message.text());
    });
    page.on('request', (request) => ui.requested.push(new URL(request.url()).pathname));
    page.on('response', (response) => {
      if (response.status() === 404) ui.notFound.push(new URL(response.url()).pathname);
      if (response.status() === 200 && new URL(response.url()).pathname.endsWith('/ui/events')) ui.eventStreams += 1;
    });
    return ui;
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  async connect(url: string, token: string = TOKEN): Promise<void> {
    await this.page.goto(url);
    await this.page.fill('#token', token);
    await this.page.click('#connect');
    await this.waitForConsole();
  }

  /**
   * Polls a page expression until it is truthy. (`page.waitForFunction` with a string evaluates it with `eval`,
   * which the server's CSP, `script-src 'self'`, rightly refuses.)
   */
  async until(expression: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.page.evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`never true: ${expression}`);
      await this.page.waitForTimeout(100);
    }
  }

  /** Connected: the console is shown. A tab has no session until its first plan (or advisor question) opens one. */
  async waitForConsole(): Promise<void> {
    await this.until(
      '!document.getElementById("console").hidden && document.getElementById("connection").textContent === "Connected"',
    );
  }

  /** Connected with a session (one planned in, or kept across a reload); returns its id. */
  async waitForSession(): Promise<string> {
    await this.until(
      'document.getElementById("session-id").title.length === 36 && !document.getElementById("console").hidden',
    );
    return this.sessionId();
  }

  /** Waits until the server has opened `count` event streams for this page in all (it subscribed them by then). */
  async waitForEventStreams(count: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.eventStreams < count) {
      if (Date.now() > deadline) throw new Error(`the page opened ${this.eventStreams} event streams, not ${count}`);
      await this.page.waitForTimeout(100);
    }
  }

  async sessionId(): Promise<string> {
    return (await this.page.getAttribute('#session-id', 'title')) ?? '';
  }

  /** Plans `command` through the composer and returns the new card's locator (newest first). */
  async plan(command: string, expectedStatus: string): Promise<ReturnType<Page['locator']>> {
    const before = await this.page.locator('.plan-card').count();
    await this.page.fill('#command', command);
    await this.page.click('#plan-button');
    await this.until(`document.querySelectorAll('.plan-card').length === ${before + 1}`);
    const card = this.page.locator('.plan-card').first();
    await card.locator(`[data-role=status]`).filter({ hasText: expectedStatus }).waitFor();
    return card;
  }

  card(number: number): ReturnType<Page['locator']> {
    return this.page
      .locator('.plan-card')
      .filter({ has: this.page.locator('.plan-number', { hasText: `PLAN ${String(number).padStart(2, '0')}` }) });
  }

  /** The rows xterm.js rendered (its DOM renderer), trailing blanks trimmed. */
  async terminalLines(): Promise<string[]> {
    const rows = await this.page.$$eval('#terminal .xterm-rows > div', (divs) =>
      divs.map((div) => (div.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()),
    );
    return rows.filter((row) => row !== '');
  }

  /** xterm.js pauses rendering while the terminal is off screen, so it is looked at, as a person would. */
  async waitForTerminalLine(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    await this.page.locator('#terminal').scrollIntoViewIfNeeded();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = await this.terminalLines();
      if (lines.some((line) => pattern.test(line))) return;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${pattern}; it shows:\n${lines.join('\n')}`);
      await this.page.waitForTimeout(100);
    }
  }

  async stripState(state: string): Promise<void> {
    await this.page.locator(`#strip[data-state="${state}"]`).waitFor();
  }

  async bodyText(): Promise<string> {
    return this.page.innerText('body');
  }

  /** Fails when the element's box is not inside the viewport horizontally (nothing hidden off to the side). */
  async assertFitsWidth(selector: string, width: number): Promise<void> {
    const box = await this.page.locator(selector).first().boundingBox();
    if (box === null) throw new Error(`${selector} is not rendered`);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
  }

  async scrollWidth(): Promise<number> {
    return (await this.page.evaluate('document.scrollingElement.scrollWidth')) as number;
  }
}

export { TOKEN, startTestServer, type TestServer };

/** A box on the page (playwright's `boundingBox()`). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether two boxes on the page cover any common area (touching edges do not count). */
export function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
