// The CI step of docs/cli.md, run as written: its `run:` line in bash, `npx agent-widget` resolving to the
// built bin installed in a throwaway project (offline), the `${{ … }}` expressions filled in.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliFile, DEMO_AGENT_ID, DEMO_API_KEY, manualClock, serveSandbox, type Served } from './harness';

const CLI_DOCS = join(__dirname, '../../docs/cli.md');

/** The yaml block after the ci-recipe marker: its env names and its run line. */
function recipe(): { env: Record<string, string>; run: string } {
  const text = readFileSync(CLI_DOCS, 'utf8');
  const block = /<!-- ci-recipe[^>]*-->\n```yaml\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('docs/cli.md has no ci-recipe yaml block');
  const env = Object.fromEntries([...block.matchAll(/^ {4}(\w+): (.+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
  const run = /^ {2}run: (.+)$/m.exec(block)?.[1];
  if (!run) throw new Error('the ci-recipe step has no run line');
  return { env, run };
}

const fill = (text: string, values: Record<string, string>): string =>
  text.replace(/\$\{\{ (?:vars|secrets)\.(\w+) \}\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${name}`);
    return value;
  });

let project = '';
let served: Served | undefined;

beforeAll(async () => {
  // A site's repository with agent-widget installed, as `npm install -D agent-widget` leaves it.
  project = mkdtempSync(join(tmpdir(), 'agent-widget-site-'));
  const pkg = join(project, 'node_modules/agent-widget');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  mkdirSync(join(project, 'node_modules/.bin'));
  copyFileSync((await cliFile()).file, join(pkg, 'dist/cli.js'));
  const { version, bin } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
    version: string;
    bin: Record<string, string>;
  };
  expect(bin).toEqual({ 'agent-widget': './dist/cli.js' });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'agent-widget', version, type: 'module', bin }));
  symlinkSync('../agent-widget/dist/cli.js', join(project, 'node_modules/.bin/agent-widget'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'docs-site', private: true, devDependencies: { 'agent-widget': version } }),
  );
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});
afterAll(async () => {
  rmSync(project, { recursive: true, force: true });
});

async function runStep(values: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const step = recipe();
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: project,
    CI: 'true',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  for (const [name, expression] of Object.entries(step.env)) env[name] = fill(expression, values);
  const child = spawn('bash', ['-e', '-c', fill(step.run, values)], { cwd: project, env });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output: output.replace(/^npm warn .*\n/gm, '') };
}

describe('docs/cli.md: the CI step that re-trains the agent', () => {
  it('passes with one line per stage when training completes, and fails the build when it cannot', async () => {
    const clock = manualClock();
    served = await serveSandbox({
      now: clock.now,
      afterRequest: (method, path) => {
        if (method === 'GET' && /^\/web-sources\/[^/]+$/.test(path)) clock.advance(2000);
      },
    });
    const created = await fetch(`${served.baseUrl}/web-sources`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ agentId: DEMO_AGENT_ID, url: 'https://docs.example.com', mode: 'sitemap' }),
    });
    const { webSource } = (await created.json()) as { webSource: { id: string } };
    const values = {
      AGENT_API_KEY: DEMO_API_KEY,
      AGENT_BASE_URL: served.baseUrl,
      AGENT_ID: DEMO_AGENT_ID,
      DOCS_WEB_SOURCE_ID: webSource.id,
    };

    const ok = await runStep(values);
    expect(ok.code).toBe(0);
    expect(
      ok.output
        .replace(/ \(\d+s\)/g, '')
        .trim()
        .split('\n'),
    ).toEqual([
      `Web source ${webSource.id}: scraping`,
      `Web source ${webSource.id}: chunking`,
      `Web source ${webSource.id}: completed`,
      `Web source ${webSource.id} is trained.`,
    ]);

    const missing = await runStep({ ...values, DOCS_WEB_SOURCE_ID: 'ws_deleted' });
    expect(missing).toEqual({ code: 4, output: 'agent-widget: Not found (404: Web source not found).\n' });

    const revoked = await runStep({ ...values, AGENT_API_KEY: 'sk_live_revoked_key_0000000000' });
    expect(revoked.code).toBe(3);
    expect(revoked.output).not.toContain('sk_live_revoked');
  }, 30_000); // the step polls at the CLI's default 2 s interval, as it would in CI
});
