// A small Markdown subset rendered to Preact elements, never to HTML strings: paragraphs, hard line
// breaks, **bold**, *italics*, `code`, fenced code, - and 1. lists (nested), [links](url) and bare
// ones, images as links, # headings as bold, > quotes.
// Text always lands in text nodes, so markup in a reply shows as the characters it is.
import { h, type ComponentChildren } from 'preact';
import { attempt } from '../../core/attempt';

const SAFE_PROTOCOL = /^(https?|mailto|tel):$/;

/** The normalised URL when it is absolute http(s), mailto or tel; anything else is not a link. */
export function safeHref(raw: string): string | undefined {
  const url = attempt(() => new URL(raw.trim()));
  return url && SAFE_PROTOCOL.test(url.protocol) ? url.href : undefined;
}

/** A link that opens outside the page, or plain text when the URL is not allowed. */
export const link = (raw: string, children: ComponentChildren, newTabHint: string): ComponentChildren => {
  const href = safeHref(raw);
  return href
    ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, children, h('span', { class: 'sr' }, ` ${newTabHint}`))
    : children;
};

// code | bold | italics | [label](url) or ![alt](src) | a bare URL, e-mail or international phone number.
// A label holds no [, as in CommonMark: each scan for its ] then stops at the next [, so a run of [ costs
// linear time, not quadratic; the bare forms are bounded for the same reason. An image is never loaded:
// it becomes a link named by its alt text. A bare URL or address ends on a letter, digit or slash, not on
// the punctuation that ends a sentence.
const INLINE =
  /`([^`\n]+)`|\*\*(.+?)\*\*|\*(?![\s*])(.+?)\*|!?\[([^[\]\n]+)\]\(\s*<?([^\s()<>]+(?:\([^\s()]*\))?)>?\s*\)|(https?:\/\/[^\s<>]*[\w/]|[\w.+-]{1,64}@[\w-]+\.[\w.-]*\w|\+\d[\d ()-]{5,18}\d)/;

/**
 * What every form of INLINE starts with or holds: a backtick, an asterisk, a bracket, "://" of a bare URL,
 * "@" of an address, "+" of a phone number.
 */
const MAY_BE_INLINE = /[`*[@+]|:\/\//;

const FENCE = /^\s*(`{3,}|~{3,})/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
/**
 * A GFM table's second row, |---|:--:|: dashes, colons and pipes only, at least one dash and one pipe
 * (a row of dashes alone is a rule under a paragraph, not a table).
 */
const DIVIDER = /^(?=.*\|)[\s|:]*-[\s|:-]*$/;

/** Lists nest this deep; rows indented further continue the deepest list (this bounds the work). */
const MAX_DEPTH = 4;

/**
 * A table has at most this many columns (a row's cells past the last one stay in it, as written) and
 * cells (the rows past them are shown as text): a row of 32 000 pipes would otherwise be 32 000 cells
 * for the page to lay out.
 */
const MAX_TABLE_COLUMNS = 16;
const MAX_TABLE_CELLS = 1024;

/** A table row's cells: between its pipes, the outer ones optional; an escaped pipe (\|) is text. */
const tableCells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/);

/** Where a row's hard line break starts (two or more spaces, or a backslash, at its end); -1 when it has none. */
function hardBreakAt(row: string): number {
  if (row.endsWith('\\')) return row.length - 1;
  return row.endsWith('  ') ? row.trimEnd().length : -1;
}

/** Where a bare URL, e-mail address or phone number points. */
function bareTarget(bare: string): string {
  if (bare.includes('/')) return bare;
  if (bare.startsWith('+')) return 'tel:' + bare.replace(/[^\d+]/g, '');
  return 'mailto:' + bare;
}

export const renderMarkdown = (source: string, newTabHint: string, depth = 0): ComponentChildren[] => {
  /**
   * What one match of INLINE is: each group matches at least one character, so the one that took part is
   * the one that is not empty. Null (no match) renders nothing.
   */
  const inlinePart = ({ code, bold, em, label, url, bare }: Partial<Record<'code' | 'bold' | 'em' | 'label' | 'url' | 'bare', string>>) => {
    if (code) return h('code', { dir: 'ltr' }, code);
    if (bold) return h('strong', null, inline(bold));
    if (em) return h('em', null, inline(em));
    if (label) return link(url ?? '', inline(label), newTabHint);
    if (bare) return link(bareTarget(bare), bare, newTabHint);
    return null;
  };

  /** One line's inline content: code, bold, italics, links (each naming `newTabHint`), plain text. */
  const inline = (text: string): ComponentChildren[] => {
    // Every inline form needs one of these marks: text without any is plain, and most table cells and
    // lines are, so the pattern is not run for them.
    if (!MAY_BE_INLINE.test(text)) return text ? [text] : [];
    const out: ComponentChildren[] = [];
    // split() gives the text before each match, then the match's six groups (undefined where they took no
    // part), and last the text after the last match.
    const parts = text.split(INLINE);
    for (let at = 0; at < parts.length; at += 7) {
      const [plain, code, bold, em, label, url, bare] = parts.slice(at, at + 7);
      out.push(plain || null, inlinePart({ code, bold, em, label, url, bare }));
    }
    return out;
  };

  /**
   * Inline content of a paragraph's `rows`, as CommonMark reads them: a row that ends in two spaces or a
   * backslash breaks the line (<br>); any other end of a row is a soft break, shown as a space.
   */
  const lines = (rows: string[]): ComponentChildren[] =>
    rows.flatMap((row, index) => {
      if (index === rows.length - 1) return inline(row);
      const breakAt = hardBreakAt(row);
      if (breakAt < 0) return [...inline(row), ' '];
      return [...inline(row.slice(0, breakAt)), h('br', null)];
    });

  const rows = source.split(/\r\n?|\n/);
  let i = 0;
  /** Consumes rows from the current one for as long as `pick` keeps them (returns a string). */
  const take = (pick: (row: string) => string | null | undefined): string[] => {
    const taken: string[] = [];
    while (i < rows.length) {
      const kept = pick(rows[i] ?? '');
      if (kept === null || kept === undefined) break;
      taken.push(kept);
      i++;
    }
    return taken;
  };
  /** Whether a table starts at the current row: a row with a pipe, then the divider. */
  const isTable = () => rows[i]?.includes('|') && DIVIDER.test(rows[i + 1] ?? '');
  /** The block at the current row, past which it moves; null (nothing shown) for a blank row. */
  const block = (): ComponentChildren => {
    const row = rows[i] ?? '';
    const fence = FENCE.exec(row)?.[1];
    const heading = HEADING.exec(row)?.[1];
    const first = ITEM.exec(row);
    if (fence) {
      i++;
      const code = take((r) => (r.trim().startsWith(fence) ? null : r)).join('\n');
      i++;
      return h('pre', { dir: 'ltr' }, h('code', null, code));
    }
    // One row each: a blank one shows nothing, a heading shows in bold.
    if (!row.trim() || heading !== undefined) {
      i++;
      return heading === undefined ? null : h('p', null, h('strong', null, inline(heading)));
    }
    if (QUOTE.test(row)) return h('blockquote', null, lines(take((r) => QUOTE.exec(r)?.[1])));
    if (first) {
      const ordered = first[2] !== undefined;
      // A bulleted list counts as starting at 1: like a numbered one from 1, it sets no start.
      const start = +(first[2] ?? 1);
      const indent = row.search(/\S/);
      /** Each item: its first row's text, then the rows indented under it. */
      const items: string[][] = [];
      // Items of the same kind at this indent; rows indented deeper belong to the item above.
      take((r) => {
        const item = ITEM.exec(r);
        const deeper = depth < MAX_DEPTH && r.search(/\S/) > indent;
        if (item && !deeper && (item[2] !== undefined) === ordered) items.push([item[3] ?? '']);
        else if (!deeper) return null;
        else items.at(-1)?.push(r);
        return r;
      });
      return h(
        ordered ? 'ol' : 'ul',
        { start: start !== 1 ? start : undefined },
        items.map(([text = '', ...under]) => h('li', null, inline(text), renderMarkdown(under.join('\n'), newTabHint, depth + 1))),
      );
    }
    if (isTable()) {
      // The first row heads the columns; the second, the divider, draws nothing; an escape shows as
      // written. Focusable: a wide one scrolls on its own, and the keyboard must reach it to scroll it.
      const columns = Math.min(tableCells(row).length, MAX_TABLE_COLUMNS);
      const fit = (cells: string[]) =>
        cells.length > columns ? [...cells.slice(0, columns - 1), cells.slice(columns - 1).join('|')] : cells;
      let taken = 0;
      return h(
        'table',
        { tabIndex: 0 },
        take((r) => (r.includes('|') && taken++ * columns < MAX_TABLE_CELLS ? r : null)).map((r, n) =>
          n === 1
            ? null
            : h(
                'tr',
                null,
                fit(tableCells(r)).map((cell) => h(n ? 'td' : 'th', null, inline(cell.trim()))),
              ),
        ),
      );
    }
    return h(
      'p',
      null,
      lines(take((r) => (!r.trim() || FENCE.test(r) || ITEM.test(r) || HEADING.test(r) || QUOTE.test(r) || isTable() ? null : r))),
    );
  };
  const blocks: ComponentChildren[] = [];
  while (i < rows.length) blocks.push(block());
  return blocks;
};
