import fs from 'node:fs';
import path from 'node:path';
import { renderCommandPage } from './command-page';

const PAGE = path.join(__dirname, '..', '..', '..', 'docs', 'commands.md');

describe('docs/commands.md', () => {
  it('is what the catalog and the rules say today (regenerate with UPDATE_COMMAND_PAGE=1)', () => {
    const rendered = renderCommandPage();
    if (process.env['UPDATE_COMMAND_PAGE'] === '1') fs.writeFileSync(PAGE, rendered);
    expect(fs.readFileSync(PAGE, 'utf8')).toBe(rendered);
  });
});
