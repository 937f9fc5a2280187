// `sources …`: an agent's web sources: list, add, discover pages, edit the page list, train, remove.
import { WEB_SOURCE_FAILED_STATUSES } from '../../core/spec-assumptions';
import type { WebSource, WebSourceMode } from '../../core/types';
import { integerOption, secondsOption, stringList, type Command } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { table } from '../render';
import { plain } from '../text';
import { waitFor, WAIT_OPTIONS } from '../wait';

const MODES: readonly WebSourceMode[] = ['crawl', 'sitemap', 'single'];

const statusOf = (source: WebSource): string => (source.status === undefined ? 'not trained' : plain(source.status));

/** The longest page pattern taken: a pattern names a part of a URL. */
const MAX_PATTERN_CHARS = 500;

/**
 * Whether `url` contains `pattern`, where `*` matches any run of characters and anything else matches
 * itself. The parts between stars are found in order, each as early as it can be: for a pattern matched
 * anywhere in the URL that finds a match whenever there is one, in time linear in the URL per part (a
 * regular expression of `.*` runs backtracks: 40 s over five 100 KB URLs).
 */
export function urlMatches(pattern: string, url: string): boolean {
  let from = 0;
  for (const part of pattern.split('*')) {
    const at = url.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** A page pattern from the command line, checked for length. */
function pagePattern(pattern: string): string {
  if (pattern.length > MAX_PATTERN_CHARS) throw usageError(`A page pattern is at most ${MAX_PATTERN_CHARS} characters.`);
  return pattern;
}

const list: Command = {
  name: 'sources list',
  aliases: ['sources ls'],
  summary: "List the agent's web sources with their training status.",
  args: [],
  options: {},
  usesAgent: true,
  examples: ['agent-widget sources list --agent agent_123'],
  async run(ctx) {
    const response = await ctx.client().webSources.list(ctx.agentId(), { signal: ctx.signal });
    const sources = response.webSources;
    const { out } = ctx;
    if (out.json) return out.data({ webSources: sources });
    if (sources.length === 0) {
      out.line('No web sources yet. Add one: agent-widget sources add https://www.example.com');
      return EXIT.ok;
    }
    const [header = '', ...rows] = table([
      ['ID', 'STATUS', 'MODE', 'PAGES', 'URL'],
      ...sources.map((s) => [plain(s.id), statusOf(s), plain(s.mode), `${s.discoveredUrls.length} pages`, plain(s.url)]),
    ]);
    out.line(out.colors.dim(header));
    for (const row of rows) out.line(row);
    return EXIT.ok;
  },
};

const add: Command = {
  name: 'sources add',
  summary: 'Add a website to the agent’s knowledge (then discover and train it).',
  args: ['<url>'],
  options: {
    mode: {
      type: 'string',
      value: 'crawl|sitemap|single',
      description: 'crawl follows links, sitemap reads the sitemap, single takes one page (default crawl).',
    },
    'max-pages': { type: 'string', value: 'N', description: 'At most N pages, 1 to 100 (service default 50).' },
    'max-depth': { type: 'string', value: 'N', description: 'Links followed up to N deep, 1 to 3 (service default 2).' },
  },
  usesAgent: true,
  examples: ['agent-widget sources add https://docs.example.com --mode sitemap --max-pages 80'],
  async run(ctx, [url = ''], values) {
    const mode = (values.mode ?? 'crawl') as string;
    if (!(MODES as readonly string[]).includes(mode)) throw usageError('--mode must be crawl, sitemap or single.');
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw usageError('<url> must be an absolute http(s) URL.');
    const maxPages = integerOption(values, 'max-pages', 1, 100);
    const maxDepth = integerOption(values, 'max-depth', 1, 3);
    const response = await ctx
      .client()
      .webSources.create({ agentId: ctx.agentId(), url, mode: mode as WebSourceMode, maxPages, maxDepth }, { signal: ctx.signal });
    const source = response.webSource;
    if (ctx.out.json) return ctx.out.data({ webSource: source });
    ctx.out.line(`Added web source ${plain(source.id)} (${plain(source.mode)}): ${plain(source.url)}`);
    ctx.out.line(`Next: agent-widget sources discover ${plain(source.id)}`);
    return EXIT.ok;
  },
};

const discover: Command = {
  name: 'sources discover',
  summary: "Find the pages of a web source's site (replaces its page list).",
  args: ['<id>'],
  options: {},
  usesAgent: false,
  examples: ['agent-widget sources discover ws_123'],
  async run(ctx, [id = '']) {
    const response = await ctx.client().webSources.discover(id, { signal: ctx.signal });
    const source = response.webSource;
    if (ctx.out.json) return ctx.out.data({ webSource: source, discoveredCount: source.discoveredUrls.length });
    ctx.out.line(`Found ${source.discoveredUrls.length} pages for ${plain(source.id)}:`);
    for (const { url } of source.discoveredUrls) ctx.out.line(`  ${plain(url)}`);
    ctx.out.line(`Next: agent-widget sources train ${plain(source.id)} --wait`);
    return EXIT.ok;
  },
};

const urls: Command = {
  name: 'sources urls',
  summary: "Show a web source's page list, or keep and drop pages by pattern.",
  args: ['<id>'],
  options: {
    keep: { type: 'string', multiple: true, value: 'pattern', description: 'Keep only pages whose URL matches (any of the patterns).' },
    drop: { type: 'string', multiple: true, value: 'pattern', description: 'Drop pages whose URL matches.' },
    'dry-run': { type: 'boolean', description: 'Show what would change, change nothing.' },
    yes: { type: 'boolean', short: 'y', description: 'Allow patterns that drop every page (the list is left empty).' },
  },
  usesAgent: false,
  notes: [
    'A pattern matches anywhere in the URL; * matches any run of characters. --keep applies before --drop.',
    'Patterns that would drop every page are refused (exit 2, nothing changed) unless --yes is given.',
  ],
  examples: ["agent-widget sources urls ws_123 --keep '/docs/*' --drop /careers --drop '/blog/20*'"],
  async run(ctx, [id = ''], values) {
    const keep = stringList(values.keep).map(pagePattern);
    const drop = stringList(values.drop).map(pagePattern);
    const client = ctx.client();
    const source = (await client.webSources.get(id, { signal: ctx.signal })).webSource;
    const { out } = ctx;
    const editing = keep.length > 0 || drop.length > 0;
    if (!editing) {
      if (out.json) return out.data({ webSource: source });
      out.line(`${source.discoveredUrls.length} pages in ${plain(source.id)}:`);
      for (const { url } of source.discoveredUrls) out.line(`  ${plain(url)}`);
      return EXIT.ok;
    }
    const kept = source.discoveredUrls.filter(
      ({ url }) =>
        (keep.length === 0 || keep.some((pattern) => urlMatches(pattern, url))) && !drop.some((pattern) => urlMatches(pattern, url)),
    );
    const dropped = source.discoveredUrls.filter((u) => !kept.includes(u));
    const dryRun = values['dry-run'] === true;
    // An empty list is almost always a pattern that matched nothing (a typo, a missing *), not the goal.
    if (kept.length === 0 && dropped.length > 0 && !dryRun && values.yes !== true)
      throw usageError(
        `These patterns would drop all ${dropped.length} pages of ${plain(source.id)} and leave its list empty; nothing was changed. Check them with --dry-run, or pass --yes to empty the list.`,
      );
    const updated = dryRun || dropped.length === 0 ? source : (await client.webSources.update(id, kept, { signal: ctx.signal })).webSource;
    if (out.json) return out.data({ webSource: updated, kept: kept.map((u) => u.url), dropped: dropped.map((u) => u.url), dryRun });
    for (const { url } of dropped) out.line(`  ${out.colors.red('-')} ${plain(url)}`);
    const verb = dryRun ? 'Would keep' : 'Kept';
    out.line(
      `${verb} ${kept.length} of ${source.discoveredUrls.length} pages; ${dropped.length} dropped${dryRun ? ' (dry run: nothing changed)' : ''}.`,
    );
    return EXIT.ok;
  },
};

const train: Command = {
  name: 'sources train',
  summary: 'Train the agent on a web source: scraping, chunking, completed.',
  args: ['<id>'],
  options: WAIT_OPTIONS,
  usesAgent: false,
  notes: ['With --wait the exit code says how training ended (0 completed, 1 failed, 7 timed out).'],
  examples: ['agent-widget sources train ws_123 --wait --timeout 300'],
  async run(ctx, [id = ''], values) {
    ctx.progress.sourceId = id;
    const timeoutMs = secondsOption(values, 'timeout', 600, 1) * 1000;
    const intervalMs = secondsOption(values, 'interval', 2, 0.05) * 1000;
    const client = ctx.client();
    const started = await client.webSources.train(id, { signal: ctx.signal });
    const source = started.webSource;
    ctx.progress.callId = started.callId;
    if (source.status !== undefined) ctx.progress.status = plain(source.status);
    const label = `Web source ${plain(source.id)}`;
    if (values.wait !== true) {
      if (ctx.out.json) return ctx.out.data({ webSource: source, callId: started.callId });
      ctx.out.line(
        `Training started for ${plain(source.id)} (${statusOf(source)}). Follow it: agent-widget sources status ${plain(source.id)} --wait`,
      );
      return EXIT.ok;
    }
    const waited = await waitFor(
      ctx,
      { label, work: 'training', wait: (options) => client.webSources.waitUntilTrained(id, options) },
      { timeoutMs, intervalMs },
    );
    if (ctx.out.json)
      return ctx.out.data({ webSource: waited.result, callId: started.callId, elapsedMs: waited.elapsedMs, stages: waited.stages });
    ctx.out.line(`${label} is trained.`);
    return EXIT.ok;
  },
};

const remove: Command = {
  name: 'sources remove',
  aliases: ['sources rm'],
  summary: 'Delete a web source and its knowledge from the agent (permanent).',
  args: ['<id>'],
  options: { yes: { type: 'boolean', short: 'y', description: 'Do not ask for confirmation (required when not on a terminal).' } },
  usesAgent: false,
  examples: ['agent-widget sources remove ws_123 --yes'],
  async run(ctx, [id = ''], values) {
    if (values.yes !== true) {
      const answer = await ctx.confirm(
        `Delete web source ${plain(id)} and remove its knowledge from the agent? This cannot be undone. [y/N] `,
      );
      if (answer === undefined) throw usageError(`Refusing to delete web source ${plain(id)} without confirmation; pass --yes.`);
      if (!answer) throw new CliError('Nothing was deleted.', 'declined');
    }
    await ctx.client().webSources.delete(id, { signal: ctx.signal });
    if (ctx.out.json) return ctx.out.data({ success: true, deleted: id });
    ctx.out.line(`Deleted web source ${plain(id)}.`);
    return EXIT.ok;
  },
};

/** Watches training without starting it: following a job must never restart it. */
const status: Command = {
  name: 'sources status',
  summary: "Show a web source's training status; with --wait, follow it until it ends (it is not started again).",
  args: ['<id>'],
  options: WAIT_OPTIONS,
  usesAgent: false,
  notes: ['Exit code 1 when training failed; with --wait, 7 when --timeout passed first.'],
  examples: ['agent-widget sources status ws_123 --wait'],
  async run(ctx, [id = ''], values) {
    ctx.progress.sourceId = id;
    const client = ctx.client();
    const { out } = ctx;
    if (values.wait === true) {
      const timeoutMs = secondsOption(values, 'timeout', 600, 1) * 1000;
      const intervalMs = secondsOption(values, 'interval', 2, 0.05) * 1000;
      const label = `Web source ${plain(id)}`;
      const waited = await waitFor(
        ctx,
        { label, work: 'training', wait: (options) => client.webSources.waitUntilTrained(id, options) },
        { timeoutMs, intervalMs },
      );
      if (out.json) return out.data({ webSource: waited.result, elapsedMs: waited.elapsedMs, stages: waited.stages });
      out.line(`${label} is trained.`);
      return EXIT.ok;
    }
    const source = (await client.webSources.get(id, { signal: ctx.signal })).webSource;
    if (out.json) out.data({ webSource: source });
    else out.line(`Web source ${plain(source.id)}: ${statusOf(source)}`);
    if (!WEB_SOURCE_FAILED_STATUSES.includes(source.status ?? '')) return EXIT.ok;
    out.note(`Web source ${plain(source.id)} failed: training ended in ${statusOf(source)}.`);
    return EXIT.failed;
  },
};

export const sourceCommands: Command[] = [list, add, discover, urls, train, status, remove];
