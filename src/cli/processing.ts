// A document's processing as the documents commands start and follow it: `convert` and `upload` start it,
// `status --wait`, `convert --wait` and `upload --wait` follow it (following never starts it again).
import { secondsOption, type Context, type Values } from './command';
import { plain } from './text';
import { waitFor, type Waited } from './wait';

export interface Followed {
  status: string;
  elapsedMs: number;
  stages: Waited<unknown>['stages'];
}

/** POST /convert-document; resolves to the job's callId (also kept in the run's progress for --json errors). */
export async function startProcessing(ctx: Context, documentId: string): Promise<string> {
  ctx.progress.documentId = documentId;
  const started = await ctx.client().documents.convert(ctx.agentId(), documentId, { signal: ctx.signal });
  ctx.progress.callId = started.callId;
  return started.callId;
}

/**
 * Polls the status until processing ends, within --timeout, every --interval, showing each stage. The
 * status and stages seen so far are in the run's progress (waitFor) when the wait ends early.
 */
export async function followProcessing(ctx: Context, documentId: string, values: Values): Promise<Followed> {
  const timeoutMs = secondsOption(values, 'timeout', 600, 1) * 1000;
  const intervalMs = secondsOption(values, 'interval', 2, 0.05) * 1000;
  const client = ctx.client();
  const waited = await waitFor(
    ctx,
    {
      label: `Document ${plain(documentId)}`,
      work: 'processing',
      wait: (options) => client.documents.waitUntilProcessed(documentId, options),
    },
    { timeoutMs, intervalMs },
  );
  return { status: waited.result.status, elapsedMs: waited.elapsedMs, stages: waited.stages };
}

export const followHint = (documentId: string): string =>
  `Processing started for ${plain(documentId)}. Follow it: agent-widget documents status ${plain(documentId)} --wait`;
