import type { CapturedOutput } from '../../../src/domain/execution/captured-output';
import { OutputArchive } from '../../../src/application/terminal/output-archive';

/** A finished command's outputs (`bytes` on stdout); `discarded` says whether the archive deleted them. */
function finishedOutputs(bytes: Buffer): {
  outputs: Record<'stdout' | 'stderr', CapturedOutput>;
  discarded: () => boolean;
} {
  let discarded = false;
  const output = (data: Buffer): CapturedOutput => ({
    totalBytes: data.length,
    keptBytes: data.length,
    sha256: 'f'.repeat(64),
    readBytes: async (offset, length) => {
      if (discarded) throw new Error('discarded');
      return data.subarray(offset, offset + length);
    },
    discard: () => {
      discarded = true;
    },
  });
  return { outputs: { stdout: output(bytes), stderr: output(Buffer.alloc(0)) }, discarded: () => discarded };
}

const kept = (keptBytes: number) => ({
  stdout: { keptBytes, sha256: 'f'.repeat(64) },
  stderr: { keptBytes: 0, sha256: 'e'.repeat(64) },
});

describe('OutputArchive', () => {
  let now = 0;
  const archive = (budgetBytes = 1000): OutputArchive =>
    new OutputArchive({ retentionMs: 1000, budgetBytes, now: () => now });

  beforeEach(() => {
    now = 0;
  });

  test('finds an output only by its session, its command and the principal that ran it', async () => {
    const store = archive();
    const { outputs } = finishedOutputs(Buffer.from('hello'));
    store.keep('s1', 'c1', outputs, 'alice', kept(5));
    const found = store.find('s1', 'c1', 'stdout', 'alice');
    expect(Buffer.from((await found?.readBytes(0, 100)) ?? []).toString()).toBe('hello');
    expect(store.find('s1', 'c1', 'stdout', 'mallory')).toBeUndefined();
    expect(store.find('s1', 'c1', 'stdout', undefined)).toBeUndefined();
    expect(store.find('s2', 'c1', 'stdout', 'alice')).toBeUndefined();
  });

  test('reads end at the kept bytes the receipt signed, even if a background process wrote on', async () => {
    const store = archive();
    const { outputs } = finishedOutputs(Buffer.from('signed-part and later bytes'));
    store.keep('s1', 'c1', outputs, undefined, kept(11));
    const found = store.find('s1', 'c1', 'stdout', undefined);
    expect(found?.keptBytes).toBe(11);
    expect(Buffer.from((await found?.readBytes(5, 100)) ?? []).toString()).toBe('d-part');
  });

  test('deletes an output when its retention ends, the oldest first past the budget, and all on discardAll', () => {
    const store = archive(10);
    const first = finishedOutputs(Buffer.alloc(6));
    const second = finishedOutputs(Buffer.alloc(6));
    store.keep('s1', 'c1', first.outputs, undefined, kept(6));
    store.keep('s1', 'c2', second.outputs, undefined, kept(6));
    expect(first.discarded()).toBe(true);
    expect(store.find('s1', 'c1', 'stdout', undefined)).toBeUndefined();
    expect(second.discarded()).toBe(false);
    now = 1001;
    expect(store.find('s1', 'c2', 'stdout', undefined)).toBeUndefined();
    expect(second.discarded()).toBe(true);
    const third = finishedOutputs(Buffer.alloc(1));
    store.keep('s2', 'c3', third.outputs, undefined, kept(1));
    store.discardAll();
    expect(third.discarded()).toBe(true);
  });
});
