import {
  commandArgv,
  FIXED_SHELL,
  TRUSTED_EXECUTABLE_DIRECTORIES,
  TRUSTED_PATH,
} from '../../../src/domain/execution/trusted-launch';

describe('trusted launch facts shared by the policy, the process adapter and the confinements', () => {
  test('the PATH commands get lists exactly the directories the policy resolves names in, in the same order', () => {
    expect(TRUSTED_PATH.split(':')).toEqual([...TRUSTED_EXECUTABLE_DIRECTORIES]);
    expect(TRUSTED_EXECUTABLE_DIRECTORIES.every((directory) => directory.startsWith('/'))).toBe(true);
  });

  test('the shell form runs through the fixed /bin/sh; the argv form runs as it is', () => {
    expect(FIXED_SHELL).toBe('/bin/sh');
    expect(commandArgv({ kind: 'shell', script: "'/usr/bin/echo' hi | '/usr/bin/wc' -c" })).toEqual([
      '/bin/sh',
      '-c',
      "'/usr/bin/echo' hi | '/usr/bin/wc' -c",
    ]);
    expect(commandArgv({ kind: 'argv', argv: ['/usr/bin/ls', '-la'] })).toEqual(['/usr/bin/ls', '-la']);
  });
});
