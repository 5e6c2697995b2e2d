import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_INFO } from '../../src/main/server-info';
import { REPO_ROOT } from '../support/workspace';

test('the advertised server version is the package version', () => {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  expect(SERVER_INFO).toMatchObject({ name: manifest.name, version: manifest.version });
});
