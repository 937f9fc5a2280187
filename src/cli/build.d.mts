/** Builds the bin into `outDir` (default dist/) as cli.js; resolves to the file's path. */
export function buildCli(options?: { outDir?: string }): Promise<string>;
