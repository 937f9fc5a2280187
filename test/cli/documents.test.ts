// `documents …` end to end: upload, process and follow a document, including one that ends in error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, runCli, sandboxEnv, serveSandbox, type Served, sandboxAdvancingOn } from './harness';

let served: Served | undefined;
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-widget-docs-'));
  writeFileSync(join(dir, 'prices.pdf'), '%PDF-1.7 prices');
  // The sandbox's convention for a document that fails: its name contains "corrupt".
  writeFileSync(join(dir, 'corrupt-scan.pdf'), '%PDF-1.7 broken');
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The clock moves one stage on every status poll. */
const sandboxAdvancingOnPoll = (): Promise<Served> =>
  sandboxAdvancingOn((method, path) => method === 'POST' && path === '/convert-document/status');

async function uploadOnly(env: Record<string, string>, name: string): Promise<string> {
  // Upload starts processing; the id is what later commands take.
  const result = await runCli(['documents', 'upload', join(dir, name), '--json'], { env });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { documentId: string }).documentId;
}

describe('agent-widget documents', () => {
  it('uploads and processes a document with --wait: processing, chunking, completed', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const result = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--wait', '--interval', '0.05'], { env });
    expect(result.code).toBe(0);
    const id = /Uploaded prices\.pdf as document (\S+)\./.exec(result.stdout)?.[1] ?? '';
    expect(id).not.toBe('');
    expect(
      result.stderr
        .trim()
        .split('\n')
        .map((l) => l.replace(/ \(\d+s\)$/, '')),
    ).toEqual([`Document ${id}: processing`, `Document ${id}: chunking`, `Document ${id}: completed`]);
    expect(result.stdout).toContain(`Document ${id} is processed.`);
  });

  it('processing started without --wait points to documents status --wait, which follows it without starting it again', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const uploaded = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env });
    const id = /Uploaded prices\.pdf as document (\S+)\./.exec(uploaded.stdout)?.[1] ?? '';
    expect(uploaded.stdout).toContain(`Follow it: agent-widget documents status ${id} --wait`);
    const converts = () => served?.requests.filter((r) => r === 'POST /convert-document').length;
    expect(converts()).toBe(1);
    const followed = await runCli(['documents', 'status', id, '--wait', '--interval', '0.05', '--json'], { env });
    expect(followed.code).toBe(0);
    expect(JSON.parse(followed.stdout)).toMatchObject({ documentId: id, status: 'completed' });
    expect(converts()).toBe(1);
  });

  it('ends a document that fails in error with exit 1 and one sentence', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await uploadOnly(env, 'corrupt-scan.pdf');

    const converted = await runCli(['documents', 'convert', id, '--wait', '--interval', '0.05'], { env });
    expect(converted.code).toBe(1);
    expect(converted.stdout).toBe('');
    expect(converted.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Document ${id}: processing \\(\\d+s\\)$`)),
      expect.stringMatching(new RegExp(`^Document ${id}: error \\(\\d+s\\)$`)),
      `agent-widget: Document ${id} failed: the service reports status "error".`,
    ]);

    const status = await runCli(['documents', 'status', id], { env });
    expect(status).toEqual({
      code: 1,
      stdout: `Document ${id}: error\n`,
      stderr: `Document ${id} failed: processing ended in error.\n`,
    });
    const json = await runCli(['documents', 'status', id, '--json'], { env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ documentId: id, status: 'error' });
  });

  it('gives --json scripts the stages and the final status; errors are JSON on stdout too', async () => {
    served = await sandboxAdvancingOnPoll();
    const env = sandboxEnv(served);
    const id = await uploadOnly(env, 'prices.pdf');
    const done = await runCli(['documents', 'convert', id, '--wait', '--interval', '0.05', '--json'], { env });
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      documentId: id,
      status: 'completed',
      stages: [{ status: 'processing' }, { status: 'chunking' }, { status: 'completed' }],
    });

    const missing = await runCli(['documents', 'status', 'doc_missing', '--json'], { env });
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stdout)).toEqual({
      success: false,
      error: { code: 'not_found', message: 'Not found (404: Document not found).', status: 404 },
      exitCode: 4,
      documentId: 'doc_missing',
    });
    expect(missing.stderr).toBe('agent-widget: Not found (404: Document not found).\n');
  });

  it("names the operating system's reason when the file cannot be read, before calling the service", async () => {
    served = await serveSandbox();
    const env = sandboxEnv(served);
    const missing = await runCli(['documents', 'upload', join(dir, 'absent.pdf')], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Cannot read the file ${join(dir, 'absent.pdf')}: no such file.`);
    const directory = await runCli(['documents', 'upload', dir], { env });
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain(`Cannot read the file ${dir}: it is a directory or another kind of entry, not a file.`);
  });

  it('refuses a file that is not a PDF or DOCX by its name or its first bytes, before calling the service', async () => {
    served = await serveSandbox();
    const env = sandboxEnv(served);
    writeFileSync(join(dir, 'notes.txt'), 'plain text');
    writeFileSync(join(dir, 'renamed.pdf'), 'plain text under a PDF name');
    for (const name of ['notes.txt', 'renamed.pdf']) {
      const result = await runCli(['documents', 'upload', join(dir, name)], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${name} is not a PDF or DOCX file; the service converts only those.`);
    }
    expect(served.requests).toEqual([]);
  });

  it('needs an agent for convert and says how to give one', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const { AGENT_ID: _unused, ...env } = sandboxEnv(served);
    const result = await runCli(['documents', 'convert', 'doc_1'], { env });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agent-widget: Not set: the agent (--agent or AGENT_ID). Run agent-widget login to store it, or set the environment variable.\n',
    });
    const other = await runCli(['documents', 'convert', 'doc_1', '--agent', 'someone-else'], { env });
    expect(other.code).toBe(4);
  });
});
