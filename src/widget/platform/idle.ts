// Work for when the browser has nothing else to do.

/** Runs `task` when the browser is next idle (a task of its own where requestIdleCallback is missing); the returned function cancels it. */
export function whenIdle(win: Window, task: () => void): () => void {
  if (win.requestIdleCallback) {
    const id = win.requestIdleCallback(() => task());
    return () => win.cancelIdleCallback(id);
  }
  const id = setTimeout(task);
  return () => clearTimeout(id);
}
