// Components that re-render when a signal they read changes. Each render of a wrapped component runs
// inside a signals effect, which records the signals read; the first change after that asks Preact for
// a new render (which records afresh). Only public APIs of Preact and @preact/signals-core: the Preact
// adapter package does the same for every component through Preact's internal hooks, for 1.2 KB gzip.
import type { FunctionComponent, RenderableProps } from 'preact';
import { useEffect, useReducer, useRef } from 'preact/hooks';
import { effect } from '@preact/signals-core';

export function reactive<P>(Component: FunctionComponent<P>): FunctionComponent<P> {
  function Reactive(props: RenderableProps<P>) {
    const [, update] = useReducer((n: number) => n + 1, 0);
    const stop = useRef<() => void>();
    stop.current?.();
    let rendered = false;
    let out: ReturnType<FunctionComponent<P>> = null;
    stop.current = effect(() => {
      if (rendered) update(0);
      else {
        rendered = true;
        out = Component(props);
      }
    });
    useEffect(() => () => stop.current?.(), []);
    return out;
  }
  return Reactive;
}
