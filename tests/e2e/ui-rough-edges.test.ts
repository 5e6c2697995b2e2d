import {
  UiPage,
  useChromium,
  describeInBrowser,
  overlap,
  startTestServer,
  type Box,
  type TestServer,
} from './ui-harness';

// Issue 23 item 11: the UI's rough edges, each checked in real Chromium at the widths where it showed.
jest.setTimeout(90_000);

/** Red "red", an OSC window title, a bold green "ok", a cursor move: only the words may reach the page. */
const ESCAPED = "printf '\\033[31mred\\033[0m \\033]0;title\\007plain \\033[1;32mok\\033[0m\\033[2K\\n'";

describeInBrowser('mission control’s rough edges in real Chromium', () => {
  const chromium = useChromium();
  let server: TestServer | undefined;
  let ui: UiPage | undefined;

  afterEach(async () => {
    await ui?.close();
    await server?.stop();
    ui = undefined;
    server = undefined;
  });

  async function open(width: number, height = 860): Promise<UiPage> {
    server ??= await startTestServer();
    ui = await chromium.open({ width, height });
    await ui.connect(`${server.origin}/`);
    return ui;
  }

  async function run(page: UiPage, command: string): Promise<void> {
    const card = await page.plan(command, 'Planned');
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await page.page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
  }

  it('a disabled Cancel looks like every disabled button, not like a live red one', async () => {
    const { page } = await open(1280);
    const style = (selector: string) =>
      page.evaluate(
        `(() => { const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return [s.color, s.backgroundColor, s.borderTopColor, s.borderTopStyle].join(' | '); })()`,
      );
    expect(await page.isDisabled('#cancel')).toBe(true);
    const disabledCancel = await style('#cancel');
    expect(disabledCancel).toBe(await style('#pause'));
    expect(disabledCancel).toContain('dashed');

    const card = await ui!.plan('sleep 30', 'Planned');
    await card.locator('[data-action=approve]').click();
    await card.locator('[data-action=run]').click();
    await ui!.stripState('running');
    const liveCancel = await style('#cancel');
    expect(liveCancel).not.toBe(disabledCancel);
    expect(liveCancel).toContain('solid');
    await page.click('#cancel');
    await ui!.stripState('cancelled');
  });

  it('the scenario rail at 1280 px says it scrolls ("More →" and a fade) and More brings the hidden cards in', async () => {
    const { page } = await open(1280);
    await page.locator('#scenarios').waitFor();
    const rail = page.locator('#scenario-list');
    const [scrollWidth, clientWidth] = (await rail.evaluate((node) => [node.scrollWidth, node.clientWidth])) as [
      number,
      number,
    ];
    if (scrollWidth <= clientWidth) {
      // Everything fits: then no cue is needed, and none is shown.
      expect(await page.isHidden('#scenario-more')).toBe(true);
      return;
    }
    await page.locator('#scenario-more').waitFor();
    expect(await page.getAttribute('#scenarios', 'data-more')).toBe('true');
    const last = page.locator('.scenario').last();
    const railBox = (await rail.boundingBox())!;
    expect((await last.boundingBox())!.x + (await last.boundingBox())!.width).toBeGreaterThan(
      railBox.x + railBox.width,
    );
    await page.click('#scenario-more');
    await ui!.until(`document.getElementById('scenarios').dataset.more === 'false'`);
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(railBox.x + railBox.width + 1);
    expect(await page.isHidden('#scenario-more')).toBe(true);
  });

  it.each([768, 1280, 1920])(
    'the header chips stay on one line at %i px, clear of the session tools',
    async (width) => {
      const { page } = await open(width);
      const chips = await page
        .locator('.chips .chip')
        .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as Box));
      expect(chips).toHaveLength(4);
      for (const chip of chips) {
        expect(Math.abs(chip.y - chips[0]!.y)).toBeLessThan(1);
        expect(chip.height).toBeLessThan(32);
        expect(chip.x + chip.width).toBeLessThanOrEqual(width);
      }
      const tools = (await page.locator('#session-tools').boundingBox())!;
      for (const chip of chips) expect(overlap(chip, tools)).toBe(false);
      expect(await ui!.scrollWidth()).toBeLessThanOrEqual(width);
    },
  );

  it.each([375, 1280, 1920])(
    'a scenario’s note at %i px sits by the command box and covers no receipt button',
    async (width) => {
      const { page } = await open(width);
      await run(ui!, 'echo receipt-shown');
      await page.locator('.scenario', { hasText: 'ls -la' }).click();
      const note = page.locator('#composer-note');
      await note
        .filter({ hasText: '“ls -la” is in the command box. Press Plan to see what the policy says.' })
        .waitFor();
      expect(await page.isHidden('#toast')).toBe(true);
      const noteBox = (await note.boundingBox())!;
      const commandBox = (await page.locator('#command').boundingBox())!;
      expect(noteBox.y).toBeGreaterThan(commandBox.y);
      expect(noteBox.y - (commandBox.y + commandBox.height)).toBeLessThan(120);
      // The toasts that remain (Copy…) stay off the run column too.
      await page.locator('.plan-card [data-action=copy]').first().click();
      await page.locator('#toast').filter({ hasText: 'Command copied.' }).waitFor();
      if (width > 860) {
        await page.locator('#receipt-panel').scrollIntoViewIfNeeded();
        const toast = (await page.locator('#toast').boundingBox())!;
        expect(overlap(toast, (await page.locator('.receipt-actions').boundingBox())!)).toBe(false);
        expect(overlap(toast, (await page.locator('#strip').boundingBox())!)).toBe(false);
      }
    },
  );

  it.each([375, 1280])(
    'the receipt panel and the plan’s output block at %i px show colours, never a raw escape',
    async (width) => {
      const { page } = await open(width);
      await run(ui!, ESCAPED);
      await page.click('.receipt-more summary');
      expect(await page.textContent('#receipt-stdout')).toBe('red plain ok\n');
      expect(await page.locator('#receipt-stdout span.ansi-red').textContent()).toBe('red');
      expect(await page.locator('#receipt-stdout span.ansi-green.ansi-bold').textContent()).toBe('ok');
      const block = ui!.card(1).locator('[data-role=output]');
      expect(await block.textContent()).toBe('red plain ok\n');
      expect(await block.locator('span.ansi-red').textContent()).toBe('red');
      expect(await ui!.bodyText()).not.toContain('\u001b');
      for (const output of ['#receipt-stdout', '.plan-card [data-role=output]'])
        expect(await page.innerText(output)).not.toMatch(/\[31m|\]0;|\[2K|title/);
    },
  );

  it('after a reload the terminal, the plans’ output blocks and the receipt come back from the server', async () => {
    const { page } = await open(1280);
    await run(ui!, 'echo first-output');
    await run(ui!, 'echo second-output');
    await page.reload();
    await ui!.waitForSession();
    await ui!.waitForTerminalLine(/^second-output$/);
    const lines = await ui!.terminalLines();
    expect(lines).toEqual(
      expect.arrayContaining(['$ echo first-output', 'first-output', '$ echo second-output', 'second-output']),
    );
    expect(lines.filter((line) => line === 'first-output')).toHaveLength(1);
    expect(lines.filter((line) => /^— Succeeded · exit 0/.test(line))).toHaveLength(2);
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    expect(await page.textContent('#receipt-command')).toBe('echo second-output');
    expect(await page.textContent('#receipt-origin')).toBe('plan 02 of this session');
    expect(await ui!.card(1).locator('[data-role=output]').textContent()).toBe('first-output\n');
    expect(await ui!.card(2).locator('[data-role=output]').textContent()).toBe('second-output\n');
    expect(await page.getAttribute('#strip', 'data-state')).toBe('succeeded');
  });

  it.each([375, 1280])(
    'keeps each plan’s output in its own block, walks history with ↑/↓, searches output and folds finished cards at %i px',
    async (width) => {
      const { page } = await open(width);
      await run(ui!, 'echo alpha-one');
      await run(ui!, "printf 'beta-two\\nmore\\n'");
      expect(await ui!.card(1).locator('[data-role=output]').textContent()).toBe('alpha-one\n');
      expect(await ui!.card(2).locator('[data-role=output]').textContent()).toBe('beta-two\nmore\n');

      // History: ↑ walks back through the planned commands, ↓ returns to what was being typed.
      await page.fill('#command', 'draft');
      await page.focus('#command');
      await page.keyboard.press('ArrowUp');
      expect(await page.inputValue('#command')).toBe("printf 'beta-two\\nmore\\n'");
      await page.keyboard.press('ArrowUp');
      expect(await page.inputValue('#command')).toBe('echo alpha-one');
      await page.keyboard.press('ArrowUp');
      expect(await page.inputValue('#command')).toBe('echo alpha-one');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.inputValue('#command')).toBe('draft');

      // Search: the cards whose command or output holds the text, the match marked.
      await page.fill('#output-search', 'TWO');
      await page.locator('#search-summary').filter({ hasText: '1 of 2 plans match.' }).waitFor();
      expect(await ui!.card(1).isHidden()).toBe(true);
      expect(await ui!.card(2).locator('mark').allTextContents()).toEqual(['two']);
      await page.fill('#output-search', 'nowhere-to-be-found');
      await page.locator('#search-summary').filter({ hasText: 'No plan’s command or output contains that.' }).waitFor();
      await page.focus('#output-search');
      await page.keyboard.press('Escape');
      expect(await page.inputValue('#output-search')).toBe('');
      expect(await page.locator('.plan-card:visible').count()).toBe(2);

      // Folding: one card, then every finished one; a folded card keeps its head and command.
      await ui!.card(1).locator('[data-action=collapse]').click();
      await ui!.card(1).locator('[data-action=collapse]').filter({ hasText: 'Expand' }).waitFor();
      expect(await ui!.card(1).locator('[data-role=output]').count()).toBe(0);
      expect(await ui!.card(1).locator('[data-role=command]').textContent()).toBe('echo alpha-one');
      await page.click('#collapse-finished');
      expect(await ui!.card(2).locator('[data-role=output]').count()).toBe(0);
      expect(await page.isHidden('#collapse-finished')).toBe(true);
      await ui!.card(2).locator('[data-action=collapse]').click();
      expect(await ui!.card(2).locator('[data-role=output]').textContent()).toBe('beta-two\nmore\n');
      expect(await ui!.scrollWidth()).toBeLessThanOrEqual(width);
      expect(ui!.errors).toEqual([]);
    },
  );
});
