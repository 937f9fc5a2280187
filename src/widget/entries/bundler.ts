// `import { mount, defineElement } from 'agent-widget'`: the package's entry for bundler users. The panel
// is a chunk of its own, loaded through the bundler's dynamic import on the visitor's first intent.
import type { Chunks } from '../embedding/chunks';
import { defineElement as defineWithChunks } from '../embedding/element';
import { mountWidget, type WidgetHandle } from '../embedding/mount';
import type { WidgetOptions } from '../options/options';

export type { WidgetHandle } from '../embedding/mount';
export type { AgentWidgetElement } from '../embedding/element';
export type { View, WidgetOptions } from '../options/options';
export type { Strings } from '../i18n';
export { loadLocale } from '../i18n/load-locale';
export type { WidgetErrorEvent, WidgetEvent, WidgetEventMap } from '../platform/events';

const chunks: Chunks = {
  panel: () => import('../panel').then(({ panelModule }) => panelModule),
};

export interface MountDeps {
  /** Injected clock (epoch ms) for storage stamps and countdowns. */
  now?: () => number;
}

/**
 * Mounts the widget into `container` (document.body for the bubble, or the element an inline panel fills);
 * undefined, with one console error, when the options are unusable.
 */
export const mount = (container: Element, options: WidgetOptions, deps: MountDeps = {}): WidgetHandle | undefined =>
  mountWidget(container, options, { ...deps, chunks });

/** Registers <agent-widget>; false when already defined or there is no DOM (server rendering). */
export const defineElement = (registry?: CustomElementRegistry): boolean => defineWithChunks(chunks, registry);
