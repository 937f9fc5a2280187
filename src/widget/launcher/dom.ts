// The few elements the loader draws before Preact arrives with the panel, made with DOM calls: text goes
// in as text nodes, never markup, and attributes as values.
import { CHAT_ICON, CLOSE_ICON } from '../platform/icon-paths';

type Attributes = Record<string, string | number | boolean | undefined>;

/** Sets each attribute; false and undefined remove it, true sets it empty. */
export function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) element.removeAttribute(name);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

export function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Attributes = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const created = doc.createElement(tag);
  setAttributes(created, attributes);
  created.append(...children);
  return created;
}

const SVG = 'http://www.w3.org/2000/svg';

const PATHS = { chat: CHAT_ICON, close: CLOSE_ICON };

/** A decorative icon, as ../platform/Icon draws it in the panel. */
export function icon(doc: Document, name: keyof typeof PATHS): SVGSVGElement {
  const svg = doc.createElementNS(SVG, 'svg');
  setAttributes(svg, { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true' });
  const path = doc.createElementNS(SVG, 'path');
  setAttributes(path, {
    d: PATHS[name],
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': 2,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  });
  svg.append(path);
  return svg;
}
