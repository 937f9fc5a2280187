// A host page may freeze Object.prototype (a hardening library, SES lockdown). In a classic script, as
// the panel's file is, assigning a property that Object.prototype holds read-only then silently does
// nothing (the "override mistake"). Preact marks each vnode with an own `constructor: undefined` and
// refuses, as injected JSON, any vnode without it; when it re-renders a component it copies the vnode
// by assignment, so on such a page the copy loses the mark and every update draws nothing: the panel
// opens once and then never changes. Defining a property is not subject to that rule, so the mark is
// put back on each new vnode, through Preact's own hook for them.
import { options, type VNode } from 'preact';

const constructorIsReadOnly = (): boolean => Object.getOwnPropertyDescriptor(Object.prototype, 'constructor')?.writable === false;

/** On a page whose Object.prototype.constructor is read-only, keeps every vnode's mark; elsewhere nothing. */
export function keepVnodesMarked(): void {
  if (!constructorIsReadOnly()) return;
  const next = options.vnode;
  options.vnode = (vnode: VNode) => {
    if (!Object.hasOwn(vnode, 'constructor'))
      Object.defineProperty(vnode, 'constructor', { value: undefined, writable: true, enumerable: true, configurable: true });
    next?.(vnode);
  };
}
