// Adding a listener and the one way to take it off again.

/** Adds `listener` for `type` on `target`; the returned function removes it. */
export function listen<E extends Event>(
  target: EventTarget,
  type: string,
  listener: (event: E) => void,
  options?: AddEventListenerOptions,
): () => void {
  // The caller names the event type that `type` dispatches.
  const handler = listener as EventListener;
  target.addEventListener(type, handler, options);
  return () => target.removeEventListener(type, handler, options);
}
