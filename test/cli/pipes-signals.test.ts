// The CLI in pipes and under signals, as shells and CI use it: a reader that stops early ends it quietly,
// and SIGTERM (timeout, kill, a cancelled CI job) stops a wait as Ctrl-C does.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cliFile, manualClock, sandboxEnv, serveSandbox, startCli, type Served } from './harness';

let served: Served | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Stage length of the sandbox's training, long enough that a wait is still on when the signal comes. */
const STAGE_MS = 60_000;

describe('agent-widget in pipes and under signals', () => {
  it('a reader that closes the pipe before the output comes (| head -1): exit 0, nothing on stderr', async () => {
    const { file } = await cliFile();
    const child = spawn(process.execPath, [file, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the process has started: its first write finds the pipe gone (EPIPE).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('SIGTERM stops waiting like Ctrl-C: the line that says the job goes on, exit 130, and the JSON document in --json mode', async () => {
    const clock = manualClock();
    served = await serveSandbox({ now: clock.now, stageMs: STAGE_MS });
    const env = sandboxEnv(served);
    const added = await startCli(['sources', 'add', 'https://example.com/docs', '--json'], { env });
    const { stdout } = await added.done;
    const id = (JSON.parse(stdout) as { webSource: { id: string } }).webSource.id;

    const plain = await startCli(['sources', 'train', id, '--wait', '--interval', '0.1'], { env });
    await plain.stderrMatches(/: scraping \(\d+s\)\n/);
    plain.kill('SIGTERM');
    const stopped = await plain.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/agent-widget: Stopped waiting after \d+s; training goes on on the service\.\n$/);

    const json = await startCli(['sources', 'train', id, '--wait', '--interval', '0.1', '--json'], { env });
    await json.stderrMatches(/: scraping \(\d+s\)\n/);
    json.kill('SIGTERM');
    const document = await json.done;
    expect(document.code).toBe(130);
    expect(JSON.parse(document.stdout)).toEqual({
      success: false,
      error: {
        code: 'interrupted',
        message: expect.stringMatching(/^Stopped waiting after \d+s; training goes on on the service\.$/) as string,
        status: null,
      },
      exitCode: 130,
      sourceId: id,
      callId: expect.stringMatching(/\S/) as string,
      status: 'scraping',
      stages: [{ status: 'scraping', elapsedMs: expect.any(Number) as number }],
    });
    expect(served.requests.some((r) => r.startsWith('DELETE'))).toBe(false);
  });
});
