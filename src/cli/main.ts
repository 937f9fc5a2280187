// The CLI as a function of its arguments, environment and streams, returning the exit code, so it
// runs the same from the bin and in tests. The key comes from the environment or the stored profile.
import { createAgentClient, type AgentClient } from '../server/agent-client';
import { defaultSleep } from '../server/poll';
import { parseCommand, type Command, type Context } from './command';
import { analyticsCommands } from './commands/analytics';
import { completionCommand } from './commands/completion';
import { documentCommands } from './commands/documents';
import { loginCommands } from './commands/login';
import { sourceCommands } from './commands/sources';
import { usageCommands } from './commands/usage';
import { configFile, readConfig } from './config';
import { CliError, EXIT, printableUrl, toCliError, usageError, type ExitCode } from './errors';
import { commandHelp, groupHelp, overviewHelp } from './help';
import { errorDocument, type Progress } from './json-error';
import { findCommand, unknownCommand } from './lookup';
import { noApiHere, noteAnswer, type LastAnswer } from './no-api';
import { createOutput, type Env, type OutStream } from './output';
import { askLine, type Input } from './prompt';
import { keyInUse, missingSettings, requestTimeoutMs, resolveSettings, type Settings } from './settings';

export const COMMANDS: Command[] = [
  ...sourceCommands,
  ...documentCommands,
  ...analyticsCommands,
  ...usageCommands,
  ...loginCommands,
  completionCommand(() => COMMANDS),
];

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Input;
  env: Env;
  /** Fires on Ctrl-C. */
  signal?: AbortSignal;
  version: string;
}

/** The longest wait for a rate-limit reset; beyond it the CLI stops with exit 6 and says when to retry. */
const MAX_RATE_LIMIT_WAIT_MS = 120_000;

export async function run(given: string[], io: Io): Promise<ExitCode> {
  // --debug and --no-color go with any command: each request printed on stderr (method, URL, status, time); no colour.
  const debug = given.includes('--debug');
  const words = given.filter((arg) => arg !== '--debug' && arg !== '--no-color');
  // `help <topic>` is `<topic> --help`, for a group and a command alike.
  const argv = words[0] === 'help' && words.length > 1 ? [...words.slice(1), '--help'] : words;
  const json = argv.includes('--json');
  const out = createOutput(io, json, { color: !given.includes('--no-color') });
  // Filled by the command as it goes; a failure's JSON document carries it.
  const progress: Progress = {};
  const fail = (error: CliError): ExitCode => {
    out.note(`agent-widget: ${error.message}`);
    if (json && !out.wroteData) out.data(errorDocument(error, progress));
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
  const { command, group, rest } = findCommand(COMMANDS, argv);
  if (!command) {
    const members = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
    if (group && (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h')) {
      out.line(groupHelp(group, members));
      return EXIT.ok;
    }
    if (argv[0]?.startsWith('-'))
      return fail(usageError('Put the command first, e.g. agent-widget usage --json; see agent-widget --help.'));
    return fail(unknownCommand(COMMANDS, argv, group));
  }

  // The answer to the last request, for telling a base URL with no API behind it from a wrong id.
  const answers: LastAnswer = {};
  let settings: Settings | undefined;
  const explain = (error: unknown, baseUrl = settings?.baseUrl): CliError =>
    noApiHere(error, answers, baseUrl) ?? toCliError(error, baseUrl?.value ?? '', keyInUse(settings));
  try {
    const { args, values } = parseCommand(command, rest);
    if (values.help === true) {
      out.line(commandHelp(command));
      return EXIT.ok;
    }
    const config = await readConfig(configFile(io.env));
    for (const profile of config.profiles.values()) if (profile.apiKey !== undefined) out.hide(profile.apiKey);
    if (config.readableByOthers) out.note(`Warning: others can read ${config.file}, which holds API keys; run chmod 600 on it.`);
    const resolved = resolveSettings(io.env, config, { profile: stringValue(values.profile), agent: stringValue(values.agent) });
    settings = resolved;
    if (command.local !== true) {
      const missing = missingSettings(resolved, command.usesAgent);
      if (missing) throw missing;
    }
    const signal = io.signal ?? new AbortController().signal;
    const connect = (apiKey: string, baseUrl: string): AgentClient =>
      createClient({ apiKey, baseUrl, timeoutMs: requestTimeoutMs(io.env) }, out.note, { version: io.version, debug, answers });
    let client: AgentClient | undefined;
    const ctx: Context = {
      out,
      signal,
      settings: resolved,
      config,
      stdin: io.stdin,
      progress,
      connect,
      explain,
      client: () => {
        client ??= connect(resolved.apiKey?.value ?? '', resolved.baseUrl?.value ?? '');
        return client;
      },
      agentId: () => {
        const id = resolved.agentId?.value;
        if (id === undefined)
          throw new CliError('No agent: pass --agent <id>, set AGENT_ID, or store one with agent-widget login.', 'missing_settings');
        return id;
      },
      confirm: async (question) => {
        const answer = await askLine(io.stdin, () => out.prompt(question), io.signal);
        return answer === undefined ? undefined : /^(y|yes)$/i.test(answer);
      },
    };
    return (await command.run(ctx, args, values)) ?? EXIT.ok;
  } catch (error) {
    return fail(explain(error));
  }
}

const stringValue = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What the CLI says of itself to the service, whether it prints each request, where it notes each answer. */
interface ClientSettings {
  version: string;
  debug: boolean;
  answers: LastAnswer;
}

function createClient(
  { apiKey, baseUrl, timeoutMs }: { apiKey: string; baseUrl: string; timeoutMs: number | undefined },
  note: (text: string) => void,
  { version, debug, answers }: ClientSettings,
): AgentClient {
  // The client retries a 429 after the reset by sleeping; a sleep right after a 429 is that wait, so say so.
  let rateLimited = false;
  return createAgentClient({
    apiKey,
    baseUrl,
    timeoutMs,
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
        noteAnswer(answers, url, response);
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
