// In CI and pipes an upload that goes on gets a plain progress line every 30 s and nothing else; on the
// fake clock, so the minutes pass at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutput } from '../../src/cli/output';
import { uploadMeter } from '../../src/cli/upload-progress';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-23T15:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('uploadMeter in CI', () => {
  it('writes a line with the bytes sent every 30 s, none for a short upload, and never on stdout', () => {
    const stderr: string[] = [];
    const stdout: string[] = [];
    const out = createOutput(
      {
        stdout: { write: (text: string) => stdout.push(text) },
        stderr: { write: (text: string) => stderr.push(text) },
        env: { CI: 'true' },
      },
      false,
    );
    const short = uploadMeter(out, 'prices.pdf', 1000);
    short.update(1000);
    vi.advanceTimersByTime(29_000);
    short.stop();
    vi.advanceTimersByTime(60_000);
    expect(stderr).toEqual([]);

    const long = uploadMeter(out, 'manual.pdf', 19 * 1024 * 1024);
    long.update(3 * 1024 * 1024);
    vi.advanceTimersByTime(30_000);
    long.update(12 * 1024 * 1024);
    vi.advanceTimersByTime(30_000);
    long.stop(true);
    vi.advanceTimersByTime(60_000);
    expect(stderr).toEqual([
      'Uploading manual.pdf: 3 MiB of 19 MiB (15%) after 30s\n',
      'Uploading manual.pdf: 12 MiB of 19 MiB (63%) after 1m 00s\n',
    ]);
    expect(long.sofar).toBe('12 MiB of 19 MiB (63%)');
    expect(stdout).toEqual([]);
  });
});
