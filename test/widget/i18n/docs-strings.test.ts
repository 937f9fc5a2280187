// The widget docs list every text key with its English text, so an owner writing data-strings can find the
// key for what they see. Generated from the dictionary: a key added, renamed or reworded fails here.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { defaultStrings } from '../../../src/widget/i18n';

/** One row as docs/widget.md writes it: pipes in the text escaped, so the plural forms stay in one cell. */
const row = ([key, text]: [string, string]) => `| \`${key}\` | ${text.replace(/\|/g, '\\|')} |`;

test('docs/widget.md "Languages" lists every key of the dictionary with its English text, in order', () => {
  const readme = readFileSync('docs/widget.md', 'utf8');
  const section = readme.slice(readme.indexOf('### Languages'), readme.indexOf('### Bundler'));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const expected = Object.entries(defaultStrings).map(row);
  if (process.env.PRINT_README_KEYS) console.log(expected.join('\n'));
  expect(rows).toEqual(expected);
});
