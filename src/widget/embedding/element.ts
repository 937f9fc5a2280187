// <agent-widget>: the inline panel as a custom element, for pages that would rather write markup than
// call init(). Its attributes are the script tag's data-* names without "data-" (agent-id, api-base,
// chat-url, title, …, prefill-<key>); a changed attribute remounts the panel, removal cleans up. The
// class is created inside defineElement() because HTMLElement does not exist during server rendering.
import { createEmitter, type Handler, type WidgetEvent } from '../platform/events';
import type { Chunks } from './chunks';
import { start } from './global';
import type { WidgetHandle } from './mount';
import { ELEMENT_ATTRIBUTES, optionsFromScript, type View } from '../options/options';
import { VERSION } from '../platform/version';

/** An <agent-widget> on the page: the same controls as window.AgentWidget, per element. */
export interface AgentWidgetElement extends HTMLElement {
  open(view?: View): void;
  close(): void;
  toggle(): void;
  on<K extends WidgetEvent>(type: K, handler: Handler<K>): () => void;
  /** Forgets this agent's stored conversation, booking codes and visitor id. */
  reset(): void;
  readonly version: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-widget': AgentWidgetElement;
  }
}

/**
 * Registers <agent-widget> once, its panel and languages from `chunks`; false when already defined or
 * there is no DOM (server rendering).
 */
export function defineElement(chunks: Chunks, registry: CustomElementRegistry | undefined = globalThis.customElements): boolean {
  if (!registry || registry.get('agent-widget')) return false;

  class WidgetElement extends HTMLElement implements AgentWidgetElement {
    static observedAttributes = ELEMENT_ATTRIBUTES;
    readonly version = VERSION;
    /** Outlives remounts, so handlers added once keep hearing events. */
    private emitter = createEmitter();
    readonly on = this.emitter.on;
    private handle: WidgetHandle | undefined = undefined;
    /** A (re)mount is pending. */
    private stale = false;

    connectedCallback() {
      this.schedule();
    }
    disconnectedCallback() {
      this.schedule();
    }
    attributeChangedCallback(_name: string, before: string | null, after: string | null) {
      // Frameworks re-set unchanged attributes on every render: only a real change remounts.
      if (before !== after) this.schedule();
    }

    /** Several changes in one task (a framework setting attributes, a move in the DOM) remount once. */
    private schedule() {
      if (this.stale) return;
      this.stale = true;
      queueMicrotask(() => this.sync());
    }

    /** Applies a pending (re)mount now; the methods call it so they work right after insertion. */
    private sync(): WidgetHandle | undefined {
      if (!this.stale) return this.handle;
      this.stale = false;
      this.handle?.destroy();
      this.handle = this.isConnected
        ? start({ ...optionsFromScript(this, ''), mode: 'inline' }, this.ownerDocument, this.emitter, chunks, this)
        : undefined;
      return this.handle;
    }

    open(view?: View) {
      this.sync()?.open(view);
    }
    close() {
      this.sync()?.close();
    }
    toggle() {
      this.sync()?.toggle();
    }
    reset() {
      this.sync()?.reset();
    }
  }

  registry.define('agent-widget', WidgetElement);
  return true;
}
