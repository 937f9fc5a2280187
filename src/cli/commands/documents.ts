// `documents …`: start a document's processing and follow it (`upload` is in ./upload).
import { secondsOption, type Command } from '../command';
import { EXIT } from '../errors';
import { followHint, followProcessing, startProcessing } from '../processing';
import { plain } from '../text';
import { WAIT_OPTIONS } from '../wait';
import { upload } from './upload';

const convert: Command = {
  name: 'documents convert',
  summary: 'Process an uploaded document: processing, chunking, completed (or error).',
  args: ['<documentId>'],
  options: WAIT_OPTIONS,
  usesAgent: true,
  notes: ['With --wait the exit code says how processing ended (0 completed, 1 error, 7 timed out).'],
  examples: ['agent-widget documents convert doc_123 --wait --timeout 120'],
  async run(ctx, [documentId = ''], values) {
    // Read before anything is sent, so a bad value starts nothing.
    secondsOption(values, 'timeout', 600, 1);
    secondsOption(values, 'interval', 2, 0.05);
    const callId = await startProcessing(ctx, documentId);
    if (values.wait !== true) {
      if (ctx.out.json) return ctx.out.data({ documentId, callId });
      ctx.out.line(followHint(documentId));
      return;
    }
    const followed = await followProcessing(ctx, documentId, values);
    if (ctx.out.json) return ctx.out.data({ documentId, callId, ...followed });
    ctx.out.line(`Document ${plain(documentId)} is processed.`);
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
    if (values.wait === true) {
      const followed = await followProcessing(ctx, documentId, values);
      if (ctx.out.json) return ctx.out.data({ documentId, ...followed });
      ctx.out.line(`Document ${plain(documentId)} is processed.`);
      return EXIT.ok;
    }
    const { status: value } = await ctx.client().documents.status(documentId, { signal: ctx.signal });
    const failed = value === 'error';
    if (ctx.out.json) ctx.out.data({ documentId, status: value });
    else ctx.out.line(`Document ${plain(documentId)}: ${plain(value)}`);
    if (!failed) return EXIT.ok;
    ctx.out.note(`Document ${plain(documentId)} failed: processing ended in error.`);
    return EXIT.failed;
  },
};

export const documentCommands: Command[] = [upload, convert, status];
