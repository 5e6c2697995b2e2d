import { keyringSeccompProgram } from '../../../src/adapters/sandbox/seccomp-filter';

/** Decodes `struct sock_filter[]` (little-endian) back into [code, jt, jf, k]. */
function decode(program: Uint8Array): number[][] {
  const view = Buffer.from(program);
  return Array.from({ length: view.length / 8 }, (_, index) => [
    view.readUInt16LE(index * 8),
    view[index * 8 + 2] ?? 0,
    view[index * 8 + 3] ?? 0,
    view.readUInt32LE(index * 8 + 4),
  ]);
}

describe('keyringSeccompProgram', () => {
  it('x64: refuses add_key, request_key, keyctl, the x32 ABI and foreign architectures with EPERM, allows the rest', () => {
    const program = decode(keyringSeccompProgram('x64') ?? new Uint8Array());
    expect(program).toEqual([
      [0x20, 0, 0, 4],
      [0x15, 0, 6, 0xc000003e],
      [0x20, 0, 0, 0],
      [0x35, 4, 0, 0x40000000],
      [0x15, 3, 0, 248],
      [0x15, 2, 0, 249],
      [0x15, 1, 0, 250],
      [0x06, 0, 0, 0x7fff0000],
      [0x06, 0, 0, 0x00050001],
    ]);
  });

  it('arm64 has its own numbers; an unknown CPU gets no program', () => {
    expect(
      decode(keyringSeccompProgram('arm64') ?? new Uint8Array())
        .slice(3, 6)
        .map((instruction) => instruction[3]),
    ).toEqual([217, 218, 219]);
    expect(keyringSeccompProgram('s390x')).toBeUndefined();
  });
});
