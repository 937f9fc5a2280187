// The pieces the e2e tests rely on, in isolation: making service text safe, and drawing.
import { describe, expect, it } from 'vitest';
import { urlMatches } from '../../src/cli/commands/sources';
import { bar, fitSeries, formatBytes, formatElapsed, table } from '../../src/cli/render';
import { plain, redact, safeJson, truncate } from '../../src/cli/text';

describe('service text', () => {
  it('drops C0/C1 controls, escape sequences and bidi overrides, keeping the words on one line', () => {
    expect(plain('a\u001b[31mred\u001b[0m\tb\r\nc\u009b2J\u202eevil\u2066x\u0007')).toBe('a[31mred[0m b c2Jevilx');
  });

  it('hides the exact key and anything key-shaped', () => {
    const key = 'sk_live_abcdefghijklmnop_1234';
    expect(redact(`bad ${key}, try sk_live_other_key`, key)).toBe('bad sk_live_[redacted], try sk_live_[redacted]');
    expect(redact('the prefix sk_live_ alone is fine', key)).toBe('the prefix sk_live_ alone is fine');
  });

  it('escapes in JSON what JSON.stringify lets through, so the value survives and the bytes are inert', () => {
    const value = { q: 'x\u001b\u009b\u202e\u2028y' };
    const text = safeJson(value);
    expect(text).not.toMatch(/[\u001b\u009b\u202e\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('truncates by characters, not UTF-16 units', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncate('short', 10)).toBe('short');
  });
});

describe('drawing', () => {
  it('draws bars in eighths, always showing a non-zero value', () => {
    expect(bar(10, 10, 4)).toBe('████');
    expect(bar(5, 10, 3)).toBe('█▌');
    expect(bar(1, 1000, 10)).toBe('▏');
    expect(bar(0, 10, 10)).toBe('');
  });

  it('sums long periods into buckets of whole days to fit the width', () => {
    expect(fitSeries([1, 2, 3], 10)).toEqual({ values: [1, 2, 3], daysPerPoint: 1 });
    expect(fitSeries([1, 1, 1, 1, 1, 1, 1], 3)).toEqual({ values: [3, 3, 1], daysPerPoint: 3 });
  });

  it('aligns columns except the last', () => {
    expect(
      table([
        ['ID', 'URL'],
        ['ws_1234', 'https://x'],
      ]),
    ).toEqual(['ID       URL', 'ws_1234  https://x']);
  });

  it('formats sizes and durations', () => {
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MiB');
    expect(formatBytes(5_000_000)).toBe('4.8 MiB');
    expect(formatElapsed(65_000)).toBe('1m 05s');
    expect(formatElapsed(3_720_000)).toBe('1h 02m');
  });
});

describe('page patterns', () => {
  it('match anywhere in the URL, with * for any run of characters, and nothing else special', () => {
    expect(urlMatches('/blog/*', 'https://x.com/blog/a')).toBe(true);
    expect(urlMatches('/blog/*', 'https://x.com/blog')).toBe(false);
    expect(urlMatches('a.b', 'https://axb.com')).toBe(false);
    expect(urlMatches('?page=', 'https://x.com/list?page=2')).toBe(true);
    expect(urlMatches('/docs/*/v2*', 'https://x.com/docs/api/v1/v2/intro')).toBe(true);
    expect(urlMatches('*.pdf', 'https://x.com/a.pdf.html')).toBe(true);
    expect(urlMatches('/a*b*c', 'https://x.com/a-c-b')).toBe(false);
  });

  it('take time in proportion to the URL, whatever the stars: no backtracking', () => {
    // Five URLs of 100 KB that almost match a three-star pattern: a regular expression of .* runs took seconds.
    const urls = Array.from({ length: 5 }, (_, i) => `https://x.com/${'a/'.repeat(50_000)}${i}`);
    const started = performance.now();
    for (const url of urls) {
      expect(urlMatches('*.pdf', url)).toBe(false);
      expect(urlMatches('/a*/a*/a*b', url)).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(200);
  });
});
