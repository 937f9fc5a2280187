// The last line of each file next to widget.js (the panel, a language): a classic script hands what it
// exports to the loader that added it, through an event on its own <script> element. A classic script,
// unlike a module's import(), loads from any origin without CORS headers, and this way no global is needed.
export const CHUNK_EVENT = 'agent-widget:chunk';

export function announceChunk(exports: unknown): void {
  document.currentScript?.dispatchEvent(new CustomEvent(CHUNK_EVENT, { detail: exports }));
}
