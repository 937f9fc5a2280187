// Types for size-breakdown.mjs (plain JS so `node test/bench/run.mjs` can import it without a compiler).

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface ModuleSize {
  /** Project-relative path, query stripped. */
  id: string;
  group: string;
  /** Bytes after tree-shaking, before minifying. */
  rendered: number;
  /** Bytes once minified on its own (an estimate of its part of the bundle). */
  minified: number;
}

export interface GroupSize {
  name: string;
  modules: number;
  rendered: number;
  minified: number;
  /** Share of the minified bytes, 0..1. */
  share: number;
  /** Gzip bytes saved if the group's modules were left out. */
  gzipSaved: number;
}

export interface AreaSize extends GroupSize {
  /** The budgeted maximum share, 0..1. */
  limit: number;
}

export interface Breakdown {
  code: string;
  total: Sizes;
  /** Sum of the modules' minified estimates; compare with total.raw. */
  estimated: number;
  modules: ModuleSize[];
  groups: GroupSize[];
  areas: AreaSize[];
}

export declare const AREAS: Record<string, { limit: number; test: (path: string) => boolean }>;
export declare function compressedSizes(code: string | Uint8Array): Sizes;
export declare function groupOf(id: string, root: string): string;
/** The environments of vite.config.ts that build a browser file of their own. */
export type BrowserFile = 'widget' | 'embed' | 'panel';

export declare function buildBrowserFile(options: {
  root: string;
  environment?: BrowserFile;
  minify?: boolean;
  sourcemap?: boolean;
}): Promise<{ code: string; map?: { sources: string[]; mappings: string } | null }>;
export declare function sizeBreakdown(options: { root: string; environment?: BrowserFile }): Promise<Breakdown>;
