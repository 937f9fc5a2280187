// Filling the dictionary's strings.

/** "{name}" placeholders in dictionary strings. Values are inserted as text, never markup. */
export function fmt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}
