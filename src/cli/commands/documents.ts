// `documents …`: upload a document, start its processing and follow it.
import { openAsBlob } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { secondsOption, type Command, type Context, type Values } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { plain } from '../text';
import { waitFor, WAIT_OPTIONS } from '../wait';

/** Why a path cannot be uploaded, in the operating system's terms; undefined when it is a readable file. */
async function unreadableReason(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? undefined : 'it is a directory or another kind of entry, not a file';
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (code === 'ENOENT') return 'no such file';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    if (code === 'ENOTDIR') return 'a part of the path is not a directory';
    return typeof code === 'string' ? code : 'unknown reason';
  }
}

/** The types the service converts, known by how their files begin: a PDF header, a DOCX's ZIP container. */
const DOCUMENT_SIGNATURES = [
  { extension: '.pdf', start: '%PDF-' },
  { extension: '.docx', start: 'PK\u0003\u0004' },
];

/** Whether the file is a PDF or DOCX by its name and its first bytes, checked here so a wrong file is never sent. */
async function isConvertibleDocument(path: string): Promise<boolean> {
  const signature = DOCUMENT_SIGNATURES.find(({ extension }) => path.toLowerCase().endsWith(extension));
  if (signature === undefined) return false;
  const file = await open(path);
  try {
    const head = Buffer.alloc(signature.start.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('latin1') === signature.start;
  } finally {
    await file.close();
  }
}

/** Starts processing and, with --wait, follows it; shared by `convert` and `upload`. */
async function startProcessing(ctx: Context, documentId: string, values: Values, extra: Record<string, unknown> = {}): Promise<void> {
  ctx.progress.documentId = documentId;
  const timeoutMs = secondsOption(values, 'timeout', 600, 1) * 1000;
  const intervalMs = secondsOption(values, 'interval', 2, 0.05) * 1000;
  const client = ctx.client();
  const started = await client.documents.convert(ctx.agentId(), documentId, { signal: ctx.signal });
  ctx.progress.callId = started.callId;
  const label = `Document ${plain(documentId)}`;
  if (values.wait !== true) {
    if (ctx.out.json) return ctx.out.data({ ...extra, documentId, callId: started.callId });
    ctx.out.line(`Processing started for ${plain(documentId)}. Follow it: agent-widget documents status ${plain(documentId)} --wait`);
    return;
  }
  const waited = await waitFor(
    ctx,
    { label, work: 'processing', wait: (options) => client.documents.waitUntilProcessed(documentId, options) },
    { timeoutMs, intervalMs },
  );
  const { status } = waited.result;
  if (ctx.out.json)
    return ctx.out.data({ ...extra, documentId, callId: started.callId, status, elapsedMs: waited.elapsedMs, stages: waited.stages });
  ctx.out.line(`${label} is processed.`);
}

const upload: Command = {
  name: 'documents upload',
  summary: 'Upload a PDF or DOCX file to the agent and start processing it.',
  args: ['<file>'],
  options: WAIT_OPTIONS,
  usesAgent: true,
  notes: [
    'The upload endpoint is not in the service spec; the CLI uses POST /documents/upload (see "Assumed paths").',
    'With --wait the exit code says how processing ended (0 completed, 1 error, 7 timed out).',
  ],
  examples: ['agent-widget documents upload ./manual.pdf --wait'],
  async run(ctx, [path = ''], values) {
    const reason = await unreadableReason(path);
    if (reason !== undefined) throw usageError(`Cannot read the file ${plain(path)}: ${reason}.`);
    if (!(await isConvertibleDocument(path)))
      throw usageError(`${plain(basename(path))} is not a PDF or DOCX file; the service converts only those.`);
    const uploaded = await ctx.client().documents.upload(ctx.agentId(), await openAsBlob(path), basename(path), { signal: ctx.signal });
    const documentId = typeof uploaded.documentId === 'string' ? uploaded.documentId : '';
    if (documentId === '') throw new CliError('The service sent an answer this CLI does not understand (no documentId).', 'invalid_answer');
    ctx.progress.uploaded = basename(path);
    if (!ctx.out.json) ctx.out.line(`Uploaded ${plain(basename(path))} as document ${plain(documentId)}.`);
    await startProcessing(ctx, documentId, values, { uploaded: basename(path) });
  },
};

const convert: Command = {
  name: 'documents convert',
  summary: 'Process an uploaded document: processing, chunking, completed (or error).',
  args: ['<documentId>'],
  options: WAIT_OPTIONS,
  usesAgent: true,
  notes: ['With --wait the exit code says how processing ended (0 completed, 1 error, 7 timed out).'],
  examples: ['agent-widget documents convert doc_123 --wait --timeout 120'],
  async run(ctx, [documentId = ''], values) {
    await startProcessing(ctx, documentId, values);
  },
};

/** Watches processing without starting it: following a job must never restart it. */
const status: Command = {
  name: 'documents status',
  summary: "Show a document's processing status; with --wait, follow it until it ends (it is not started again).",
  args: ['<documentId>'],
  options: WAIT_OPTIONS,
  usesAgent: false,
  notes: ['Exit code 1 when the status is error; with --wait, 7 when --timeout passed first.'],
  examples: ['agent-widget documents status doc_123 --wait', 'agent-widget documents status doc_123 --json'],
  async run(ctx, [documentId = ''], values) {
    ctx.progress.documentId = documentId;
    const client = ctx.client();
    if (values.wait === true) {
      const timeoutMs = secondsOption(values, 'timeout', 600, 1) * 1000;
      const intervalMs = secondsOption(values, 'interval', 2, 0.05) * 1000;
      const label = `Document ${plain(documentId)}`;
      const waited = await waitFor(
        ctx,
        { label, work: 'processing', wait: (options) => client.documents.waitUntilProcessed(documentId, options) },
        { timeoutMs, intervalMs },
      );
      if (ctx.out.json)
        return ctx.out.data({ documentId, status: waited.result.status, elapsedMs: waited.elapsedMs, stages: waited.stages });
      ctx.out.line(`${label} is processed.`);
      return EXIT.ok;
    }
    const { status: value } = await client.documents.status(documentId, { signal: ctx.signal });
    const failed = value === 'error';
    if (ctx.out.json) ctx.out.data({ documentId, status: value });
    else ctx.out.line(`Document ${plain(documentId)}: ${plain(value)}`);
    if (!failed) return EXIT.ok;
    ctx.out.note(`Document ${plain(documentId)} failed: processing ended in error.`);
    return EXIT.failed;
  },
};

export const documentCommands: Command[] = [upload, convert, status];
