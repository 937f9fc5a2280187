// Adding a listener and the one way to take it off again.

/** Adds `listener` for `type` on `target`; the returned function removes it. */
export const listen = <E extends Event>(
  target: EventTarget,
  type: string,
  listener: (event: E) => void,
  options?: AddEventListenerOptions,
): (() => void) => {
  // The caller names the event type that `type` dispatches.
  target.addEventListener(type, listener as EventListener, options);
  return () => target.removeEventListener(type, listener as EventListener, options);
};
