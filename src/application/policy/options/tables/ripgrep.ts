// ripgrep 13.0.0 (Debian 12): clap 2, which takes long options only written out in full. The `--no-*` negations and
// `--trace` are in its manual, not in `--help`; `--passthrough` is a hidden alias of `--passthru` (tldr-pages uses it).
import { NONE, REQUIRED, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const RG_OPTIONS: OptionTable = {
  program: 'rg',
  abbreviation: 'exact',
  short: '0A:B:bsC:cE:f:lFLg:h.ivnxM:m:UINoPpqe:r:zSaj:t:T:uVHw',
  long: {
    ...options(
      NONE,
      'auto-hybrid-regex binary block-buffered byte-offset case-sensitive column count count-matches crlf debug files files-with-matches files-without-match fixed-strings follow glob-case-insensitive heading help hidden ignore ignore-case ignore-dot ignore-exclude ignore-file-case-insensitive ignore-files ignore-global ignore-messages ignore-parent ignore-vcs include-zero invert-match json line-buffered line-number line-regexp max-columns-preview messages mmap multiline multiline-dotall no-auto-hybrid-regex no-binary no-block-buffered no-column no-config no-context-separator no-crlf no-encoding no-filename no-fixed-strings no-follow no-glob-case-insensitive no-heading no-hidden no-ignore no-ignore-dot no-ignore-exclude no-ignore-file-case-insensitive no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-json no-line-buffered no-line-number no-max-columns-preview no-messages no-mmap no-multiline no-multiline-dotall no-one-file-system no-pcre2 no-pcre2-unicode no-pre no-require-git no-search-zip no-stats no-text no-trim no-unicode null null-data one-file-system only-matching passthrough passthru pcre2 pcre2-unicode pcre2-version pretty quiet require-git search-zip smart-case stats text trace trim type-list unicode unrestricted version vimgrep with-filename word-regexp',
    ),
    ...options(
      REQUIRED,
      'after-context before-context color colors context context-separator dfa-size-limit encoding engine field-context-separator field-match-separator file glob iglob ignore-file max-columns max-count max-depth max-filesize path-separator pre pre-glob regex-size-limit regexp replace sort sortr threads type type-add type-clear type-not',
    ),
  },
};
