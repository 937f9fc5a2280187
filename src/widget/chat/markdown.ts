// A small Markdown subset rendered to Preact elements, never to HTML strings: paragraphs, line
// breaks, **bold**, *italics*, `code`, fenced code, - and 1. lists, [links](url), # headings as bold,
// > quotes.
// Text always lands in text nodes, so markup in a reply shows as the characters it is.
import { h, type ComponentChildren } from 'preact';

const SAFE_PROTOCOLS = ['http:', 'https:', 'mailto:', 'tel:'];

/** The normalised URL when it is absolute http(s), mailto or tel; anything else is not a link. */
export function safeHref(raw: string): string | undefined {
  try {
    const url = new URL(raw.trim());
    return SAFE_PROTOCOLS.includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link that opens outside the page, or plain text when the URL is not allowed. */
export function link(raw: string, children: ComponentChildren, newTabHint: string): ComponentChildren {
  const href = safeHref(raw);
  if (!href) return children;
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, children, h('span', { class: 'aw-sr' }, ` ${newTabHint}`));
}

// code | bold | italics | [label](url)
const INLINE = /`([^`\n]+)`|\*\*(.+?)\*\*|\*(?![\s*])(.+?)\*|\[([^\]\n]+)\]\(\s*<?([^\s()<>]+(?:\([^\s()]*\))?)>?\s*\)/g;

function inline(text: string, hint: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    last = at + m[0].length;
    if (m[1] !== undefined) out.push(h('code', null, m[1]));
    else if (m[2] !== undefined) out.push(h('strong', null, inline(m[2], hint)));
    else if (m[3] !== undefined) out.push(h('em', null, inline(m[3], hint)));
    else out.push(link(m[5] ?? '', inline(m[4] ?? '', hint), hint));
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Inline content with single newlines kept as <br>. */
function lines(text: string, hint: string): ComponentChildren[] {
  return text.split('\n').flatMap((line, i) => (i === 0 ? inline(line, hint) : [h('br', null), ...inline(line, hint)]));
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

export function renderMarkdown(source: string, newTabHint: string): ComponentChildren[] {
  const rows = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ComponentChildren[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i] ?? '';
    const fence = FENCE.exec(row);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < rows.length && !(rows[i] ?? '').trim().startsWith(fence[1] ?? '```')) body.push(rows[i++] ?? '');
      i++;
      blocks.push(h('pre', null, h('code', null, body.join('\n'))));
      continue;
    }
    if (row.trim() === '') {
      i++;
      continue;
    }
    const heading = HEADING.exec(row);
    if (heading) {
      blocks.push(h('p', null, h('strong', null, inline(heading[1] ?? '', newTabHint))));
      i++;
      continue;
    }
    if (QUOTE.test(row)) {
      const quoted: string[] = [];
      while (i < rows.length) {
        const quote = QUOTE.exec(rows[i] ?? '');
        if (!quote) break;
        quoted.push(quote[1] ?? '');
        i++;
      }
      blocks.push(h('blockquote', null, lines(quoted.join('\n'), newTabHint)));
      continue;
    }
    const first = ITEM.exec(row);
    if (first) {
      const ordered = first[2] !== undefined;
      const items: string[] = [];
      while (i < rows.length) {
        const item = ITEM.exec(rows[i] ?? '');
        if (item && (item[2] !== undefined) === ordered) items.push(item[3] ?? '');
        else if (!item && /^\s+\S/.test(rows[i] ?? '') && items.length > 0) items[items.length - 1] += '\n' + (rows[i] ?? '').trim();
        else break;
        i++;
      }
      const start = Number(first[2]);
      blocks.push(
        h(
          ordered ? 'ol' : 'ul',
          { start: ordered && start !== 1 ? start : undefined },
          items.map((item) => h('li', null, lines(item, newTabHint))),
        ),
      );
      continue;
    }
    const para: string[] = [];
    while (i < rows.length) {
      const next = rows[i] ?? '';
      if (next.trim() === '' || FENCE.test(next) || ITEM.test(next) || HEADING.test(next) || QUOTE.test(next)) break;
      para.push(next);
      i++;
    }
    blocks.push(h('p', null, lines(para.join('\n'), newTabHint)));
  }
  return blocks;
}
