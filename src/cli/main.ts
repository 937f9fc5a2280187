// The CLI as a function of its arguments, environment and streams, returning the exit code, so it
// runs the same from the bin and in tests. Reads the key from the environment only.
import { createInterface } from 'node:readline/promises';
import { createAgentClient, type AgentClient } from '../server/agent-client';
import { defaultSleep } from '../server/poll';
import { httpUrl } from '../server/url';
import { parseCommand, type Command, type Context } from './command';
import { analyticsCommands } from './commands/analytics';
import { documentCommands } from './commands/documents';
import { sourceCommands } from './commands/sources';
import { usageCommands } from './commands/usage';
import { type CliError, EXIT, printableUrl, toCliError, usageError, type ExitCode } from './errors';
import { commandHelp, groupHelp, overviewHelp } from './help';
import { createOutput, type Env, type OutStream } from './output';
import { plain } from './text';

export const COMMANDS: Command[] = [...sourceCommands, ...documentCommands, ...analyticsCommands, ...usageCommands];

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Env;
  /** Fires on Ctrl-C. */
  signal?: AbortSignal;
  version: string;
}

/** The longest wait for a rate-limit reset; beyond it the CLI stops with exit 6 and says when to retry. */
const MAX_RATE_LIMIT_WAIT_MS = 120_000;

/** `sources add x` -> the `sources add` command and its remaining words; a group alone -> its name. */
function findCommand(argv: string[]): { command?: Command; group?: string; rest: string[] } {
  const [first = '', second = ''] = argv;
  const two = COMMANDS.find((c) => c.name === `${first} ${second}`);
  if (two) return { command: two, rest: argv.slice(2) };
  const one = COMMANDS.find((c) => c.name === first);
  if (one) return { command: one, rest: argv.slice(1) };
  if (COMMANDS.some((c) => c.name.startsWith(`${first} `))) return { group: first, rest: argv.slice(1) };
  return { rest: argv };
}

export async function run(given: string[], io: Io): Promise<ExitCode> {
  // --debug goes with any command: each request is printed on stderr (method, URL, status, time).
  const debug = given.includes('--debug');
  const argv = given.filter((arg) => arg !== '--debug');
  const json = argv.includes('--json');
  const out = createOutput(io, json);
  const fail = (error: CliError): ExitCode => {
    out.note(`agent-widget: ${error.message}`);
    if (json && !out.wroteData) out.data({ success: false, error: error.message, exitCode: error.exitCode });
    return error.exitCode;
  };

  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out.line(overviewHelp(COMMANDS, io.version));
    return EXIT.ok;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    out.line(io.version);
    return EXIT.ok;
  }
  const { command, group, rest } = findCommand(argv);
  if (!command) {
    const members = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
    if (group && (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h')) {
      out.line(groupHelp(group, members));
      return EXIT.ok;
    }
    if (argv[0]?.startsWith('-'))
      return fail(usageError('Put the command first, e.g. agent-widget usage --json; see agent-widget --help.'));
    const name = plain([argv[0], group ? rest[0] : undefined].filter(Boolean).join(' '));
    return fail(usageError(`Unknown command "${name}"; see agent-widget --help.`));
  }

  try {
    const { args, values } = parseCommand(command, rest);
    if (values.help === true) {
      out.line(commandHelp(command));
      return EXIT.ok;
    }
    const signal = io.signal ?? new AbortController().signal;
    let client: AgentClient | undefined;
    const ctx: Context = {
      out,
      signal,
      client: () => {
        client ??= createClient(io.env, out.note, { version: io.version, debug });
        return client;
      },
      agentId: () => {
        const flag = values.agent;
        const id = typeof flag === 'string' ? flag : io.env.AGENT_ID;
        if (!id || id.trim() === '') throw usageError('No agent: pass --agent <id> or set AGENT_ID.');
        return id;
      },
      confirm: (question) => confirm(io, question, out.prompt),
    };
    return (await command.run(ctx, args, values)) ?? EXIT.ok;
  } catch (error) {
    return fail(toCliError(error, io.env.AGENT_BASE_URL ?? ''));
  }
}

/** What the CLI says of itself to the service, and whether it prints each request. */
interface ClientSettings {
  version: string;
  debug: boolean;
}

function createClient(env: Env, note: (text: string) => void, { version, debug }: ClientSettings): AgentClient {
  const apiKey = env.AGENT_API_KEY ?? '';
  const baseUrl = env.AGENT_BASE_URL ?? '';
  if (apiKey.trim() === '') throw usageError('Set AGENT_API_KEY to your API key (it is read from the environment only).');
  if (baseUrl === '') throw usageError('Set AGENT_BASE_URL to the service, e.g. https://api.example.com.');
  if (httpUrl(baseUrl) === undefined) throw usageError('AGENT_BASE_URL must be an absolute http(s) URL.');
  // The client retries a 429 after the reset by sleeping; a sleep right after a 429 is that wait, so say so.
  let rateLimited = false;
  return createAgentClient({
    apiKey,
    baseUrl,
    maxRetries: 3,
    maxRetryWaitMs: MAX_RATE_LIMIT_WAIT_MS,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      // The service's logs can tell the CLI and its version from other clients.
      headers.set('User-Agent', `agent-widget-cli/${version} node/${process.versions.node}`);
      const method = init?.method ?? 'GET';
      const url = printableUrl(input instanceof Request ? input.url : String(input));
      const started = Date.now();
      if (debug) note(`→ ${method} ${url}`);
      try {
        const response = await fetch(input, { ...init, headers });
        if (debug) note(`← ${response.status} ${method} ${url} in ${Date.now() - started} ms`);
        rateLimited = response.status === 429;
        return response;
      } catch (error) {
        if (debug)
          note(`← no answer ${method} ${url} after ${Date.now() - started} ms: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
    },
    sleep: (ms, signal) => {
      if (rateLimited) {
        rateLimited = false;
        note(`Rate limited by the service: waiting ${Math.ceil(ms / 1000)} s for the limit to reset.`);
      }
      return defaultSleep(ms, signal);
    },
  });
}

/** y/N on a terminal; undefined when stdin is not one (scripts must pass --yes). */
async function confirm(io: Io, question: string, prompt: (text: string) => void): Promise<boolean | undefined> {
  if (io.stdin.isTTY !== true) return undefined;
  // No `output`: the terminal echoes the answer itself, and the prompt goes through the redacting writer.
  const rl = createInterface({ input: io.stdin });
  prompt(question);
  try {
    const answer = await rl.question('', { signal: io.signal });
    return /^(y|yes)$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
