// The advisor's replies are markdown. They are shown as a small safe subset: paragraphs, fenced and inline code,
// bullet and numbered lists, headings (as bold lines) and bold/italic. Nothing in a reply is ever parsed as HTML:
// the text is split into blocks and runs here, and the DOM is built with createElement and textContent only, so a
// reply holding `<img onerror=…>` shows those characters and nothing else. No library: the subset is ~100 lines
// and a dependency would be one more thing served to the page.

const FENCE = /^\s*(```|~~~)\s*([\w+-]*)\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/**
 * Blocks of a markdown text: `{type: 'p' | 'h', text}`, `{type: 'code', language, text}`,
 * `{type: 'ul' | 'ol', items: [text]}`. Pure, so tests/static can check it without a browser.
 */
export function markdownBlocks(source) {
  const blocks = [];
  let paragraph = [];
  let list = null;
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: 'p', text: paragraph.join('\n') });
    paragraph = [];
  };
  const flushList = () => {
    if (list) blocks.push(list);
    list = null;
  };
  const lines = String(source).replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      flushList();
      const code = [];
      index += 1;
      while (
        index < lines.length &&
        !(lines[index].trim().startsWith(fence[1]) && lines[index].trim().replaceAll(fence[1][0], '') === '')
      ) {
        code.push(lines[index]);
        index += 1;
      }
      blocks.push({ type: 'code', language: fence[2], text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      blocks.push({ type: 'h', text: heading[1] });
    } else if (bullet || numbered) {
      flushParagraph();
      const type = bullet ? 'ul' : 'ol';
      if (list?.type !== type) {
        flushList();
        list = { type, items: [] };
      }
      list.items.push((bullet ?? numbered)[1]);
    } else if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      flushList();
      paragraph.push(line);
    }
  }
  flushParagraph();
  flushList();
  return blocks;
}

/** Runs of one line or paragraph: `{type: 'text' | 'code' | 'strong' | 'em', text}`. */
export function inlineRuns(text) {
  const runs = [];
  const pattern =
    /`([^`\n]+)`|\*\*([^*\n]+)\*\*|__([^_\n]+)__|(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<!\w)_([^_\n]+)_(?!\w)/g;
  let at = 0;
  for (const match of String(text).matchAll(pattern)) {
    if (match.index > at) runs.push({ type: 'text', text: text.slice(at, match.index) });
    if (match[1] !== undefined) runs.push({ type: 'code', text: match[1] });
    else if (match[2] !== undefined || match[3] !== undefined)
      runs.push({ type: 'strong', text: match[2] ?? match[3] });
    else runs.push({ type: 'em', text: match[4] ?? match[5] });
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push({ type: 'text', text: text.slice(at) });
  return runs;
}

function inline(node, text) {
  for (const run of inlineRuns(text)) {
    if (run.type === 'text') {
      node.append(document.createTextNode(run.text));
      continue;
    }
    const element = document.createElement(run.type);
    element.textContent = run.text;
    node.append(element);
  }
  return node;
}

/** The reply as DOM nodes (a fragment), built without innerHTML. */
export function renderMarkdown(source) {
  const fragment = document.createDocumentFragment();
  for (const block of markdownBlocks(source)) {
    if (block.type === 'code') {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = block.text;
      if (block.language) code.dataset.language = block.language;
      pre.append(code);
      fragment.append(pre);
    } else if (block.type === 'ul' || block.type === 'ol') {
      const list = document.createElement(block.type);
      for (const item of block.items) list.append(inline(document.createElement('li'), item));
      fragment.append(list);
    } else if (block.type === 'h') {
      const heading = inline(document.createElement('p'), '');
      heading.className = 'md-heading';
      heading.append(inline(document.createElement('strong'), block.text));
      fragment.append(heading);
    } else {
      fragment.append(inline(document.createElement('p'), block.text));
    }
  }
  return fragment;
}
