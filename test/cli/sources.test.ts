// `sources …` end to end: the real bin against the sandbox over HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { HAS_PTY, manualClock, runCli, sandboxEnv, serveSandbox, startCli, type Served, sandboxAdvancingOn, STAGE_MS } from './harness';

let served: Served | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The clock moves one stage on every status poll. */
const sandboxAdvancingOnPoll = (): Promise<Served> =>
  sandboxAdvancingOn((method, path) => method === 'GET' && /^\/web-sources\/[^/]+$/.test(path));

async function addSource(env: Record<string, string>, url = 'https://docs.example.com'): Promise<string> {
  const added = await runCli(['sources', 'add', url, '--mode', 'sitemap', '--max-pages', '20', '--json'], { env });
  expect(added.code).toBe(0);
  const { webSource } = JSON.parse(added.stdout) as { webSource: { id: string } };
  return webSource.id;
}

describe('agent-widget sources', () => {
  it('adds, discovers, edits the page list, lists and removes a web source', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);

    const added = await runCli(['sources', 'add', 'https://docs.example.com', '--mode', 'sitemap', '--max-pages', '20'], { env });
    expect(added.code).toBe(0);
    const id = /Added web source (\S+) \(sitemap\): https:\/\/docs\.example\.com\//.exec(added.stdout)?.[1] ?? '';
    expect(id).not.toBe('');

    const discovered = await runCli(['sources', 'discover', id], { env });
    expect(discovered.code).toBe(0);
    expect(discovered.stdout).toContain('Found 12 pages');
    expect(discovered.stdout).toContain('https://docs.example.com/careers');

    const dry = await runCli(['sources', 'urls', id, '--drop', '/careers', '--drop', '/blog/*', '--dry-run'], { env });
    expect(dry.stdout).toContain('Would keep 8 of 12 pages; 4 dropped (dry run: nothing changed).');
    const edited = await runCli(['sources', 'urls', id, '--drop', '/careers', '--drop', '/blog/*', '--json'], { env });
    expect(edited.code).toBe(0);
    const result = JSON.parse(edited.stdout) as { webSource: { discoveredUrls: { url: string }[] }; dropped: string[] };
    expect(result.dropped).toEqual([
      'https://docs.example.com/blog/first-visit',
      'https://docs.example.com/blog/back-pain',
      'https://docs.example.com/blog/running-injuries',
      'https://docs.example.com/careers',
    ]);
    expect(result.webSource.discoveredUrls.map((u) => u.url)).toContain('https://docs.example.com/blog');

    const kept = await runCli(['sources', 'urls', id, '--keep', '/about', '--keep', '/faq'], { env });
    expect(kept.stdout).toContain('Kept 2 of 8 pages; 6 dropped.');
    const shown = await runCli(['sources', 'urls', id], { env });
    expect(shown.stdout.trim().split('\n')).toEqual([
      `2 pages in ${id}:`,
      '  https://docs.example.com/about',
      '  https://docs.example.com/faq',
    ]);

    const listed = await runCli(['sources', 'list'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+not trained\\s+sitemap\\s+2 pages\\s+https://docs.example.com/`));

    const removed = await runCli(['sources', 'remove', id, '--yes'], { env });
    expect(removed).toMatchObject({ code: 0, stdout: `Deleted web source ${id}.\n` });
    expect((await runCli(['sources', 'list'], { env })).stdout).toContain('No web sources yet.');
  });

  it('trains with --wait through scraping, chunking and completed, as plain lines when not on a terminal', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await addSource(env);

    const trained = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05'], { env });
    expect(trained.code).toBe(0);
    const lines = trained.stderr.trim().split('\n');
    expect(lines.map((l) => l.replace(/ \(\d+s\)$/, ''))).toEqual([
      `Web source ${id}: scraping`,
      `Web source ${id}: chunking`,
      `Web source ${id}: completed`,
    ]);
    expect(trained.stdout).toBe(`Web source ${id} is trained.\n`);
    expect(served.requests.filter((r) => r.startsWith('GET /web-sources/'))).toHaveLength(3);
  });

  it('reports every stage with its time in --json', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const trained = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05', '--json'], { env });
    expect(trained.code).toBe(0);
    const result = JSON.parse(trained.stdout) as { webSource: { status: string }; stages: { status: string }[]; callId: string };
    expect(result.webSource.status).toBe('completed');
    expect(result.stages.map((s) => s.status)).toEqual(['scraping', 'chunking', 'completed']);
    expect(result.callId).toMatch(/\S/);
  });

  it('stops waiting at --timeout with exit 7 and leaves the training running on the service', async () => {
    const clock = manualClock();
    served = await serveSandbox({ now: clock.now, stageMs: STAGE_MS });
    const env = sandboxEnv(served);
    const id = await addSource(env);

    const waited = await runCli(['sources', 'train', id, '--wait', '--timeout', '1', '--interval', '0.1'], { env });
    expect(waited.code).toBe(7);
    expect(waited.stderr).toContain(
      `agent-widget: Web source ${id} was not done within 1s (last stage: scraping); training goes on on the service.`,
    );
    expect(served.requests.some((r) => r.startsWith('DELETE'))).toBe(false);

    clock.advance(2 * STAGE_MS);
    const listed = await runCli(['sources', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ webSources: [{ id, status: 'completed' }] });
  });

  it('training started without --wait points to sources status, which follows it without starting it again', async () => {
    const clock = manualClock();
    served = await serveSandbox({ now: clock.now, stageMs: STAGE_MS });
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const started = await runCli(['sources', 'train', id], { env });
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`Follow it: agent-widget sources status ${id} --wait`);
    // Training moves on to chunking; the status says so, and following it to the end sends no train.
    clock.advance(STAGE_MS);
    const shown = await runCli(['sources', 'status', id], { env });
    expect(shown.stdout).toBe(`Web source ${id}: chunking\n`);
    const trains = () => served?.requests.filter((r) => r === `POST /web-sources/${id}/train`).length;
    expect(trains()).toBe(1);
    const following = await startCli(['sources', 'status', id, '--wait', '--interval', '0.05', '--json'], { env });
    await following.stderrMatches(/: chunking \(\d+s\)\n/);
    clock.advance(2 * STAGE_MS);
    const followed = await following.done;
    expect(followed.code).toBe(0);
    expect(JSON.parse(followed.stdout)).toMatchObject({ webSource: { id, status: 'completed' } });
    expect(trains()).toBe(1);
  });

  it('stops waiting on Ctrl-C with exit 130, saying the training goes on', async () => {
    const clock = manualClock();
    served = await serveSandbox({ now: clock.now, stageMs: STAGE_MS });
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const cli = await startCli(['sources', 'train', id, '--wait', '--interval', '0.1'], { env });
    await cli.stderrMatches(/: scraping \(\d+s\)\n/);
    cli.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/agent-widget: Stopped waiting after \d+s; training goes on on the service\.\n$/);
    expect(served.requests.some((r) => r.startsWith('DELETE'))).toBe(false);
  });

  it.skipIf(!HAS_PTY)('draws the stage and elapsed time on one redrawn line on a terminal', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const trained = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05'], { env, tty: true });
    expect(trained.code).toBe(0);
    // On a terminal stdout and stderr are one stream: finished stages stay as ticked lines, the
    // live line is redrawn in place (cursor moves, not new lines), and the cursor is shown again.
    expect(trained.stdout).toMatch(/✔.*scraping/);
    expect(trained.stdout).toMatch(/✔.*chunking/);
    expect(trained.stdout).toMatch(new RegExp(`✔.*Web source ${id}: completed in \\d+s`));
    expect(trained.stdout).toContain('\u001B[?25l');
    expect(trained.stdout).toContain('\u001B[?25h');
    expect(trained.stdout).toContain(`Web source ${id} is trained.`);
  });

  it.skipIf(!HAS_PTY)('--no-color draws the live wait on a terminal without colours', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const trained = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05', '--no-color'], { env, tty: true });
    expect(trained.code).toBe(0);
    expect(trained.stdout).toMatch(new RegExp(`✔ Web source ${id}: completed in \\d+s`));
    // Cursor moves and line clears stay; no colour or weight (SGR 1, 2, 3x, 9x) is set.
    expect(trained.stdout).not.toMatch(/\u001b\[(1|2|3\d|9\d)(;\d+)*m/);
  });

  it('refuses to remove without --yes when not on a terminal', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const refused = await runCli(['sources', 'remove', id], { env, input: 'y\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`agent-widget: Refusing to delete web source ${id} without confirmation; pass --yes.\n`);
    expect(served.requests.some((r) => r.startsWith('DELETE'))).toBe(false);
  });

  it.skipIf(!HAS_PTY)('asks before removing on a terminal, and removes only on yes', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const id = await addSource(env);

    const declined = await runCli(['sources', 'remove', id], { env, tty: true, input: 'n\n' });
    expect(declined.stdout).toContain(`Delete web source ${id}`);
    expect(declined.stdout).toContain('Nothing was deleted.');
    expect(declined.code).toBe(1);
    expect(served.requests.some((r) => r.startsWith('DELETE'))).toBe(false);

    const confirmed = await runCli(['sources', 'remove', id], { env, tty: true, input: 'y\n' });
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain(`Deleted web source ${id}.`);
    expect(served.requests.filter((r) => r.startsWith('DELETE'))).toHaveLength(1);
  });

  it('exits 1 when the service reports the training failed', async () => {
    // The spec shows no failure state for web sources; the client treats `error` and `failed` as one.
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) =>
        request.method === 'GET' && /\/web-sources\/[^/]+$/.test(new URL(request.url).pathname)
          ? Response.json({
              success: true,
              webSource: {
                id: 'ws_1',
                agentId: 'demo-agent',
                url: 'https://x.example/',
                mode: 'single',
                maxPages: 1,
                maxDepth: 1,
                discoveredUrls: [],
                status: 'failed',
              },
            })
          : undefined,
    });
    const env = sandboxEnv(served);
    const id = await addSource(env);
    const result = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Web source ${id}: failed \\(\\d+s\\)$`)),
      `agent-widget: Web source ${id} failed: the service reports status "failed".`,
    ]);
  });

  it('refuses patterns that would empty the page list unless --yes, saying how many pages would go', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const id =
      /Added web source (\S+)/.exec(
        (await runCli(['sources', 'add', 'https://docs.example.com', '--mode', 'sitemap'], { env })).stdout,
      )?.[1] ?? '';
    expect((await runCli(['sources', 'discover', id], { env })).code).toBe(0);
    const typo = await runCli(['sources', 'urls', id, '--keep', '/dcos/*'], { env });
    expect(typo).toEqual({
      code: 2,
      stdout: '',
      stderr: `agent-widget: These patterns would drop all 12 pages of ${id} and leave its list empty; nothing was changed. Check them with --dry-run, or pass --yes to empty the list.\n`,
    });
    expect(served.requests.filter((r) => r.startsWith('PATCH'))).toEqual([]);
    expect((await runCli(['sources', 'urls', id, '--keep', '/dcos/*', '--dry-run'], { env })).stdout).toContain(
      'Would keep 0 of 12 pages; 12 dropped',
    );
    const emptied = await runCli(['sources', 'urls', id, '--drop', 'docs.example.com', '--yes'], { env });
    expect(emptied).toMatchObject({ code: 0 });
    expect(emptied.stdout).toContain('Kept 0 of 12 pages; 12 dropped.');
  });

  it('has ls and rm for list and remove, help <topic> as <topic> --help, and the documents limitation in help', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const id = /Added web source (\S+)/.exec((await runCli(['sources', 'add', 'https://docs.example.com'], { env })).stdout)?.[1] ?? '';
    expect((await runCli(['sources', 'ls'], { env })).stdout).toContain(id);
    expect(await runCli(['sources', 'rm', id, '--yes'], { env })).toMatchObject({ code: 0, stdout: `Deleted web source ${id}.\n` });

    for (const topic of [['sources'], ['sources', 'add'], ['sources', 'ls'], ['documents']]) {
      const viaHelp = await runCli(['help', ...topic]);
      expect(viaHelp).toEqual(await runCli([...topic, '--help']));
      expect(viaHelp.code).toBe(0);
    }
    expect((await runCli(['help', 'sources'])).stdout).toContain('sources list (ls)');
    expect((await runCli(['help', 'sources', 'remove'])).stdout).toContain('Also: agent-widget sources rm');
    expect((await runCli(['help', 'documents'])).stdout).toContain('The service has no way to list or delete documents');
  });

  it('says what is wrong with the command line, with exit 2 and nothing sent', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const cases: [string[], string][] = [
      [['sources', 'add', 'ftp://x'], '<url> must be an absolute http(s) URL.'],
      [['sources', 'add', 'https://x.example', '--max-pages', '500'], '--max-pages must be a whole number from 1 to 100.'],
      [['sources', 'add', 'https://x.example', '--mode', 'deep'], '--mode must be crawl, sitemap or single.'],
      [['sources', 'add'], 'Missing <url> for sources add; see agent-widget sources add --help.'],
      [
        ['sources', 'add', 'https://x.example', '--api-key', 'sk_live_x'],
        'Unknown option --api-key for sources add; see agent-widget sources add --help.',
      ],
      [['sources', 'train', 'ws_1', '--timeout'], 'Option --timeout needs a value; see agent-widget sources train --help.'],
      [['sources', 'fly'], 'Unknown command "sources fly"; see agent-widget sources --help.'],
      [['sorces', 'list'], 'Unknown command "sorces"; did you mean sources? see agent-widget --help.'],
      [['sources', 'lst'], 'Unknown command "sources lst"; did you mean sources list? see agent-widget sources --help.'],
      [['usgae'], 'Unknown command "usgae"; did you mean usage? see agent-widget --help.'],
      [['help', 'sorces'], 'Unknown command "sorces"; did you mean sources? see agent-widget --help.'],
      [
        ['sources', 'train', 'ws_1', '--wiat'],
        'Unknown option --wiat for sources train; did you mean --wait? see agent-widget sources train --help.',
      ],
      [['--json', 'usage'], 'Put the command first, e.g. agent-widget usage --json; see agent-widget --help.'],
      [
        ['sources', 'discover', 'ws_1', 'extra\u001b[2J'],
        'Unexpected argument "extra[2J" for sources discover; see agent-widget sources discover --help.',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { env });
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 2, stderr: `agent-widget: ${message}\n` });
    }
    expect(served.requests).toEqual([]);
  });
});
