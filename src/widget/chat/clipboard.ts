// What Copy puts on the clipboard for a reply: the reply as shown, as plain text a person reads (a link
// as "label (address)", list items on their own lines) and as HTML that keeps its formatting where a
// paste takes it (mail, documents). Both are made from the reply's rendered elements, which hold the
// reply's text only as text nodes, so the HTML carries nothing the reply could have smuggled in.

/** The elements that start a block of their own in plain text. */
const BLOCKS = new Set(['P', 'PRE', 'BLOCKQUOTE', 'UL', 'OL', 'TABLE']);

/** The attributes the HTML keeps: a link's address. Classes, hints for screen readers and the like go. */
const KEPT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { A: ['href'] };

export interface ClipboardText {
  plain: string;
  html: string;
}

/** A link's text, with its address after it when the text does not already say it. */
function linkText(link: HTMLAnchorElement, label: string): string {
  const address = link.href.replace(/^(mailto|tel):/, '');
  // A phone number written with spaces and brackets says the same number as its address.
  const saysNumber = link.protocol === 'tel:' && label.replace(/[^\d+]/g, '') === address;
  return label === address || label === link.href || saysNumber ? label : `${label} (${address})`;
}

/** The plain text of `node`'s inline content: text, line breaks, links with their address. */
function inlineText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element) || node.classList.contains('sr')) return '';
  if (node.tagName === 'BR') return '\n';
  const inner = Array.from(node.childNodes, inlineText).join('');
  return node instanceof HTMLAnchorElement ? linkText(node, inner) : inner;
}

/** A list's items, one per line, bulleted or numbered, the lists inside them indented. */
function listText(list: Element, indent: string): string {
  const start = Number(list.getAttribute('start') ?? 1);
  return Array.from(list.children)
    .map((item, index) => {
      const marker = list.tagName === 'OL' ? `${start + index}.` : '-';
      const own = Array.from(item.childNodes)
        .filter((child) => !(child instanceof Element && BLOCKS.has(child.tagName)))
        .map(inlineText)
        .join('');
      const nested = Array.from(item.children)
        .filter((child) => child.tagName === 'UL' || child.tagName === 'OL')
        .map((child) => `\n${listText(child, `${indent}  `)}`)
        .join('');
      return `${indent}${marker} ${own}${nested}`;
    })
    .join('\n');
}

/** One block of the reply as plain text. */
function blockText(block: Element): string {
  switch (block.tagName) {
    case 'UL':
    case 'OL':
      return listText(block, '');
    case 'TABLE':
      return Array.from(block.querySelectorAll('tr'), (row) => Array.from(row.children, inlineText).join(' | ')).join('\n');
    case 'BLOCKQUOTE':
      return inlineText(block)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    default:
      return inlineText(block);
  }
}

/** The reply's HTML: its elements with the link addresses kept and every other attribute dropped. */
function cleanHtml(bubble: Element): string {
  const copy = bubble.cloneNode(true);
  if (!(copy instanceof Element)) return '';
  copy.querySelectorAll('.sr').forEach((hint) => hint.remove());
  for (const element of copy.querySelectorAll('*')) {
    const kept = KEPT_ATTRIBUTES[element.tagName] ?? [];
    for (const name of element.getAttributeNames()) if (!kept.includes(name)) element.removeAttribute(name);
  }
  return copy.innerHTML;
}

/** The reply drawn in `bubble`, as plain text and as HTML. */
export function replyForClipboard(bubble: Element): ClipboardText {
  const plain = Array.from(bubble.children, blockText)
    .filter((text) => text.trim())
    .join('\n\n');
  return { plain, html: cleanHtml(bubble) };
}

/**
 * Puts `text` on the clipboard: both kinds where the browser takes several (ClipboardItem), else the
 * plain text. Rejects when the browser refuses (no Clipboard API outside a secure context, permission).
 */
export async function writeClipboard(clipboard: Clipboard, text: ClipboardText): Promise<void> {
  if (typeof ClipboardItem === 'function' && typeof clipboard.write === 'function') {
    const item = new ClipboardItem({
      'text/plain': new Blob([text.plain], { type: 'text/plain' }),
      'text/html': new Blob([text.html], { type: 'text/html' }),
    });
    // A browser that refuses the HTML kind may still take the text alone.
    await clipboard.write([item]).catch(() => clipboard.writeText(text.plain));
    return;
  }
  await clipboard.writeText(text.plain);
}
