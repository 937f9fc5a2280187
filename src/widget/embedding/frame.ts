// The iframe page (embed.html + embed.js): options from the page's URL, the inline panel filling the
// body at its natural height, and a postMessage bridge to the parent:
//   out: { source: 'agent-widget', type, payload } for every event, plus `resize` { height }
//   in:  { source: 'agent-widget', type: 'open' | 'close' | 'setView', payload?: { view } }
// Full payloads go only to `parentOrigin`; without it they go to '*' cut down to { agentId }, because
// a message text or a booking's form answers must not reach whatever page framed us. Commands are
// taken only from the parent window at `parentOrigin`, never without one.
import { configError, createEmitter, type WidgetEvent } from '../platform/events';
import type { Chunks } from './chunks';
import { mountResolved } from './mount';
import { isView, readOptions } from '../options/options';
import { logWarning } from '../platform/log';

/** A Record, so the compiler flags an event added to WidgetEventMap but not forwarded here. */
const FORWARDED: Record<WidgetEvent, true> = {
  ready: true,
  open: true,
  close: true,
  'message:sent': true,
  'message:received': true,
  'message:feedback': true,
  'booking:date-selected': true,
  'booking:slot-selected': true,
  'booking:created': true,
  'booking:cancelled': true,
  error: true,
};

/** The page URL's query, with the fragment's entries on top: values there never reach a server log. */
export function frameParams(location: Pick<Location, 'search' | 'hash'>): Record<string, string | Record<string, string>> {
  const raw: Record<string, string | Record<string, string>> = {};
  const prefill: Record<string, string> = {};
  for (const part of [location.search, location.hash]) {
    new URLSearchParams(part.slice(1)).forEach((value, key) => {
      if (key.startsWith('prefill-')) prefill[key.slice(8)] = value;
      else raw[key] = value;
    });
  }
  if (Object.keys(prefill).length > 0) raw.prefill = prefill;
  return raw;
}

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const { origin } = new URL(value);
    if (origin !== 'null') return origin;
  } catch {
    // Reported below.
  }
  logWarning(`parentOrigin ${JSON.stringify(value)} is not an origin; commands are refused and payloads cut down.`);
  return undefined;
}

/**
 * Starts the frame page in `win`; `parent` is where messages go (the framing window); the panel and the
 * languages come from `chunks` (files next to embed.js). Returns a stop.
 */
export function startFrame(win: Window, chunks: Chunks, parent: Window = win.parent): () => void {
  const doc = win.document;
  const raw = frameParams(win.location);
  const parentOrigin = originOf(typeof raw.parentOrigin === 'string' ? raw.parentOrigin : undefined);
  const agentId = typeof raw.agentId === 'string' ? raw.agentId : '';

  const post = (type: WidgetEvent | 'resize', payload: object) => {
    const safe = parentOrigin || type === 'resize' ? payload : { agentId };
    parent.postMessage({ source: 'agent-widget', type, payload: safe }, parentOrigin ?? '*');
  };

  // CSSOM writes, not a <style>: the page runs under a CSP without 'unsafe-inline'.
  doc.body.style.margin = '0';
  // height=fill: for a frame of fixed height, the panel fills it and its views scroll inside.
  const fill = raw.height === 'fill';
  if (fill) for (const el of [doc.documentElement, doc.body]) el.style.height = '100%';
  const options = readOptions({ ...raw, mode: 'inline', target: doc.body }, doc);
  if (!options) {
    post('error', configError(agentId));
    return () => undefined;
  }
  doc.documentElement.lang = options.locale;
  if (options.title) doc.title = options.title;

  const emitter = createEmitter();
  for (const type of Object.keys(FORWARDED) as WidgetEvent[]) emitter.on(type, (payload) => post(type, payload));
  const handle = mountResolved(doc.body, options, { emitter, chunks });

  // The body is exactly as tall as the panel's content (no height of its own): the parent sizes the
  // frame to it, so the frame never needs a scrollbar.
  let height = -1;
  const observer = new ResizeObserver(() => {
    const next = Math.ceil(doc.body.getBoundingClientRect().height);
    if (next !== height) post('resize', { height: (height = next) });
  });
  if (!fill) observer.observe(doc.body);

  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (!parentOrigin || event.origin !== parentOrigin || event.source !== parent) return;
    if (typeof data !== 'object' || data === null || !('source' in data) || data.source !== 'agent-widget') return;
    const { type, payload } = data as { type?: unknown; payload?: { view?: unknown } };
    const asked = payload?.view;
    const view = isView(asked) ? asked : undefined;
    if (type === 'close') handle.close();
    // Both move focus into the view; open without a view shows the current one.
    else if (type === 'open' || (type === 'setView' && view)) handle.open(view);
  };
  win.addEventListener('message', onMessage);

  return () => {
    win.removeEventListener('message', onMessage);
    observer.disconnect();
    handle.destroy();
  };
}
