// Where the panel and the languages come from. The loader asks for them on the visitor's first intent or
// when the browser is idle; each way of embedding supplies its own source: the script tag fetches files
// from its own folder (./script-files), bundler users get their bundler's dynamic import (../entries/bundler).
import type { PanelModule } from '../panel/contract';

export interface Chunks {
  /** The panel's code: at once when it is already in memory, else a promise that rejects (with a ChunkError) when it cannot load. */
  panel(): PanelModule | Promise<PanelModule>;
  /** A built-in language's dictionary as it arrived (the panel checks it), undefined when it cannot load. None: only English. */
  language?(code: string): Promise<unknown>;
}

/** A file next to widget.js that did not load: the URL and, as far as the browser lets us know, why. */
export class ChunkError extends Error {
  constructor(
    readonly url: string,
    /** In words, for the owner's console: offline, the CSP, the server. */
    readonly reason: string,
  ) {
    super(`${url} could not be loaded: ${reason}`);
    this.name = 'ChunkError';
  }
}
