// The build's lists of the files next to widget.js, as modules (vite.config.ts, chunkManifest). Chunks: in a
// build, the content-hashed panel and language files with their integrity; under `npm run dev`, the
// sources through Vite's dynamic import.
declare module 'virtual:agent-widget/chunks' {
  import type { Chunks } from '../embedding/chunks';

  /** The chunks of the script `script` (widget.js or embed.js; its folder holds them) on `win`'s page. */
  export function createChunks(win: Window, script: Element | null): Chunks;
}

declare module 'virtual:agent-widget/languages' {
  import type { ChunkFile } from '../embedding/script-files';

  /** Each built-in language's file next to the panel's (not English: built in). */
  export const languages: Readonly<Record<string, ChunkFile>>;
}
