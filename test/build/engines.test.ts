// `npm ci` on the oldest Node we build on prints no EBADENGINE warning: every package the lock file
// installs accepts it. A release that drops Node 20 fails here with its name, before an owner sees the
// warning (docs/development.md, Engines, says what is pinned and why).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } };

/** The oldest Node the tools accept (Vite 8 needs 20.19), inside the range the package declares. */
const OLDEST_NODE = '20.19.0';

describe('engines', () => {
  test('the package declares Node 20 and the oldest build Node is inside it', () => {
    expect(manifest.engines.node).toBe('>=20');
    expect(semver.satisfies(OLDEST_NODE, manifest.engines.node)).toBe(true);
  });

  test(`every locked package accepts Node ${OLDEST_NODE}`, () => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      // An old array form of engines is ignored by npm, as here.
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || range === undefined) return [];
      return semver.satisfies(OLDEST_NODE, range)
        ? []
        : [`${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants ${range}`];
    });
    expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
    expect(refusing).toEqual([]);
  });
});
