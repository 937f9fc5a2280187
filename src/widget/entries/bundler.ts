// `import { mount, defineElement } from 'agent-widget'`: the package's entry for bundler users.
export { mount, type MountDeps, type WidgetHandle } from '../embedding/mount';
export { defineElement, type AgentWidgetElement } from '../embedding/element';
export type { View, WidgetOptions } from '../options/options';
export type { Strings } from '../i18n';
export type { WidgetErrorEvent, WidgetEvent, WidgetEventMap } from '../platform/events';
