// Terminal escapes in text shown outside the terminal (the receipt panel, per-plan output blocks). Commands write
// colours (SGR) and cursor movement for a terminal; elsewhere the colours become classes and every other escape is
// dropped, so no raw "\x1b[31m" ever reaches the page. Pure functions, plus one DOM builder that uses textContent.

// CSI (with its parameters), OSC (ended by BEL or ST), and the two-byte escapes.
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_a-z0-9=<>]/g;
// eslint-disable-next-line no-control-regex -- the other control characters a terminal would not print either
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The text without any escape sequence or stray control character (tabs and newlines kept). */
export function stripAnsi(text) {
  return String(text).replace(ESCAPES, '').replace(/\r\n/g, '\n').replace(/\r/g, '').replace(CONTROLS, '');
}

function applySgr(style, parameters) {
  const codes = parameters === '' ? [0] : parameters.split(';').map((code) => Number.parseInt(code, 10) || 0);
  let next = { ...style };
  for (let index = 0; index < codes.length; index += 1) {
    const code = codes[index];
    if (code === 0) next = { bold: false, colour: '' };
    else if (code === 1) next.bold = true;
    else if (code === 22) next.bold = false;
    else if (code >= 30 && code <= 37) next.colour = COLOURS[code - 30];
    else if (code >= 90 && code <= 97) next.colour = `bright-${COLOURS[code - 90]}`;
    else if (code === 39) next.colour = '';
    else if (code === 38 || code === 48) index += codes[index + 1] === 5 ? 2 : codes[index + 1] === 2 ? 4 : 0;
  }
  return next;
}

/**
 * The text as runs of plain text with their style: `[{text, bold, colour}]` (colour '' or a name such as 'red',
 * 'bright-green'). Only SGR bold and the 16 foreground colours are kept; everything else is dropped.
 */
export function ansiSegments(text) {
  const segments = [];
  let style = { bold: false, colour: '' };
  const push = (chunk) => {
    const clean = stripAnsi(chunk);
    if (clean === '') return;
    const last = segments[segments.length - 1];
    if (last && last.bold === style.bold && last.colour === style.colour) last.text += clean;
    else segments.push({ text: clean, bold: style.bold, colour: style.colour });
  };
  const source = String(text);
  let at = 0;
  for (const match of source.matchAll(ESCAPES)) {
    push(source.slice(at, match.index));
    at = match.index + match[0].length;
    // eslint-disable-next-line no-control-regex -- an SGR sequence starts with ESC
    const sgr = /^\x1b\[([0-9;]*)m$/.exec(match[0]);
    if (sgr) style = applySgr(style, sgr[1]);
  }
  push(source.slice(at));
  return segments;
}

/** Fills `host` with the text's runs as spans (textContent only: nothing in the text is ever parsed as HTML). */
export function renderAnsi(host, text) {
  host.replaceChildren(
    ...ansiSegments(text).map((segment) => {
      if (!segment.bold && segment.colour === '') return document.createTextNode(segment.text);
      const span = document.createElement('span');
      if (segment.colour) span.className = `ansi-${segment.colour}`;
      if (segment.bold) span.classList.add('ansi-bold');
      span.textContent = segment.text;
      return span;
    }),
  );
}
