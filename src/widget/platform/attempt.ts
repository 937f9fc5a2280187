// Guarding browser APIs that refuse by throwing.

/** `run`'s result, or undefined when it throws: for browser APIs that refuse (bad URL, blocked storage). */
export function attempt<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}
