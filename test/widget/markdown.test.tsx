// Replies are rendered to elements, never parsed as HTML; only http(s), mailto and tel become links.
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, test } from 'vitest';
import { renderMarkdown, safeHref } from '../../src/widget/chat/markdown';

const HINT = '(opens in a new tab)';

afterEach(cleanup);

function show(source: string): HTMLElement {
  const reply = render(<div>{renderMarkdown(source, HINT)}</div>).container.firstElementChild;
  if (!(reply instanceof HTMLElement)) throw new Error('nothing rendered');
  return reply;
}

describe('markdown safety', () => {
  test.each([
    ['an img with onerror', '<img src=x onerror=alert(1)>', 'img'],
    ['a script element', '<script>alert(1)</script>', 'script'],
    ['an iframe', '<iframe src="https://evil.test"></iframe>', 'iframe'],
    ['inline HTML in bold', '**<b onclick="x()">bold</b>**', 'b'],
  ])('%s stays text', (_name, source, tag) => {
    const reply = show(source);
    expect(reply.querySelector(tag)).toBeNull();
    // What a sighted visitor reads: the screen-reader hint of a link (the iframe's bare URL) is not shown.
    reply.querySelectorAll('.sr').forEach((hint) => hint.remove());
    expect(reply.textContent).toContain(tag === 'b' ? '<b onclick="x()">bold</b>' : source);
  });

  test.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '/relative/path',
    '//evil.test/x',
  ])('a link to %j is inert text', (url) => {
    const reply = show(`Click [here](${url}) now`);
    expect(reply.querySelector('a')).toBeNull();
    expect(reply.textContent).toContain('here');
  });

  test.each([
    ['https://acme.test/prices?x=1', 'https://acme.test/prices?x=1'],
    ['http://acme.test', 'http://acme.test/'],
    ['mailto:hi@acme.test', 'mailto:hi@acme.test'],
    ['tel:+15550100', 'tel:+15550100'],
    ['https://en.wikipedia.org/wiki/Physio_(therapy)', 'https://en.wikipedia.org/wiki/Physio_(therapy)'],
  ])('a link to %s opens in a new tab without opener', (url, href) => {
    const reply = show(`See [the page](${url}).`);
    const a = reply.querySelector('a');
    expect(a?.getAttribute('href')).toBe(href);
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(a?.textContent).toBe(`the page ${HINT}`);
  });

  test('safeHref accepts only absolute http(s), mailto and tel', () => {
    expect(safeHref(' https://a.test/x ')).toBe('https://a.test/x');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:,x')).toBeUndefined();
    expect(safeHref('not a url')).toBeUndefined();
  });
});

describe('bare links and images', () => {
  test('a bare URL, e-mail address and international phone number become links; the sentence keeps its period', () => {
    const reply = show('See https://acme.test/prices?x=1. Mail hi.there@acme.example.org, call +1 (555) 010-0100.');
    const links = Array.from(reply.querySelectorAll('a'), (a) => [a.getAttribute('href'), a.firstChild?.textContent]);
    expect(links).toEqual([
      ['https://acme.test/prices?x=1', 'https://acme.test/prices?x=1'],
      ['mailto:hi.there@acme.example.org', 'hi.there@acme.example.org'],
      ['tel:+15550100100', '+1 (555) 010-0100'],
    ]);
    expect(reply.textContent).toBe(
      `See https://acme.test/prices?x=1 ${HINT}. Mail hi.there@acme.example.org ${HINT}, call +1 (555) 010-0100 ${HINT}.`,
    );
    for (const a of reply.querySelectorAll('a')) expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  test('only http(s) is linked bare; code, dates and plain numbers stay text', () => {
    const reply = show('javascript:alert(1) ftp://files.test `https://acme.test` on 2026-11-24 at 10:30, order 1234567');
    expect(reply.querySelector('a')).toBeNull();
  });

  test('an image is never loaded: it is a link named by its alt text', () => {
    const reply = show('Our room: ![Treatment room with a window](https://cdn.acme.test/room.jpg)');
    expect(reply.querySelector('img')).toBeNull();
    const a = reply.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://cdn.acme.test/room.jpg');
    expect(a?.textContent).toBe(`Treatment room with a window ${HINT}`);
    expect(reply.textContent).toBe(`Our room: Treatment room with a window ${HINT}`);
  });
});

describe('markdown structure', () => {
  test('paragraphs, soft and hard line breaks, bold, italics and code', () => {
    const reply = show('First line\nsecond line  \nthird line\\\nlast\n\nNew **bold** and *soft* and `a<b>`');
    const paragraphs = reply.querySelectorAll('p');
    expect(paragraphs).toHaveLength(2);
    // A row break alone is soft: a space. Two spaces or a backslash at the row's end break the line.
    expect(paragraphs[0]?.querySelectorAll('br')).toHaveLength(2);
    expect(paragraphs[0]?.textContent).toBe('First line second linethird linelast');
    expect(reply.querySelector('strong')?.textContent).toBe('bold');
    expect(reply.querySelector('em')?.textContent).toBe('soft');
    expect(reply.querySelector('code')?.textContent).toBe('a<b>');
  });

  test('a fenced code block keeps its text literally', () => {
    const reply = show('Try:\n```js\nconst a = **b**;\n<img src=x>\n```\nDone');
    const pre = reply.querySelector('pre');
    expect(pre?.textContent).toBe('const a = **b**;\n<img src=x>');
    expect(pre?.querySelector('strong, img')).toBeNull();
    expect(reply.querySelectorAll('p')).toHaveLength(2);
  });

  test('bulleted and numbered lists', () => {
    const reply = show('Options:\n- one\n- **two**\n\n3. third\n4. fourth');
    const ul = reply.querySelector('ul');
    expect(Array.from(ul?.querySelectorAll('li') ?? [], (li) => li.textContent)).toEqual(['one', 'two']);
    const ol = reply.querySelector('ol');
    expect(ol?.getAttribute('start')).toBe('3');
    expect(ol?.querySelectorAll('li')).toHaveLength(2);
  });

  test('lists nest by indentation, of either kind, and an indented line stays in its item', () => {
    const reply = show('1. Book online\n   - pick a time\n     * morning\n   - confirm\n   You get a code.\n2. Come in\nThanks');
    const outer = reply.querySelector('ol');
    const items = outer?.querySelectorAll(':scope > li');
    expect(items).toHaveLength(2);
    const inner = items?.[0]?.querySelector(':scope > ul');
    expect(Array.from(inner?.querySelectorAll(':scope > li') ?? [], (li) => li.firstChild?.textContent)).toEqual([
      'pick a time',
      'confirm',
    ]);
    expect(inner?.querySelector(':scope > li > ul > li')?.textContent).toBe('morning');
    // Leading spaces collapse in a reply, as in any HTML paragraph.
    expect(items?.[0]?.lastElementChild?.textContent?.trim()).toBe('You get a code.');
    expect(items?.[1]?.textContent).toBe('Come in');
    expect(reply.lastElementChild?.textContent).toBe('Thanks');
  });

  test('lists nest at most five levels: deeper items join the fifth', () => {
    const rows = Array.from({ length: 7 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth + 1}`);
    const reply = show(rows.join('\n'));
    let depth = 0;
    for (let list = reply.querySelector('ul'); list; list = list.querySelector('ul')) depth++;
    expect(depth).toBe(5);
    expect(reply.querySelectorAll('li')).toHaveLength(7);
  });

  test('a GFM table: header cells, body cells with inline markdown, outer pipes optional; it may follow a paragraph', () => {
    const reply = show('Our prices:\n| Session | Price |\n|:--|--:|\n| Intro | **free** |\nConsultation | $65\n\nSee you');
    const table = reply.querySelector('table');
    expect(Array.from(table?.querySelectorAll('th') ?? [], (th) => th.textContent)).toEqual(['Session', 'Price']);
    const rows = Array.from(table?.querySelectorAll('tr') ?? [], (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent));
    expect(rows).toEqual([[], ['Intro', 'free'], ['Consultation', '$65']]);
    expect(table?.querySelector('td strong')?.textContent).toBe('free');
    expect(reply.firstElementChild?.textContent).toBe('Our prices:');
    expect(reply.lastElementChild?.textContent).toBe('See you');
  });

  test('a row of dashes under a sentence with a pipe is a rule, not a table; so is a list item', () => {
    expect(show('Use a | b\n---\nnext').querySelector('table')).toBeNull();
    expect(show('a | b\n- c').querySelector('table')).toBeNull();
    expect(show('a | b\n- c').querySelector('li')?.textContent).toBe('c');
  });

  test('an escaped pipe stays in its cell', () => {
    const reply = show('| Key | Means |\n|---|---|\n| `a\\|b` | either |');
    const row = Array.from(reply.querySelectorAll('tr')[1]?.querySelectorAll('td') ?? [], (td) => td.textContent);
    expect(row).toEqual(['a\\|b', 'either']);
  });

  test('a list item that starts with a pipe is a list item', () => {
    const reply = show('- | a | b |\n  |---|---|\n- next');
    expect(reply.querySelectorAll('ul > li')).toHaveLength(2);
    expect(reply.querySelector('li')?.firstChild?.textContent).toBe('| a | b |');
  });

  test('pipes without a divider row are text', () => {
    const reply = show('a | b\nc | d');
    expect(reply.querySelector('table')).toBeNull();
    expect(reply.textContent).toBe('a | b c | d');
  });

  test('a heading is shown as a bold paragraph (no heading levels inside the log)', () => {
    const reply = show('## Opening hours\nMon to Fri');
    expect(reply.querySelector('h2')).toBeNull();
    expect(reply.querySelector('p > strong')?.textContent).toBe('Opening hours');
  });

  test('a > quote becomes a blockquote', () => {
    const reply = show('Said:\n> first\n> *second*\nafter');
    expect(reply.querySelector('blockquote')?.textContent).toBe('first second');
    expect(reply.querySelector('blockquote em')?.textContent).toBe('second');
    expect(reply.lastElementChild?.textContent).toBe('after');
  });

  test('unmatched markers stay as typed', () => {
    expect(show('2 * 3 * 4 and **open').textContent).toBe('2 * 3 * 4 and **open');
  });
});
