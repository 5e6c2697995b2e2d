// Regenerates the screenshots of docs/web.md (docs/images/ui-*.png): a real term-mcp HTTP app (dist/, so build
// first), a temp workspace, a local stand-in for the DeepSeek API, and Debian's Chromium driven by playwright-core.
//   node scripts/ui-screenshots.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { clearInterval, setInterval } from 'node:timers';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createTermMcp } from '../dist/index.js';

const TOKEN = 'screenshot-token-that-is-longer-than-thirty-two-chars';
const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'images');
const workspace = mkdtempSync(path.join(tmpdir(), 'term-mcp-shots-'));
mkdirSync(path.join(workspace, 'src'));
writeFileSync(path.join(workspace, 'README.md'), '# demo\n');
writeFileSync(path.join(workspace, 'package.json'), '{ "name": "demo" }\n');
writeFileSync(path.join(workspace, 'src', 'index.ts'), 'export {};\n');
mkdirSync(OUT, { recursive: true });

/** The advisor's answer, in markdown, as DeepSeek's chat.completion. */
const ADVICE = [
  'To see **what changed most recently**, list the files by time with `ls -lt`:',
  '',
  '1. the newest files come first',
  '2. `-a` adds the hidden ones',
  '',
  '```sh',
  'ls -lt',
  'rm -rf node_modules',
  '```',
].join('\n');
const deepseek = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify({
        id: 'shot',
        object: 'chat.completion',
        created: 0,
        model: 'deepseek-chat',
        choices: [{ index: 0, message: { role: 'assistant', content: ADVICE }, finish_reason: 'stop' }],
      }),
    );
  });
});
await new Promise((resolve) => deepseek.listen(0, '127.0.0.1', resolve));

const servers = [];
async function startServer(env = {}) {
  const termMcp = createTermMcp({
    env: { WORKSPACE_ROOT: workspace, TERM_MCP_TOKEN: TOKEN, LOG_LEVEL: 'error', ...env },
  });
  const server = termMcp.httpApp().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const running = { termMcp, server, origin: `http://127.0.0.1:${server.address().port}` };
  servers.push(running);
  return running;
}

async function stopServer({ server, termMcp }, { graceful }) {
  if (graceful) {
    // As `term-mcp http` stops (src/main/run-http.ts stopServer): no new connection, idle ones closed as they
    // become idle, then every session closed (the page hears session_closed).
    const reap = setInterval(() => server.closeIdleConnections(), 50);
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    await termMcp.close();
    await closed;
    clearInterval(reap);
  } else {
    // Gone at once, as after a crash: the page's stream drops without a word.
    server.closeAllConnections();
    server.close();
    await termMcp.close();
  }
}

const withModel = await startServer({
  DEEPSEEK_API_KEY: 'sk-screenshot-fake-key-0123456789',
  DEEPSEEK_BASE_URL: `http://127.0.0.1:${deepseek.address().port}`,
});
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

async function page(origin, width, height) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: width < 500 ? 2 : 1 });
  const tab = await context.newPage();
  await tab.goto(`${origin}/`);
  return tab;
}

async function connect(tab) {
  await tab.fill('#token', TOKEN);
  await tab.click('#connect');
  await tab.locator('#console').waitFor();
  await tab.locator('#ledger-empty').waitFor();
}

async function plan(tab, command, status) {
  await tab.fill('#command', command);
  await tab.click('#plan-button');
  const card = tab.locator('.plan-card').first();
  await card.locator('[data-role=command]', { hasText: command }).waitFor();
  await card.locator('[data-role=status]', { hasText: status }).waitFor();
  return card;
}

async function run(card) {
  await card.locator('[data-action=run]').click();
  await card.locator('[data-role=status]', { hasText: 'Succeeded' }).waitFor();
}

/** No focus ring, no toast, the last animation over: wait for the page to be still, not for a time. */
async function settle(tab) {
  await tab.evaluate('document.activeElement.blur()');
  await tab.evaluate('document.getElementById("toast").hidden = true');
  await tab.evaluate(
    'Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished))',
  );
}

try {
  const gate = await page(withModel.origin, 1280, 720);
  await gate.fill('#token', 'x'.repeat(40));
  await gate.screenshot({ path: path.join(OUT, 'ui-connect.png') });

  const desk = await page(withModel.origin, 1280, 900);
  await connect(desk);
  await run(await plan(desk, 'ls -la --color=always src', 'Planned'));
  await run(await plan(desk, "printf '\\033[32m✓ 12 passed\\033[0m  \\033[33m! 1 skipped\\033[0m\\n'", 'Planned'));
  await plan(desk, 'rm -rf /', 'Blocked');
  await plan(desk, 'sleep 5', 'Planned');
  await desk.fill('#command', '');
  await desk.evaluate('window.scrollTo(0, 0)');
  await settle(desk);
  await desk.screenshot({ path: path.join(OUT, 'ui-mission-control.png') });

  // The receipt panel with its output open: colours kept, escapes gone.
  await desk.click('.receipt-more summary');
  await desk.setViewportSize({ width: 1280, height: 1500 });
  await settle(desk);
  await desk.locator('#receipt-panel').screenshot({ path: path.join(OUT, 'ui-receipt.png') });
  await desk.setViewportSize({ width: 1280, height: 900 });

  const running = desk.locator('.plan-card').first();
  await running.locator('[data-action=approve]').click();
  await running.locator('[data-action=run]').click();
  await desk.locator('#strip[data-state="running"]').waitFor();
  await desk.click('#pause');
  await desk.locator('#strip[data-state="paused"]').waitFor();
  await settle(desk);
  await desk.locator('.run-column').screenshot({ path: path.join(OUT, 'ui-paused.png') });
  await desk.click('#cancel');
  await desk.locator('#strip[data-state="cancelled"]').waitFor();

  // Search over output, finished cards folded.
  await desk.click('#collapse-finished');
  await desk.locator('.plan-card', { hasText: 'passed' }).locator('[data-action=collapse]').click();
  await desk.fill('#output-search', 'passed');
  await desk.locator('#search-summary', { hasText: 'match' }).waitFor();
  await settle(desk);
  await desk.locator('.plan-column').screenshot({ path: path.join(OUT, 'ui-search.png') });
  await desk.fill('#output-search', '');

  // The advisor: markdown rendered, "Plan it" only where the policy allows.
  await desk.fill('#chat-message', 'which files changed most recently?');
  await desk.click('#chat-send');
  await desk.locator('.chat-entry.assistant').waitFor();
  await settle(desk);
  await desk.locator('#chat-panel').screenshot({ path: path.join(OUT, 'ui-advisor.png') });
  await desk.context().close();

  const offline = await startServer();
  const noKey = await page(offline.origin, 1280, 900);
  await connect(noKey);
  await settle(noKey);
  await noKey.locator('#chat-panel').screenshot({ path: path.join(OUT, 'ui-advisor-off.png') });
  await noKey.context().close();

  const tablet = await page(offline.origin, 768, 900);
  await connect(tablet);
  await plan(tablet, 'pwd', 'Planned');
  await settle(tablet);
  await tablet.screenshot({ path: path.join(OUT, 'ui-tablet.png') });
  await tablet.context().close();

  const phone = await page(offline.origin, 375, 760);
  await connect(phone);
  const echo = await plan(phone, 'ls -la --color=always', 'Planned');
  await settle(phone);
  await phone.screenshot({ path: path.join(OUT, 'ui-phone-plan.png') });
  await echo.locator('[data-action=run]').click();
  await phone.locator('#receipt-status', { hasText: 'Succeeded' }).waitFor();
  await settle(phone);
  await phone.screenshot({ path: path.join(OUT, 'ui-phone-output.png') });
  await phone.context().close();

  const lost = await page(offline.origin, 1280, 560);
  await connect(lost);
  await stopServer(offline, { graceful: false });
  await lost.locator('#banner-text', { hasText: 'not answering' }).waitFor();
  await settle(lost);
  await lost.screenshot({ path: path.join(OUT, 'ui-unreachable.png') });
  await lost.context().close();

  const stopping = await page(withModel.origin, 1280, 560);
  await connect(stopping);
  await stopServer(withModel, { graceful: true });
  await stopping.locator('#banner-text', { hasText: 'was stopped' }).waitFor();
  await settle(stopping);
  await stopping.screenshot({ path: path.join(OUT, 'ui-stopped.png') });
} finally {
  await browser.close();
  for (const { server, termMcp } of servers) {
    server.closeAllConnections();
    server.close();
    await termMcp.close();
  }
  deepseek.close();
  rmSync(workspace, { recursive: true, force: true });
}
