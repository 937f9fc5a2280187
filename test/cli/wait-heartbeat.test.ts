// In CI and pipes a long stage gets a `still …` line every 30 s, so the log never looks stuck; on the
// fake clock, so 100 s pass at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutput } from '../../src/cli/output';
import { waitFor } from '../../src/cli/wait';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-23T15:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('waitFor in CI', () => {
  it('says "still <stage> after N" every 30 s of silence, counted again from each new stage', async () => {
    const lines: string[] = [];
    const out = createOutput(
      { stdout: { write: () => true }, stderr: { write: (text: string) => lines.push(text) }, env: { CI: 'true' } },
      false,
    );
    const waited = waitFor(
      { out, signal: new AbortController().signal, progress: {} },
      {
        label: 'Web source ws_1',
        work: 'training',
        wait: ({ onProgress }) =>
          new Promise<string>((resolve) => {
            onProgress?.('scraping');
            setTimeout(() => onProgress?.('chunking'), 45_000);
            setTimeout(() => {
              onProgress?.('completed');
              resolve('done');
            }, 100_000);
          }),
      },
      { timeoutMs: 600_000, intervalMs: 2000 },
    );
    await vi.advanceTimersByTimeAsync(100_000);
    await expect(waited).resolves.toMatchObject({ result: 'done', elapsedMs: 100_000 });
    expect(lines.join('')).toBe(
      [
        'Web source ws_1: scraping (0s)',
        'Web source ws_1: still scraping after 30s',
        'Web source ws_1: chunking (45s)',
        'Web source ws_1: still chunking after 1m 15s',
        'Web source ws_1: completed (1m 40s)',
        '',
      ].join('\n'),
    );
    // Nothing is left to fire once the wait is over.
    expect(vi.getTimerCount()).toBe(0);
  });
});
