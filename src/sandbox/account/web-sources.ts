// Web sources: create (limits from spec §8), list and get (assumed paths), edit the discovered
// list, discover, train (status advances scraping -> chunking -> completed with the clock), delete.
// Sandbox conventions: status is absent until training starts; PATCH accepts at most maxPages URLs;
// discover finds deterministic same-origin pages (single: the URL itself; crawl: 4 per depth level;
// sitemap: the whole list), capped at maxPages.
import { assumedPaths } from '../../core/spec-assumptions';
import type { DiscoveredUrl, WebSource, WebSourceMode } from '../../core/types';
import { authorizeAgent } from '../auth';
import { integerInRange, isRecordValue, queryFields, readJsonObject, requireHttpUrl, requireString } from '../input';
import { stageAt } from '../progress';
import { newId } from '../random';
import { badRequest, json, notFound } from '../responses';
import { authedRoute, pathPattern, type AuthedContext, type Route } from '../router';
import type { SandboxState, WebSourceRecord } from '../state';

export const MAX_WEB_SOURCES_PER_AGENT = 10;
const MODES: readonly WebSourceMode[] = ['crawl', 'sitemap', 'single'];
const TRAINING_STAGES = ['scraping', 'chunking', 'completed'] as const;
const SITE_PAGES = [
  '/',
  '/about',
  '/services',
  '/pricing',
  '/contact',
  '/team',
  '/faq',
  '/blog',
  '/blog/first-visit',
  '/blog/back-pain',
  '/blog/running-injuries',
  '/careers',
];
const PAGES_PER_DEPTH = 4;
const NOT_FOUND = 'Web source not found.';

function view(state: SandboxState, record: WebSourceRecord, nowMs: number): WebSource {
  const source: WebSource = { ...record.source, discoveredUrls: record.source.discoveredUrls.map((d) => ({ ...d })) };
  if (record.trainingStartedAt !== undefined) source.status = stageAt(TRAINING_STAGES, record.trainingStartedAt, nowMs, state.stageMs);
  return source;
}

/** The web source `params.id` when the caller may reach its agent; 404 otherwise. */
function ownedSource({ state, caller, params }: AuthedContext): WebSourceRecord {
  const record = state.webSources.get(params.id ?? '');
  if (!record) throw notFound(NOT_FOUND);
  authorizeAgent(state, caller, record.source.agentId, NOT_FOUND);
  return record;
}

function discover(source: WebSource): DiscoveredUrl[] {
  if (source.mode === 'single') return [{ url: source.url }];
  const origin = new URL(source.url).origin;
  const found = source.mode === 'crawl' ? PAGES_PER_DEPTH * source.maxDepth : SITE_PAGES.length;
  const count = Math.min(source.maxPages, found);
  return SITE_PAGES.slice(0, count).map((path) => ({ url: origin + path }));
}

const respond = (state: SandboxState, record: WebSourceRecord, nowMs: number, extra: object = {}): Response =>
  json({ success: true, webSource: view(state, record, nowMs), ...extra });

export const webSourceRoutes: Route[] = [
  authedRoute('POST', '/web-sources', async ({ request, state, caller, now }) => {
    const body = await readJsonObject(request);
    const agent = authorizeAgent(state, caller, requireString(body, 'agentId'));
    const url = requireHttpUrl(body.url, 'url');
    const mode = MODES.find((m) => m === body.mode);
    if (!mode) throw badRequest(`mode must be one of ${MODES.join(', ')}.`);
    const maxPages = integerInRange(body, 'maxPages', 1, 100, 50);
    const maxDepth = integerInRange(body, 'maxDepth', 1, 3, 2);
    const count = [...state.webSources.values()].filter((r) => r.source.agentId === agent.id).length;
    if (count >= MAX_WEB_SOURCES_PER_AGENT)
      throw badRequest(`An agent can have at most ${MAX_WEB_SOURCES_PER_AGENT} web sources.`, 'limit_reached');
    const record: WebSourceRecord = {
      source: {
        id: newId(state.random, 'ws'),
        agentId: agent.id,
        url: url.href,
        mode,
        maxPages,
        maxDepth,
        discoveredUrls: [],
        createdAt: now.toISOString(),
      },
    };
    state.webSources.set(record.source.id, record);
    return respond(state, record, now.getTime());
  }),

  authedRoute('GET', assumedPaths.listWebSources, async ({ url, state, caller, now }) => {
    const agent = authorizeAgent(state, caller, requireString(queryFields(url), 'agentId'));
    const webSources = [...state.webSources.values()]
      .filter((r) => r.source.agentId === agent.id)
      .map((r) => view(state, r, now.getTime()));
    return json({ success: true, webSources });
  }),

  authedRoute('GET', pathPattern(assumedPaths.getWebSource), async (ctx) => respond(ctx.state, ownedSource(ctx), ctx.now.getTime())),

  authedRoute('PATCH', '/web-sources/:id', async (ctx) => {
    const record = ownedSource(ctx);
    const body = await readJsonObject(ctx.request);
    const list = body.discoveredUrls;
    if (!Array.isArray(list)) throw badRequest('discoveredUrls is required (an array of { url }).');
    if (list.length > record.source.maxPages)
      throw badRequest(`discoveredUrls can hold at most maxPages (${record.source.maxPages}) entries.`);
    record.source.discoveredUrls = list.map((item: unknown, i) => ({
      url: requireHttpUrl(isRecordValue(item) ? item.url : undefined, `discoveredUrls[${i}].url`).href,
    }));
    return respond(ctx.state, record, ctx.now.getTime());
  }),

  authedRoute('POST', '/web-sources/:id/discover', async (ctx) => {
    const record = ownedSource(ctx);
    record.source.discoveredUrls = discover(record.source);
    return respond(ctx.state, record, ctx.now.getTime(), { discoveredCount: record.source.discoveredUrls.length });
  }),

  authedRoute('POST', '/web-sources/:id/train', async (ctx) => {
    const record = ownedSource(ctx);
    record.trainingStartedAt = ctx.now.getTime();
    return respond(ctx.state, record, ctx.now.getTime(), { callId: newId(ctx.state.random, 'call') });
  }),

  authedRoute('DELETE', '/web-sources/:id', async (ctx) => {
    const record = ownedSource(ctx);
    ctx.state.webSources.delete(record.source.id);
    return json({ success: true });
  }),
];
