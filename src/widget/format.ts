// Small helpers shared across the widget.

/** "{name}" placeholders in dictionary strings. Values are inserted as text, never markup. */
export function fmt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** `run`'s result, or undefined when it throws: for browser APIs that refuse (bad URL, blocked storage). */
export function attempt<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}
