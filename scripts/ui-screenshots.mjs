// Regenerates the screenshots of docs/web.md (docs/images/ui-*.png): a real `term-mcp http` (dist/, so build
// first), a temp workspace and Debian's Chromium driven by playwright-core.  node scripts/ui-screenshots.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

const termMcp = createTermMcp({ env: { WORKSPACE_ROOT: workspace, TERM_MCP_TOKEN: TOKEN, LOG_LEVEL: 'error' } });
const server = termMcp.httpApp().listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });

async function page(width, height) {
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

async function settle(tab) {
  await tab.evaluate('document.activeElement.blur()');
  await tab.waitForTimeout(400);
}

try {
  const gate = await page(1280, 720);
  await gate.fill('#token', 'x'.repeat(40));
  await gate.screenshot({ path: path.join(OUT, 'ui-connect.png') });

  const desk = await page(1280, 900);
  await connect(desk);
  const listing = await plan(desk, 'ls -la --color=always src', 'Planned');
  await listing.locator('[data-action=run]').click();
  await listing.locator('[data-role=status]', { hasText: 'Succeeded' }).waitFor();
  const colours = await plan(desk, "printf '\\033[32m✓ 12 passed\\033[0m  \\033[33m! 1 skipped\\033[0m\\n'", 'Planned');
  await colours.locator('[data-action=run]').click();
  await colours.locator('[data-role=status]', { hasText: 'Succeeded' }).waitFor();
  await plan(desk, 'rm -rf /', 'Blocked');
  await plan(desk, 'touch notes.txt', 'Blocked').catch(() => undefined);
  await plan(desk, 'sleep 5', 'Planned');
  await desk.fill('#command', '');
  await settle(desk);
  await desk.screenshot({ path: path.join(OUT, 'ui-mission-control.png') });

  const running = desk.locator('.plan-card').first();
  await running.locator('[data-action=approve]').click();
  await running.locator('[data-action=run]').click();
  await desk.locator('#strip[data-state="running"]').waitFor();
  await desk.click('#pause');
  await desk.locator('#strip[data-state="paused"]').waitFor();
  await settle(desk);
  await desk.screenshot({ path: path.join(OUT, 'ui-paused.png') });
  await desk.click('#cancel');
  await desk.locator('#strip[data-state="cancelled"]').waitFor();

  const phone = await page(375, 760);
  await connect(phone);
  const echo = await plan(phone, 'ls -la --color=always', 'Planned');
  await settle(phone);
  await phone.screenshot({ path: path.join(OUT, 'ui-phone-plan.png') });
  await echo.locator('[data-action=run]').click();
  await phone.locator('#receipt-status', { hasText: 'Succeeded' }).waitFor();
  await settle(phone);
  await phone.screenshot({ path: path.join(OUT, 'ui-phone-output.png') });

  await phone.context().close();
  await desk.context().close();
  const lost = await page(1280, 560);
  await connect(lost);
  server.closeAllConnections();
  server.close();
  await termMcp.close();
  await lost.locator('#banner-text', { hasText: /not answering|session has ended/ }).waitFor();
  const startNew = lost.getByRole('button', { name: 'Start a new session' });
  if (await startNew.isVisible()) await startNew.click();
  await lost.locator('#banner-text', { hasText: 'not answering' }).waitFor();
  await settle(lost);
  await lost.screenshot({ path: path.join(OUT, 'ui-unreachable.png') });
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
  await termMcp.close();
  rmSync(workspace, { recursive: true, force: true });
}
