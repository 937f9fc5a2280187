// window.AgentWidget: the one global. It replays calls queued by the pre-load stub, starts from the
// script tag's data-* attributes when present, and never throws into the host page.
import { configError, createEmitter, type Handler, type WidgetEvent } from './events';
import { mountResolved, type WidgetHandle } from './mount';
import { optionsFromScript, readOptions, resolveContainer, type View, type WidgetOptions } from './options';
import { VERSION } from './version';

export interface AgentWidgetApi {
  init(options: WidgetOptions): void;
  open(view?: View): void;
  close(): void;
  toggle(): void;
  on<K extends WidgetEvent>(type: K, handler: Handler<K>): () => void;
  reset(): void;
  destroy(): void;
  readonly version: string;
}

/** What the stub snippet leaves behind: `q` holds [method, arguments] pairs. */
export interface AgentWidgetStub {
  q?: unknown[];
}

declare global {
  interface Window {
    AgentWidget?: AgentWidgetApi | AgentWidgetStub;
  }
}

const PREFIX = '[AgentWidget]';

const isApi = (value: unknown): value is AgentWidgetApi =>
  typeof value === 'object' && value !== null && 'version' in value && 'init' in value;

export function createApi(doc: Document): AgentWidgetApi {
  const emitter = createEmitter();
  let handle: WidgetHandle | undefined;
  let pending: (() => void) | undefined;
  /** Calls made while the page is still loading and init() waits for it. */
  let deferred: ((h: WidgetHandle) => void)[] = [];

  /** Before init() (or after a refused one) these calls do nothing; while the page loads they wait. */
  const withHandle = (call: (h: WidgetHandle) => void) => {
    if (handle) call(handle);
    else if (pending) deferred.push(call);
  };

  const start = (input: unknown) => {
    pending = undefined;
    const calls = deferred;
    deferred = [];
    try {
      const options = readOptions(input, doc);
      const container = options && resolveContainer(options, doc);
      if (!options || !container) {
        emitter.emit('error', configError(options?.agentId ?? ''));
        return;
      }
      handle = mountResolved(container, options, { emitter });
    } catch (error) {
      console.error(`${PREFIX} The widget could not start:`, error);
      return;
    }
    for (const call of calls) call(handle);
  };

  return {
    version: VERSION,
    init(options) {
      if (handle || pending) {
        console.warn(`${PREFIX} init() was called again; call destroy() first to start over.`);
        return;
      }
      if (doc.readyState !== 'loading') return start(options);
      const onReady = () => start(options);
      pending = () => doc.removeEventListener('DOMContentLoaded', onReady);
      doc.addEventListener('DOMContentLoaded', onReady, { once: true });
    },
    open: (view) => withHandle((h) => h.open(view)),
    close: () => withHandle((h) => h.close()),
    toggle: () => withHandle((h) => h.toggle()),
    reset: () => withHandle((h) => h.reset()),
    on: (type, handler) => emitter.on(type, handler),
    destroy() {
      pending?.();
      pending = undefined;
      deferred = [];
      handle?.destroy();
      handle = undefined;
    },
  };
}

/** Replays one queued stub call; the methods check their own arguments. */
function replay(api: AgentWidgetApi, entry: unknown): void {
  if (!Array.isArray(entry)) return;
  const [name, args] = entry as [unknown, ArrayLike<unknown> | undefined];
  const method: unknown = typeof name === 'string' && name in api ? api[name as keyof AgentWidgetApi] : undefined;
  if (typeof method === 'function') Reflect.apply(method, api, Array.from(args ?? []));
  else console.warn(`${PREFIX} Unknown queued call ${String(name)}.`);
}

/** Installs the global (once per page), starts from `script`'s data-* options, then replays the queue. */
export function installGlobal(win: Window, script: Element | null): AgentWidgetApi {
  const existing = win.AgentWidget;
  if (isApi(existing)) {
    console.warn(`${PREFIX} The widget script was loaded twice; the second copy does nothing.`);
    return existing;
  }
  const queue = existing && Array.isArray(existing.q) ? existing.q : [];
  const api = createApi(win.document);
  win.AgentWidget = api;
  const fromScript = script ? optionsFromScript(script) : {};
  // Plain strings from attributes; init() validates them like any other input.
  if (Object.keys(fromScript).length > 0) api.init(fromScript as unknown as WidgetOptions);
  for (const entry of queue) replay(api, entry);
  return api;
}
