// Components that re-render when a signal they read changes. Each render of a wrapped component runs
// inside a signals effect, which records the signals read; the first change after that asks Preact for
// a new render (which records afresh). Public APIs only: Preact calls a function component with its
// Component instance as `this`, and @preact/signals-core's effect(). The Preact adapter package does
// the same for every component through Preact's internal hooks, for 1.2 KB gzip more.
import type { Component, FunctionComponent, RenderableProps } from 'preact';
import { useRef } from 'preact/hooks';
import { effect } from '@preact/signals-core';

export function reactive<P>(Render: FunctionComponent<P>): FunctionComponent<P> {
  return function Reactive(this: Component<P>, props: RenderableProps<P>) {
    const stop = useRef<() => void>();
    stop.current?.();
    let out: ReturnType<FunctionComponent<P>> = null;
    let rendered = false;
    stop.current = effect(() => {
      if (rendered) this.forceUpdate();
      else {
        rendered = true;
        out = Render(props);
      }
    });
    // On unmount, even one before effects would have run (destroy() right after a render).
    this.componentWillUnmount = () => stop.current?.();
    return out;
  };
}
