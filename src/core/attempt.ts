// Guarding APIs that refuse by throwing (browser storage, URL and Intl parsing).

/** `run`'s result, or undefined when it throws: for APIs that refuse (bad URL, blocked storage, unknown zone, bad JSON). */
export function attempt<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}
