import { z } from 'zod';

/** The named keys a model can press, and the bytes a terminal sends for each (xterm's encoding). */
const KEY_BYTES = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  delete: '\x1b[3~',
  ctrl_c: '\x03',
  ctrl_d: '\x04',
  ctrl_z: '\x1a',
  ctrl_l: '\x0c',
  ctrl_u: '\x15',
  ctrl_r: '\x12',
  home: '\x1b[H',
  end: '\x1b[F',
  page_up: '\x1b[5~',
  page_down: '\x1b[6~',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
} as const;

export type KeyName = keyof typeof KEY_BYTES;
export const KEY_NAMES = Object.keys(KEY_BYTES) as [KeyName, ...KeyName[]];

/** In application cursor mode (vim, less) the arrows and home/end are sent as SS3 sequences. */
const APPLICATION_CURSOR: Partial<Record<KeyName, string>> = {
  up: '\x1bOA',
  down: '\x1bOB',
  right: '\x1bOC',
  left: '\x1bOD',
  home: '\x1bOH',
  end: '\x1bOF',
};

/** One step of what is typed: text as it is, or a named key. */
export const keyStrokeSchema = z.union([
  z.object({ text: z.string().min(1).max(65_536) }).strict(),
  z.object({ key: z.enum(KEY_NAMES) }).strict(),
]);
export type KeyStroke = z.infer<typeof keyStrokeSchema>;

/** The bytes a sequence of keystrokes becomes at the terminal. */
export function encodeKeys(strokes: readonly KeyStroke[], applicationCursorKeys: boolean): string {
  return strokes
    .map((stroke) => {
      if ('text' in stroke) return stroke.text;
      return (applicationCursorKeys ? APPLICATION_CURSOR[stroke.key] : undefined) ?? KEY_BYTES[stroke.key];
    })
    .join('');
}
