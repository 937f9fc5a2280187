// Components that re-render when a signal they read changes. Each render runs inside a signals effect,
// which records the signals read; the first change after that asks Preact for a new render (which
// records afresh). Public APIs only: Preact's Component and @preact/signals-core's effect(). The Preact
// adapter package does the same for every component through Preact's internal hooks, for 1.2 KB gzip more.
//
// A component that needs refs, local signals or mount/update/unmount work is a Preact class extending
// Reactive: instance fields and lifecycle methods, Preact's own model, read as plainly as hooks and
// without shipping preact/hooks (800 B gzip) for them. Giving reactive() a per-instance store and
// mount/unmount callbacks instead would be hooks again under another name, and a model of our own to
// learn. One base class serves both kinds, so the tracking is written once; reactive() is the short
// form for a component that is only a view.
import { Component, type ComponentChild, type ComponentClass, type FunctionComponent, type RenderableProps } from 'preact';
import { effect } from '@preact/signals-core';

/** A class component whose `view` is tracked: write `view` where a Preact class writes `render`. */
export abstract class Reactive<P = object> extends Component<P> {
  // Declared only (undefined until the first render): no class field is emitted for it.
  declare private stop?: () => void;

  abstract view(props: RenderableProps<P>): ComponentChild;

  override render(props: RenderableProps<P>): ComponentChild {
    this.stop?.();
    // Undefined until the first run: that run draws, every later one asks Preact for a new render.
    let out: ComponentChild;
    this.stop = effect(() => {
      if (out === undefined) out = this.view(props) ?? null;
      else this.forceUpdate();
    });
    return out;
  }

  // On unmount, even one before effects would have run (destroy() right after a render).
  // A subclass with unmount work of its own calls this too.
  override componentWillUnmount(): void {
    this.stop?.();
  }
}

/** A function component that re-renders when a signal it read changes. */
export const reactive = <P>(Render: FunctionComponent<P>): ComponentClass<P> =>
  class extends Reactive<P> {
    view = Render;
  };
