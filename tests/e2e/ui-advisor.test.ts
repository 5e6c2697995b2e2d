import { FakeDeepSeekServer } from '../adapters/deepseek/fake-deepseek-server';
import { UiPage, useChromium, describeInBrowser, overlap, startTestServer, type TestServer } from './ui-harness';

// Issue 23 item 8: the planning advisor with a model (the local fake DeepSeek server) and without one.
jest.setTimeout(90_000);

const API_KEY = 'sk-e2e-deepseek-key-0123456789';

/** A reply with the markdown subset, an injection attempt, and three suggestions of which two the policy blocks. */
const MARKDOWN_REPLY = [
  'Here is **what I would do**, with `ls` first:',
  '',
  '1. list the files',
  '2. look at *the* biggest one',
  '',
  '- nothing runs from here',
  '- <img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script>',
  '',
  '```sh',
  'ls -la',
  'rm -rf /',
  'touch model-created.txt',
  '```',
].join('\n');

describeInBrowser('the planning advisor in real Chromium', () => {
  const chromium = useChromium();
  let server: TestServer | undefined;
  let deepseek: FakeDeepSeekServer | undefined;
  let ui: UiPage | undefined;

  afterEach(async () => {
    await ui?.close();
    await server?.stop();
    await deepseek?.stop();
    ui = undefined;
    server = undefined;
    deepseek = undefined;
  });

  async function openWithModel(width: number, height: number): Promise<UiPage> {
    deepseek = new FakeDeepSeekServer([{ kind: 'reply', content: MARKDOWN_REPLY }]);
    const base = await deepseek.start();
    server = await startTestServer({ DEEPSEEK_API_KEY: API_KEY, DEEPSEEK_BASE_URL: base, DEEPSEEK_MAX_RETRIES: '0' });
    ui = await chromium.open({ width, height });
    await ui.connect(`${server.origin}/`);
    return ui;
  }

  it.each([375, 1280])(
    'renders a reply as safe markdown at %i px: lists, code and bold, and no HTML from the reply',
    async (width) => {
      const page = (await openWithModel(width, 860)).page;
      await page.fill('#chat-message', 'what should I look at?');
      await page.click('#chat-send');
      const answer = page.locator('.chat-entry.assistant');
      await answer.waitFor();
      const markdown = answer.locator('.markdown');
      expect(await markdown.locator('strong').first().textContent()).toBe('what I would do');
      expect(await markdown.locator('p code').first().textContent()).toBe('ls');
      expect(await markdown.locator('ol > li').allTextContents()).toEqual([
        'list the files',
        'look at the biggest one',
      ]);
      expect(await markdown.locator('ol > li em').textContent()).toBe('the');
      expect(await markdown.locator('ul > li').count()).toBe(2);
      expect(await markdown.locator('pre > code').textContent()).toBe('ls -la\nrm -rf /\ntouch model-created.txt');
      // The injection attempt is text on the page, never an element, and nothing of it ran.
      expect(await markdown.locator('ul > li').nth(1).textContent()).toBe(
        '<img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script>',
      );
      expect(await page.locator('#chat-log img, #chat-log script').count()).toBe(0);
      expect(await page.getAttribute('body', 'data-pwned')).toBeNull();
      expect(await markdown.innerText()).not.toMatch(/\*\*|```/);
      expect(ui!.errors).toEqual([]);
    },
  );

  it('offers "Plan it" only on suggestions the policy did not block, and says why the others are blocked', async () => {
    const page = (await openWithModel(1280, 860)).page;
    await page.fill('#chat-message', 'clean up');
    await page.click('#chat-send');
    const suggestions = page.locator('.chat-entry.assistant .suggestion');
    await suggestions.first().waitFor();
    expect(await suggestions.locator('code').allTextContents()).toEqual([
      'ls -la',
      'rm -rf /',
      'touch model-created.txt',
    ]);
    expect(await suggestions.nth(0).locator('button').allTextContents()).toEqual(['Plan it']);
    for (const blocked of [1, 2]) {
      expect(await suggestions.nth(blocked).locator('button').count()).toBe(0);
      expect(await suggestions.nth(blocked).locator('.badge').textContent()).toBe('BLOCKED');
      expect(await suggestions.nth(blocked).locator('.suggestion-why').textContent()).toMatch(
        /^The policy blocks it: \S/,
      );
    }
    await suggestions.nth(0).locator('button').click();
    await ui!.card(1).locator('[data-role=command]').filter({ hasText: 'ls -la' }).waitFor();
    expect(await page.locator('.plan-card').count()).toBe(1);
  });

  it('at 1280 px the advisor never covers the receipt buttons, wherever the page is scrolled', async () => {
    const page = (await openWithModel(1280, 800)).page;
    const card = await ui!.plan('echo receipt-here', 'Planned');
    await card.locator('[data-action=run]').click();
    await page
      .locator('#receipt-seal')
      .filter({ hasText: /^VERIFIED$/ })
      .waitFor();
    for (const question of ['first', 'second', 'third']) {
      const before = await page.locator('.chat-entry.assistant').count();
      await page.fill('#chat-message', question);
      await page.click('#chat-send');
      await ui!.until(`document.querySelectorAll('.chat-entry.assistant').length === ${before + 1}`);
    }
    const height = (await page.evaluate('document.scrollingElement.scrollHeight')) as number;
    expect(height).toBeGreaterThan(800);
    for (const top of [0, Math.round((height - 800) / 2), height]) {
      await page.evaluate(`window.scrollTo(0, ${top})`);
      await ui!.until(
        `Math.abs(window.scrollY - Math.min(${top}, document.scrollingElement.scrollHeight - window.innerHeight)) < 2`,
      );
      const chat = await page.locator('#chat-panel').boundingBox();
      const buttons = await page.locator('.receipt-actions').boundingBox();
      expect(chat).not.toBeNull();
      expect(buttons).not.toBeNull();
      expect(overlap(chat!, buttons!)).toBe(false);
      // And nothing else is painted over the receipt buttons' middle.
      const centre = { x: Math.round(buttons!.x + 10), y: Math.round(buttons!.y + buttons!.height / 2) };
      if (centre.y >= 0 && centre.y < 800) {
        expect(
          await page.evaluate(
            `document.elementFromPoint(${centre.x}, ${centre.y})?.closest('.receipt-actions') !== null`,
          ),
        ).toBe(true);
      }
    }
  });
});
