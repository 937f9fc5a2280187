// `documents upload <file> [<file> …]`: every file checked here first (readable, PDF or DOCX, size), the
// plan's storage asked before any byte goes, then each file streamed in turn with its progress and its
// processing started; with --wait each is followed once all are sent.
import { openAsBlob } from 'node:fs';
import { dirname } from 'node:path';
import { ApiError, DEFAULT_TIMEOUT_MS } from '../../core/http';
import { MAX_UPLOAD_BYTES } from '../../core/spec-assumptions';
import type { LimitsResponse } from '../../core/types';
import { DEFAULT_UPLOAD_BYTES_PER_SECOND, uploadAllowanceMs, type AgentClient } from '../../server/agent-client';
import { secondsOption, type Command, type Context, type Values } from '../command';
import { CliError, EXIT, usageError, type ExitCode } from '../errors';
import { errorBody, type FileProgress, type Progress } from '../json-error';
import { followHint, followProcessing, startProcessing } from '../processing';
import { formatBytes, formatElapsed } from '../render';
import { plain } from '../text';
import { checkUploadFile, type UploadFile } from '../upload-files';
import { uploadMeter } from '../upload-progress';
import { readUploadRecord, type UploadRecord } from '../upload-record';
import { WAIT_OPTIONS } from '../wait';

/** What --json says of one file. */
type FileResult = FileProgress;

/** After these, the next file would fail the same way (key, agent, service, rate limit, Ctrl-C): the rest is not sent. */
const STOPS_THE_REST: readonly ExitCode[] = [EXIT.auth, EXIT.notFound, EXIT.rateLimited, EXIT.unavailable, EXIT.interrupted];

const withoutPeriod = (text: string): string => (text.endsWith('.') ? text.slice(0, -1) : text);

/** The JSON document: one entry per file, and for one file its fields at the top too (as before several were taken). */
function report(results: FileResult[]): Progress {
  const [only] = results;
  if (results.length !== 1 || only === undefined) return { documents: results };
  const { file, uploaded, size, documentId, callId, status, elapsedMs, stages } = only;
  return { file, uploaded, size, documentId, callId, status, elapsedMs, stages, documents: results };
}

/**
 * The run's progress (what the --json error document carries) becomes the files' report: with several
 * files, the last wait's status is one file's, not the command's.
 */
function failWith(ctx: Context, error: CliError, results: FileResult[]): CliError {
  for (const key of Object.keys(ctx.progress) as (keyof Progress)[]) delete ctx.progress[key];
  Object.assign(ctx.progress, report(results));
  return error;
}

/** All the files' problems in one message, before anything is sent. */
async function checkFiles(paths: string[]): Promise<UploadFile[]> {
  const checked = await Promise.all(paths.map(checkUploadFile));
  const problems = checked.flatMap((c) => (c.ok ? [] : [c.problem]));
  if (problems.length === 0) return checked.flatMap((c) => (c.ok ? [c.file] : []));
  const message =
    problems.length === 1 && paths.length === 1
      ? (problems[0] ?? '')
      : `Nothing was sent; ${problems.length} of ${paths.length} files cannot be uploaded:\n  ${problems.join('\n  ')}`;
  throw usageError(message);
}

/** Asks the plan whether the files fit; a refusal ends the command before any byte goes, a failed question is said and passed. */
async function checkStorage(ctx: Context, client: AgentClient, files: UploadFile[]): Promise<void> {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  let answer: LimitsResponse;
  try {
    answer = await client.subscriptions.limits({ check: 'storage', bytes }, { signal: ctx.signal });
  } catch (error) {
    const failure = ctx.explain(error);
    if (failure.exitCode === EXIT.interrupted) throw failure;
    ctx.out.note(
      `Could not ask the service whether ${formatBytes(bytes)} fit the plan's storage (${withoutPeriod(failure.message)}); uploading anyway.`,
    );
    return;
  }
  if (!answer.allowed)
    throw new CliError(
      `Nothing was sent: ${formatBytes(bytes)} do not fit the plan's storage (${formatBytes(answer.remaining)} of ${formatBytes(answer.limit)} left). Free some space or upgrade the plan, then try again.`,
      'failed',
    );
}

/** The upload's deadline: its allowance for its size, or --timeout when that is longer. */
function deadlineMs(client: AgentClient, file: UploadFile, values: Values): number {
  const allowance = client.documents.uploadDeadlineMs(file.size);
  return values.timeout === undefined ? allowance : Math.max(allowance, secondsOption(values, 'timeout', 600, 1) * 1000);
}

/** Streams one file with its progress; resolves to its documentId. */
async function uploadFile(ctx: Context, client: AgentClient, file: UploadFile, values: Values): Promise<string> {
  const timeoutMs = deadlineMs(client, file, values);
  const meter = uploadMeter(ctx.out, file.name, file.size);
  let failed = true;
  try {
    const blob = await openAsBlob(file.path, { type: file.type });
    const uploaded = await client.documents.upload(ctx.agentId(), blob, file.name, {
      signal: ctx.signal,
      timeoutMs,
      onProgress: (sent) => meter.update(sent),
    });
    if (uploaded.documentId === '')
      throw new CliError('The service sent an answer this CLI does not understand (no documentId).', 'invalid_answer');
    failed = false;
    return uploaded.documentId;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'timeout')
      throw new CliError(
        `The upload of ${plain(file.name)} was not answered within ${formatElapsed(timeoutMs)}, with ${meter.sofar} sent; on a slow link allow more with --timeout <seconds>.`,
        'request_timeout',
      );
    if (error instanceof ApiError && error.kind === 'aborted')
      throw new CliError(`Stopped while uploading ${plain(file.name)}, with ${meter.sofar} sent.`, 'interrupted');
    throw error;
  } finally {
    meter.stop(failed);
  }
}

/** Says when this computer uploaded the same name to this agent before (the service cannot be asked). */
function warnIfUploadedBefore(ctx: Context, record: UploadRecord, agentId: string, file: UploadFile): void {
  const earlier = record.earlier(agentId, file.name);
  if (earlier === undefined) return;
  ctx.out.note(
    `Warning: ${plain(file.name)} was uploaded to agent ${plain(agentId)} before, as document ${plain(earlier.documentId)} on ${earlier.uploadedAt.slice(0, 10)} (as this computer's record says: the service has no list of documents); it will be a second document.`,
  );
}

/** Uploads and starts processing each file in turn; resolves to the first failure, if any. */
async function sendAll(
  ctx: Context,
  files: UploadFile[],
  results: FileResult[],
  values: Values,
  record: UploadRecord,
): Promise<CliError | undefined> {
  const client = ctx.client();
  const agentId = ctx.agentId();
  let first: CliError | undefined;
  for (const [index, file] of files.entries()) {
    const result = results[index];
    if (result === undefined) continue;
    if (first !== undefined && STOPS_THE_REST.includes(first.exitCode)) {
      result.notSent = true;
      continue;
    }
    try {
      warnIfUploadedBefore(ctx, record, agentId, file);
      const documentId = await uploadFile(ctx, client, file, values);
      result.documentId = documentId;
      const unrecorded = await record.add(agentId, file.name, { documentId, uploadedAt: new Date().toISOString() });
      if (unrecorded !== undefined) ctx.out.note(`Could not note the upload in ${record.file} (${unrecorded}).`);
      if (!ctx.out.json) ctx.out.line(`Uploaded ${plain(file.name)} as document ${plain(documentId)}.`);
      result.callId = await startProcessing(ctx, documentId);
      if (!ctx.out.json && values.wait !== true) ctx.out.line(followHint(documentId));
    } catch (error) {
      first ??= fileFailed(ctx, error, result, files.length);
    }
  }
  return first;
}

/** Notes the failure in the file's result (and on stderr when there are several); returns it. */
function fileFailed(ctx: Context, error: unknown, result: FileResult, count: number): CliError {
  const failure = ctx.explain(error);
  result.error = { ...errorBody(failure), exitCode: failure.exitCode };
  if (count > 1) ctx.out.note(`agent-widget: ${plain(result.uploaded)}: ${failure.message}`);
  return failure;
}

/** With --wait: follows each started document in turn (they are processed at the same time on the service). */
async function followAll(
  ctx: Context,
  results: FileResult[],
  values: Values,
  earlier: CliError | undefined,
): Promise<CliError | undefined> {
  let first = earlier;
  for (const result of results) {
    if (result.callId === undefined || result.documentId === undefined) continue;
    if (first !== undefined && STOPS_THE_REST.includes(first.exitCode)) break;
    // This file's wait writes its own status and stages into the run's progress.
    delete ctx.progress.status;
    delete ctx.progress.stages;
    try {
      Object.assign(result, await followProcessing(ctx, result.documentId, values));
      if (!ctx.out.json) ctx.out.line(`Document ${plain(result.documentId)} is processed.`);
    } catch (error) {
      // The wait ended early (error, --timeout, Ctrl-C): the status and stages it saw stay in the result.
      const { status, stages } = ctx.progress;
      Object.assign(result, { ...(status !== undefined && { status }), ...(stages !== undefined && { stages }) });
      first ??= fileFailed(ctx, error, result, results.length);
    }
  }
  return first;
}

export const upload: Command = {
  name: 'documents upload',
  summary: 'Upload PDF or DOCX files to the agent and start processing them.',
  args: ['<file>'],
  repeatsLast: true,
  options: {
    ...WAIT_OPTIONS,
    timeout: {
      type: 'string',
      value: 'seconds',
      description:
        "Each file's upload may take this long if that is more than its own allowance; with --wait, give up waiting after this long (default 600).",
    },
  },
  usesAgent: true,
  notes: [
    `Every file is checked first (readable, a PDF or DOCX by name and first bytes, at most ${formatBytes(MAX_UPLOAD_BYTES)}, the assumed limit); all`,
    'problems are said together and nothing is sent (exit 2). Then the plan is asked whether the files fit its storage (exit 1 when not).',
    `Files go one after another, streamed, with their progress on a terminal. Each upload may take ${DEFAULT_TIMEOUT_MS / 1000} s plus its size at`,
    `${(DEFAULT_UPLOAD_BYTES_PER_SECOND * 8) / 1_000_000} Mbit/s (e.g. ${formatElapsed(uploadAllowanceMs(19_000_000))} for 19 MB), or --timeout when longer. A file the service refuses does not stop`,
    "the others; the exit code is the first failure's.",
    "A warning says when a file name was uploaded to the agent before, from this computer's record (the service cannot list documents).",
    'The upload endpoint is not in the service spec; the CLI uses POST /documents/upload (see "Assumed paths").',
    'With --wait the exit code says how processing ended (0 completed, 1 error, 7 timed out).',
  ],
  examples: ['agent-widget documents upload ./manual.pdf --wait', 'agent-widget documents upload docs/*.pdf --json'],
  async run(ctx, paths, values) {
    // Read before anything is sent, so a bad value sends nothing.
    secondsOption(values, 'timeout', 600, 1);
    secondsOption(values, 'interval', 2, 0.05);
    const files = await checkFiles(paths);
    const results: FileResult[] = files.map((file) => ({ file: file.path, uploaded: file.name, size: file.size }));
    try {
      await checkStorage(ctx, ctx.client(), files);
    } catch (error) {
      for (const result of results) result.notSent = true;
      throw failWith(ctx, ctx.explain(error), results);
    }
    const record = await readUploadRecord(dirname(ctx.config.file));
    if (record.unreadable !== undefined)
      ctx.out.note(`Could not read ${record.file} (${record.unreadable}): no warning about names uploaded before this time.`);
    const sent = await sendAll(ctx, files, results, values, record);
    const failure = values.wait === true ? await followAll(ctx, results, values, sent) : sent;
    if (failure === undefined) {
      if (ctx.out.json) ctx.out.data(report(results));
      return;
    }
    if (results.length === 1) throw failWith(ctx, failure, results);
    const done = results.filter((r) => r.error === undefined && r.notSent === undefined).length;
    const notSent = results.filter((r) => r.notSent).map((r) => plain(r.uploaded));
    const failed = results.filter((r) => r.error).map((r) => plain(r.uploaded));
    throw failWith(
      ctx,
      new CliError(
        `Done with ${done} of ${results.length} files; failed: ${failed.join(', ')}${notSent.length > 0 ? `; not sent: ${notSent.join(', ')}` : ''}.`,
        failure.code,
        { status: failure.status, retryAfter: failure.retryAfter },
      ),
      results,
    );
  },
};
