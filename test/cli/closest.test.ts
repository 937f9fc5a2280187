// Typo suggestions: the nearest name by edit distance, only when near enough to be a slip.
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/cli/closest';

describe('closest', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('sources', 'sources')).toBe(0);
    expect(editDistance('sorces', 'sources')).toBe(1);
    expect(editDistance('wiat', 'wait')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the nearest name for a slip, and nothing for a different word', () => {
    const names = ['sources', 'documents', 'analytics', 'usage', 'credits', 'limits', 'login', 'logout', 'whoami', 'help'];
    expect(closest('sorces', names)).toBe('sources');
    expect(closest('Usgae', names)).toBe('usage');
    expect(closest('logn', names)).toBe('login');
    expect(closest('deploy', names)).toBeUndefined();
    // Two edits in a two-letter word is another word, not a typo.
    expect(closest('fly', ['ls', 'rm'])).toBeUndefined();
  });
});
