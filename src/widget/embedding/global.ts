// window.AgentWidget: the one global. It replays calls queued by the pre-load stub, starts from the
// script tag's data-* attributes when present, and never throws into the host page.
import { configError, createEmitter, type Emitter } from '../platform/events';
import type { Chunks } from './chunks';
import { mountResolved, type WidgetHandle } from './mount';
import { isRecord } from '../../core/guards';
import { optionsFromScript, readOptions, resolveContainer, type WidgetOptions } from '../options/options';
import { VERSION } from '../platform/version';
import { logError, logWarning } from '../platform/log';
import { listen } from '../platform/listen';

/** window.AgentWidget: a widget handle, plus init() for setting it up from code. */
export interface AgentWidgetApi extends WidgetHandle {
  init(options: WidgetOptions): void;
}

/** What the stub snippet leaves behind: `q` holds [method, arguments] pairs. No version: that tells a loaded copy's API. */
export interface AgentWidgetStub {
  q?: unknown[];
  version?: undefined;
}

declare global {
  interface Window {
    AgentWidget?: AgentWidgetApi | AgentWidgetStub;
  }
}

/**
 * Validates `input` and mounts it into `host` (an <agent-widget>), else where the options say, with the
 * panel and languages from `chunks`. When the options cannot be used the console says why, and `emitter`
 * hears an `error` event.
 */
export const start = (input: unknown, doc: Document, emitter: Emitter, chunks: Chunks, host?: HTMLElement): WidgetHandle | undefined => {
  const options = readOptions(input, doc);
  const container = host ?? (options && resolveContainer(options, doc));
  if (options && container) return mountResolved(container, options, { emitter, host, chunks });
  emitter.emit('error', configError(isRecord(input) && typeof input.agentId === 'string' ? input.agentId : ''));
  return undefined;
};

/** The global as built: init() validates whatever it is given, so it takes unknown (script attributes too). */
type CheckedApi = Omit<AgentWidgetApi, 'init'> & { init(options: unknown, ownTask?: boolean): void };

export function createApi(doc: Document, chunks: Chunks): CheckedApi {
  const emitter = createEmitter();
  let handle: WidgetHandle | undefined;
  /** Set while init() waits for the page or its own task: stops the wait. Calls made meanwhile queue up. */
  let cancel: (() => void) | undefined;
  let queued: ((h: WidgetHandle) => void)[] = [];

  /** Before init() (or after a refused one) these calls do nothing; while the page loads they wait. */
  const withHandle = (call: (h: WidgetHandle) => void) => {
    if (handle) call(handle);
    else if (cancel) queued.push(call);
  };

  const begin = (input: unknown) => {
    cancel = undefined;
    try {
      handle = start(input, doc, emitter, chunks);
    } catch (error) {
      logError(`Not started:`, error);
    }
    // Nothing waits any more: without a handle the calls are dropped.
    queued.splice(0).forEach(withHandle);
  };

  return {
    version: VERSION,
    init(options: unknown, ownTask?: boolean) {
      if (handle || cancel) return logWarning(`init() called twice; destroy() first.`);
      // The script's own start runs in a task of its own, so never inside the page's DOMContentLoaded task.
      const go = ownTask
        ? () => {
            const timer = setTimeout(() => begin(options));
            cancel = () => clearTimeout(timer);
          }
        : () => begin(options);
      if (doc.readyState !== 'loading') return go();
      // From <head>: after parsing.
      cancel = listen(doc, 'DOMContentLoaded', go, { once: true });
    },
    open: (view) => withHandle((h) => h.open(view)),
    close: () => withHandle((h) => h.close()),
    toggle: () => withHandle((h) => h.toggle()),
    reset: () => withHandle((h) => h.reset()),
    on: emitter.on,
    destroy() {
      cancel?.();
      cancel = undefined;
      queued = [];
      handle?.destroy();
      handle = undefined;
    },
  };
}

/** Replays one queued stub call; the methods check their own arguments. */
function replay(api: AgentWidgetApi, entry: unknown): void {
  if (!Array.isArray(entry)) return;
  const [name, args] = entry as [unknown, ArrayLike<unknown> | undefined];
  // Looked up as given: anything but one of the API's names (a typo, a number) finds no method.
  const method: unknown = api[name as keyof AgentWidgetApi];
  if (typeof method === 'function') method.apply(api, Array.from(args ?? []));
  else logWarning(`Unknown queued call ${String(name)}.`);
}

/**
 * Installs the global (once per page), starts from `script`'s data-* options, then replays the queue.
 * The panel and the languages come from `chunks` (for the script tag: files next to widget.js).
 */
export const installGlobal = (win: Window, script: Element | null, chunks: Chunks): AgentWidgetApi => {
  const existing = win.AgentWidget;
  // A page may have put anything under that name: only our API has a version.
  if (existing?.version !== undefined) {
    logWarning(`Loaded twice; this copy is ignored.`);
    return existing;
  }
  const api = createApi(win.document, chunks);
  win.AgentWidget = api;
  const fromScript = script && optionsFromScript(script);
  // The script's own options start in a task of their own: evaluating the bundle and drawing the
  // launcher stay two short tasks on the host page. Calls queued meanwhile wait (see withHandle).
  if (fromScript) api.init(fromScript, true);
  // Calls the stub queued, in order.
  for (const entry of Array.isArray(existing?.q) ? existing.q : []) replay(api, entry);
  return api;
};
