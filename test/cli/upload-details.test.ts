// When an upload fails after the service made the document (processing could not be started or failed),
// the run's progress (what the --json error document carries after its `error`) holds what a script needs:
// the documentId, the callId and the status so far, per file. In process, against the sandbox, to read it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/cli/command';
import { documentCommands } from '../../src/cli/commands/documents';
import { CliError, toCliError } from '../../src/cli/errors';
import { createOutput } from '../../src/cli/output';
import { resolveSettings } from '../../src/cli/settings';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } from '../../src/sandbox';
import { createAgentClient } from '../../src/server';

const upload = documentCommands.find((command) => command.name === 'documents upload');

function contextFor(fails: (path: string) => boolean): Context {
  const sandbox = createSandbox({ stageMs: 1 });
  const directory = mkdtempSync(join(tmpdir(), 'agent-widget-details-'));
  const config = { file: join(directory, 'config.json'), profiles: new Map() };
  const client = createAgentClient({
    apiKey: DEMO_API_KEY,
    baseUrl: 'https://service.test',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (fails(new URL(request.url).pathname)) return Response.json({ success: false, error: 'Processing is down.' }, { status: 500 });
      return sandbox.handle(request);
    },
  });
  const quiet = { write: () => true };
  return {
    out: createOutput({ stdout: quiet, stderr: quiet, env: {} }, true),
    client: () => client,
    agentId: () => DEMO_AGENT_ID,
    settings: resolveSettings({}, config, {}),
    config,
    connect: () => client,
    explain: (error) => toCliError(error, 'https://service.test'),
    stdin: Readable.from([]),
    signal: new AbortController().signal,
    confirm: async () => undefined,
    progress: {},
  };
}

describe('documents upload failing after the document was made', () => {
  it('the progress carries the documentId, per file and at the top for one file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agent-widget-details-files-'));
    const path = join(directory, 'prices.pdf');
    writeFileSync(path, '%PDF-1.7 prices');
    const ctx = contextFor((pathname) => pathname === '/convert-document');
    const error = await upload?.run(ctx, [path], {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(CliError);
    const { exitCode, message } = error as CliError;
    const details = ctx.progress;
    expect({ exitCode, message }).toEqual({ exitCode: 8, message: 'The service failed (500: Processing is down); try again later.' });
    const documentId = details.documents?.[0]?.documentId;
    expect(documentId).toMatch(/^doc_/);
    expect(details).toEqual({
      file: path,
      uploaded: 'prices.pdf',
      size: 15,
      documentId,
      documents: [
        { file: path, uploaded: 'prices.pdf', size: 15, documentId, error: { code: 'service_error', message, status: 500, exitCode: 8 } },
      ],
    });
  });

  it('after --wait ends in error, each file says its callId and the status it reached', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agent-widget-details-files-'));
    const good = join(directory, 'prices.pdf');
    const bad = join(directory, 'corrupt-scan.pdf');
    writeFileSync(good, '%PDF-1.7 prices');
    writeFileSync(bad, '%PDF-1.7 broken');
    const ctx = contextFor(() => false);
    const error = await upload?.run(ctx, [good, bad], { wait: true, interval: '0.05' }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(1);
    expect(ctx.progress).toEqual({
      documents: [
        expect.objectContaining({
          uploaded: 'prices.pdf',
          documentId: expect.any(String),
          callId: expect.any(String),
          status: 'completed',
        }),
        expect.objectContaining({
          uploaded: 'corrupt-scan.pdf',
          documentId: expect.any(String),
          callId: expect.any(String),
          status: 'error',
          error: {
            code: 'failed',
            message: expect.stringContaining('failed: the service reports status "error"'),
            status: null,
            exitCode: 1,
          },
        }),
      ],
    });
  });
});
