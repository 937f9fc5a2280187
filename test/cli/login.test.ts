// `login`, `logout`, `whoami` and profiles, end to end: the key typed with echo off in a pseudo-terminal or
// piped in, checked with the service, stored 0600; the environment still wins; the key never printed.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SCOPED_API_KEY } from '../../src/sandbox';
import { DEMO_AGENT_ID, DEMO_API_KEY, HAS_PTY, manualClock, runCli, serveSandbox, startCli, type Served } from './harness';

let served: Served | undefined;
let directory = '';

beforeEach(async () => {
  directory = join(await mkdtemp(join(tmpdir(), 'agent-widget-login-')), 'config');
});

afterEach(async () => {
  await served?.close();
  served = undefined;
  await rm(join(directory, '..'), { recursive: true, force: true });
});

const configPath = (): string => join(directory, 'config.json');
const stored = async (): Promise<unknown> => JSON.parse(await readFile(configPath(), 'utf8'));
/** Only the config directory: no AGENT_* variable, as after `login` in a new shell. */
const loggedInEnv = (): Record<string, string> => ({ AGENT_WIDGET_CONFIG_DIR: directory });

async function pipeLogin(key: string, ...args: string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
  if (!served) throw new Error('no sandbox');
  return runCli(['login', '--with-key', '--base-url', served.baseUrl, ...args], { env: loggedInEnv(), input: `${key}\n` });
}

describe('agent-widget login', () => {
  it('checks a piped key with the service, stores it 0600 in a 0700 directory, and commands use it', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const login = await pipeLogin(DEMO_API_KEY, '--agent', DEMO_AGENT_ID);
    expect(login).toEqual({
      code: 0,
      stdout: `Logged in as profile default: key sk_live_…0000 accepted by ${served.baseUrl}, agent demo-agent. Stored in ${configPath()}.\n`,
      stderr: '',
    });
    expect(served.requests).toEqual(['GET /credits']);
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    // A directory that existed already keeps its mode: only the file is made private.
    const shared = join(directory, '..', 'shared');
    await mkdir(shared, { mode: 0o755 });
    await runCli(['login', '--with-key', '--base-url', served.baseUrl], {
      env: { AGENT_WIDGET_CONFIG_DIR: shared },
      input: `${DEMO_API_KEY}\n`,
    });
    expect((await stat(shared)).mode & 0o777).toBe(0o755);
    expect((await stat(join(shared, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await stored()).toEqual({ profiles: { default: { apiKey: DEMO_API_KEY, baseUrl: served.baseUrl, agentId: DEMO_AGENT_ID } } });

    // Made readable by others afterwards: said on every run until fixed.
    await chmod(configPath(), 0o644);
    expect((await runCli(['whoami'], { env: loggedInEnv() })).stderr).toBe(
      `Warning: others can read ${configPath()}, which holds API keys; run chmod 600 on it.\n`,
    );
    await chmod(configPath(), 0o600);

    const listed = await runCli(['sources', 'list', '--json'], { env: loggedInEnv() });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ webSources: [] });
    expect(served.requests.at(-1)).toBe(`GET /web-sources`);
  });

  it('does not store a key the service refuses, and says which key and where', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const wrong = 'sk_live_not_a_known_key_000000abcd';
    const login = await pipeLogin(wrong);
    expect(login.code).toBe(3);
    expect(login.stderr).toBe(
      `agent-widget: The service at ${served.baseUrl} refused the key sk_live_…abcd (401: Invalid API key); nothing was stored.\n`,
    );
    expect(login.stdout + login.stderr).not.toContain(wrong);
    await expect(stat(configPath())).rejects.toThrow(/ENOENT/);
  });

  it('says there is no API at a base URL that answers a web page, and stores nothing', async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: () => new Response('<!doctype html><title>Home</title>', { headers: { 'Content-Type': 'text/html' } }),
    });
    const login = await pipeLogin(DEMO_API_KEY);
    expect(login).toEqual({
      code: 8,
      stdout: '',
      stderr: `agent-widget: Got an HTML page from ${served.baseUrl}/credits: no API here; is the base URL right? The base URL is ${served.baseUrl}, from --base-url. Nothing was stored.\n`,
    });
    await expect(stat(configPath())).rejects.toThrow(/ENOENT/);
  });

  it('refuses to guess when nothing can be asked: the missing pieces are named together', async () => {
    const login = await runCli(['login'], { env: loggedInEnv() });
    expect(login).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agent-widget: Not on a terminal, so nothing can be asked: give the base URL (--base-url or AGENT_BASE_URL) and the key (pipe it in with --with-key).\n',
    });
  });

  it.skipIf(!HAS_PTY)('asks on a terminal, the key with typing not shown', async () => {
    served = await serveSandbox({ now: manualClock().now });
    // The environment's base URL is offered as the default; Enter keeps it.
    const cli = await startCli(['login'], { tty: true, env: { ...loggedInEnv(), AGENT_BASE_URL: served.baseUrl } });
    await cli.stdoutMatches(/Base URL of the service \[\S+\]: $/);
    expect(cli.output()).toContain(`Base URL of the service [${served.baseUrl}]: `);
    cli.write('\r');
    await cli.stdoutMatches(/Agent id \(optional\): $/);
    cli.write(`${DEMO_AGENT_ID}\r`);
    await cli.stdoutMatches(/API key \(typing is not shown\): $/);
    // Typed in pieces, with a slip corrected by Backspace, as a person would.
    cli.write(DEMO_API_KEY.slice(0, 10));
    cli.write('x\u007f');
    cli.write(`${DEMO_API_KEY.slice(10)}\r`);
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Logged in as profile default: key sk_live_…0000 accepted by ${served.baseUrl}, agent demo-agent.`);
    // The terminal showed the agent as typed, and nothing of the key.
    expect(result.stdout).toContain(`Agent id (optional): ${DEMO_AGENT_ID}`);
    expect(result.stdout).not.toContain(DEMO_API_KEY.slice(0, 10));
    expect(result.stdout).not.toContain(DEMO_API_KEY.slice(10));
    expect(await stored()).toEqual({ profiles: { default: { apiKey: DEMO_API_KEY, baseUrl: served.baseUrl, agentId: DEMO_AGENT_ID } } });
    expect(result.stdout).toContain('Note: AGENT_BASE_URL is set in this environment and wins over the stored value.');
  });

  it.skipIf(!HAS_PTY)('takes a pasted key without the terminal’s bracketed-paste marks', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const cli = await startCli(['login', '--base-url', served.baseUrl, '--agent', DEMO_AGENT_ID], { tty: true, env: loggedInEnv() });
    await cli.stdoutMatches(/API key \(typing is not shown\): $/);
    cli.write(`\u001b[200~${DEMO_API_KEY}\u001b[201~\r`);
    expect((await cli.done).code).toBe(0);
    expect(await stored()).toMatchObject({ profiles: { default: { apiKey: DEMO_API_KEY } } });
  });

  it.skipIf(!HAS_PTY)('Ctrl-C at the hidden prompt stops with exit 130 and stores nothing', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const cli = await startCli(['login', '--base-url', served.baseUrl, '--agent', DEMO_AGENT_ID], { tty: true, env: loggedInEnv() });
    await cli.stdoutMatches(/API key \(typing is not shown\): $/);
    cli.write('sk_live_half\u0003');
    const result = await cli.done;
    expect(result.code).toBe(130);
    expect(result.stdout).not.toContain('sk_live_half');
    await expect(stat(configPath())).rejects.toThrow(/ENOENT/);
  });
});

describe('agent-widget profiles, whoami and logout', () => {
  it('keeps several profiles; --profile and AGENT_WIDGET_PROFILE pick one; the environment wins over the file', async () => {
    served = await serveSandbox({ now: manualClock().now });
    expect((await pipeLogin(DEMO_API_KEY)).code).toBe(0);
    expect((await pipeLogin(DEMO_SCOPED_API_KEY, '--profile', 'scoped', '--agent', DEMO_AGENT_ID)).code).toBe(0);

    const mine = await runCli(['whoami'], { env: loggedInEnv() });
    expect(mine.code).toBe(0);
    const lines = mine.stdout.split('\n');
    expect(lines[0]).toBe(`Profile default (${configPath()})`);
    expect(lines.slice(1, 4).map((line) => line.split(/ {2,}/))).toEqual([
      ['', 'API key', 'sk_live_…0000', 'from profile default'],
      ['', 'Base URL', served.baseUrl, 'from profile default'],
      ['', 'Agent', 'not set'],
    ]);
    const scoped = await runCli(['whoami', '--json'], { env: { ...loggedInEnv(), AGENT_WIDGET_PROFILE: 'scoped' } });
    expect(JSON.parse(scoped.stdout)).toEqual({
      profile: 'scoped',
      configFile: configPath(),
      apiKey: { value: 'sk_live_…0000', from: 'profile scoped' },
      baseUrl: { value: served.baseUrl, from: 'profile scoped' },
      agentId: { value: DEMO_AGENT_ID, from: 'profile scoped' },
    });
    const overridden = await runCli(['whoami', '--profile', 'scoped', '--agent', 'other', '--json'], {
      env: { ...loggedInEnv(), AGENT_API_KEY: 'sk_live_from_the_environment_9999', AGENT_ID: 'env-agent' },
    });
    expect(JSON.parse(overridden.stdout)).toMatchObject({
      apiKey: { value: 'sk_live_…9999', from: 'AGENT_API_KEY' },
      baseUrl: { from: 'profile scoped' },
      agentId: { value: 'other', from: '--agent' },
    });
    expect(overridden.stdout).not.toContain('from_the_environment');

    // The scoped profile's agent is used without --agent.
    expect((await runCli(['analytics', '--profile', 'scoped'], { env: loggedInEnv() })).code).toBe(0);
    const unknown = await runCli(['usage', '--profile', 'nope'], { env: loggedInEnv() });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: `agent-widget: There is no profile nope in ${configPath()}; run agent-widget login --profile nope to make it.\n`,
    });
  });

  it('logout removes the key and keeps the rest; then the missing key is said, with how to fix it', async () => {
    served = await serveSandbox({ now: manualClock().now });
    expect((await pipeLogin(DEMO_API_KEY, '--agent', DEMO_AGENT_ID)).code).toBe(0);
    const logout = await runCli(['logout'], { env: loggedInEnv() });
    expect(logout).toEqual({ code: 0, stdout: `Removed the key sk_live_…0000 of profile default from ${configPath()}.\n`, stderr: '' });
    expect(await stored()).toEqual({ profiles: { default: { baseUrl: served.baseUrl, agentId: DEMO_AGENT_ID } } });
    expect(await runCli(['logout'], { env: loggedInEnv() })).toMatchObject({
      code: 0,
      stdout: 'Profile default has no stored key; nothing to remove.\n',
    });
    expect(await runCli(['sources', 'list'], { env: loggedInEnv() })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agent-widget: Not set: the API key (AGENT_API_KEY). Run agent-widget login to store it, or set the environment variable.\n',
    });
    const whoami = await runCli(['whoami'], { env: loggedInEnv() });
    expect(whoami.code).toBe(2);
    expect(whoami.stdout).toContain('  API key   not set');
  });

  it('a refused stored key is named masked, with the base URL and how to fix it; never in full, not even with --debug', async () => {
    // A key of no known shape, so only the exact-key redaction can hide it; the service echoes it back.
    const key = 'owner-secret-key-1234567890-wxyz';
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) =>
        Response.json({ success: false, error: `Key ${request.headers.get('Authorization')} is not valid` }, { status: 401 }),
    });
    await mkdir(directory, { recursive: true });
    await writeFile(configPath(), JSON.stringify({ profiles: { default: { apiKey: key, baseUrl: served.baseUrl } } }));
    const result = await runCli(['usage', '--debug'], { env: loggedInEnv() });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).not.toContain(key);
    expect(result.stderr.split('\n').at(-2)).toBe(
      `agent-widget: The service at ${served.baseUrl} refused the API key …wxyz from profile default (401: Key [redacted] is not valid); run agent-widget login again with a working key, or check its agent scope.`,
    );
  });

  it('says which file is broken instead of failing on a config file that is not its own', async () => {
    await mkdir(directory, { recursive: true });
    await writeFile(configPath(), '{"profiles": [1, 2]}');
    const result = await runCli(['whoami'], { env: loggedInEnv() });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `agent-widget: The config file ${configPath()} is not JSON of the form { "profiles": { … } }; fix it, or remove it and run agent-widget login again.\n`,
    });
  });
});
