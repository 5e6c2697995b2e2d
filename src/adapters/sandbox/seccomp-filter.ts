/**
 * The seccomp program (classic BPF, as `struct sock_filter[]` in the machine's byte order) bwrap loads before the
 * command starts (`--seccomp FD`). It refuses with EPERM the kernel keyring calls (`add_key`, `request_key`,
 * `keyctl`): keyrings are not fully namespaced, and a sandbox inherits the server's session keyring, whose keys its
 * owner (root, for a server run as root) may read. Docker's default profile blocks the same three calls. Calls made
 * through another ABI than the machine's (x32, or a 32-bit process on a 64-bit kernel) are refused too, so the
 * numbers below cannot be dodged through another table.
 */

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
/** offsetof(struct seccomp_data, nr) and (…, arch). */
const SECCOMP_DATA_NR = 0;
const SECCOMP_DATA_ARCH = 4;
/** x86_64 numbers at and above this are the x32 ABI. */
const X32_SYSCALL_BIT = 0x40000000;

interface Architecture {
  readonly auditArch: number;
  /** add_key, request_key, keyctl. */
  readonly keyringCalls: readonly number[];
  readonly refuseFrom?: number;
}

const ARCHITECTURES: Readonly<Record<string, Architecture>> = {
  x64: { auditArch: 0xc000003e, keyringCalls: [248, 249, 250], refuseFrom: X32_SYSCALL_BIT },
  arm64: { auditArch: 0xc00000b7, keyringCalls: [217, 218, 219] },
};

type Instruction = readonly [code: number, jumpTrue: number, jumpFalse: number, k: number];

/** The program for `arch` (Node's `process.arch`), or undefined where this server knows no syscall table. */
export function keyringSeccompProgram(arch: string): Uint8Array | undefined {
  const target = ARCHITECTURES[arch];
  if (target === undefined) return undefined;
  const checks: Instruction[] = [
    ...(target.refuseFrom === undefined ? [] : [[BPF_JMP_JGE_K, 0, 0, target.refuseFrom] as const]),
    ...target.keyringCalls.map((nr) => [BPF_JMP_JEQ_K, 0, 0, nr] as const),
  ];
  // Layout: load arch, check it, load nr, the checks, ALLOW, DENY. Every true branch jumps to DENY.
  const program: Instruction[] = [
    [BPF_LD_W_ABS, 0, 0, SECCOMP_DATA_ARCH],
    [BPF_JMP_JEQ_K, 0, checks.length + 2, target.auditArch],
    [BPF_LD_W_ABS, 0, 0, SECCOMP_DATA_NR],
    ...checks.map(([code, , , k], index): Instruction => [code, checks.length - index, 0, k]),
    [BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW],
    [BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jumpTrue, jumpFalse, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jumpTrue, index * 8 + 2);
    bytes.writeUInt8(jumpFalse, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}
