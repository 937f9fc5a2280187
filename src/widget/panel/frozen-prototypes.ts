// A host page may freeze Object.prototype (a hardening library, SES lockdown). In a classic script, as
// the panel's file is, assigning a property that Object.prototype holds read-only then silently does
// nothing (the "override mistake"). Preact marks each vnode with an own `constructor: undefined` and
// refuses, as injected JSON, any vnode without it, and it copies vnodes by assignment in two places: a
// component's vnode when it re-renders, and the children of an unkeyed Fragment a component returns. On
// such a page those copies lose the mark and draw nothing: the panel draws once, then never changes,
// and a view that returns a Fragment stays empty. Defining a property is not subject to that rule, so
// the mark is defined on each new vnode (Preact's vnode hook), and such a Fragment is handed to Preact
// as its children, which it draws without copying (Preact's render hook, as @preact/signals uses it).
import { Fragment, options, type ComponentChildren, type VNode } from 'preact';

const constructorIsReadOnly = (): boolean => Object.getOwnPropertyDescriptor(Object.prototype, 'constructor')?.writable === false;

/** A component as Preact's render hook sees it on the vnode (`__c`). */
interface RenderingComponent {
  render(this: RenderingComponent, ...args: unknown[]): ComponentChildren;
}

/** Preact's options with its hook called before each component render, with the component's vnode (mangled `__r`). */
type RenderHookOptions = typeof options & {
  __r?: (vnode: VNode) => void;
};

const isRenderingComponent = (value: unknown): value is RenderingComponent =>
  typeof value === 'object' && value !== null && 'render' in value && typeof value.render === 'function';

/** What Preact draws for a render's result, without the copy it makes of an unkeyed Fragment's children. */
function withoutOuterFragment(out: ComponentChildren): ComponentChildren {
  if (typeof out !== 'object' || out === null || Array.isArray(out) || !('type' in out)) return out;
  const vnode: VNode<{ children?: ComponentChildren }> = out;
  return vnode.type === Fragment && vnode.key == null ? vnode.props.children : out;
}

/** On a page whose Object.prototype.constructor is read-only, keeps every vnode Preact draws marked; elsewhere nothing. */
export function keepVnodesMarked(): void {
  if (!constructorIsReadOnly()) return;
  const nextVnode = options.vnode;
  options.vnode = (vnode: VNode) => {
    if (!Object.hasOwn(vnode, 'constructor'))
      Object.defineProperty(vnode, 'constructor', { value: undefined, writable: true, enumerable: true, configurable: true });
    nextVnode?.(vnode);
  };
  const renderHooks: RenderHookOptions = options;
  const nextRender = renderHooks.__r;
  const unwrapped = new WeakSet<RenderingComponent>();
  renderHooks.__r = (vnode: VNode) => {
    nextRender?.(vnode);
    const component: unknown = '__c' in vnode ? vnode.__c : undefined;
    if (!isRenderingComponent(component) || unwrapped.has(component)) return;
    unwrapped.add(component);
    const render = component.render;
    component.render = function (...args) {
      return withoutOuterFragment(render.apply(this, args));
    };
  };
}
