// Commands are plain data (name, arguments, options, examples) plus a run function; node:util's
// parseArgs reads the options strictly, and help is rendered from the same data.
import { parseArgs } from 'node:util';
import type { AgentClient } from '../server/agent-client';
import { closest } from './closest';
import type { Config } from './config';
import { usageError, type CliError, type ExitCode } from './errors';
import type { Output } from './output';
import type { Progress } from './json-error';
import type { Input } from './prompt';
import type { Setting, Settings } from './settings';
import { plain } from './text';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Placeholder for the value in help, e.g. `N`. */
  value?: string;
  description: string;
}

export interface Context {
  out: Output;
  /** The typed client, with the key and base URL of `settings`. */
  client(): AgentClient;
  /** --agent, else AGENT_ID, else the profile's. */
  agentId(): string;
  /** The key, base URL and agent in use, and where each came from. */
  settings: Settings;
  /** The config file's profiles, for login and logout to change. */
  config: Config;
  /** A client for a key and base URL of one's own (login checks a key before storing it). */
  connect(apiKey: string, baseUrl: string): AgentClient;
  /** What the user is told of anything thrown: one sentence and an exit code (`baseUrl`: the one the request went to, when not the settings'). */
  explain(error: unknown, baseUrl?: Setting): CliError;
  stdin: Input;
  /** What the command has done so far that a script needs to resume: set each id, callId and status as the service answers it. */
  progress: Progress;
  /** Fires on Ctrl-C. */
  signal: AbortSignal;
  /** Asks a yes/no question on the terminal; undefined when stdin is not a terminal. */
  confirm(question: string): Promise<boolean | undefined>;
}

export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Command {
  /** Words that select it, e.g. `sources add`. */
  name: string;
  /** Other words that select it, e.g. `sources ls`. */
  aliases?: string[];
  summary: string;
  /** Required positional arguments, e.g. `<url>`. */
  args: string[];
  /** The last argument may be given more than once (`documents upload a.pdf b.docx`). */
  repeatsLast?: boolean;
  options: Record<string, OptionSpec>;
  /** Whether it reads --agent / AGENT_ID. */
  usesAgent: boolean;
  /** Starts without a key, base URL or agent (it checks what it needs itself): login, whoami, completion. */
  local?: boolean;
  examples: string[];
  /** Extra lines for --help. */
  notes?: string[];
  /** Resolves to the exit code; nothing means 0. */
  run(ctx: Context, args: string[], values: Values): Promise<ExitCode | void>;
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'Print one JSON document on stdout (for scripts).' },
  profile: { type: 'string', value: 'name', description: 'The stored profile (default: $AGENT_WIDGET_PROFILE, else default).' },
  help: { type: 'boolean', short: 'h', description: 'Show this help.' },
};

export const AGENT_OPTION: Record<string, OptionSpec> = {
  agent: { type: 'string', value: 'id', description: 'The agent (default: $AGENT_ID).' },
};

export function optionsOf(command: Command): Record<string, OptionSpec> {
  return { ...command.options, ...(command.usesAgent ? AGENT_OPTION : {}), ...GLOBAL_OPTIONS };
}

/** parseArgs' own messages name Node internals; ours name the command and where help is. */
export function parseCommand(command: Command, argv: string[]): { args: string[]; values: Values } {
  const options = optionsOf(command);
  const seeHelp = `see agent-widget ${command.name} --help`;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [
          name,
          { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const quoted = error instanceof Error ? /'(-[^']*)'/.exec(error.message)?.[1] : undefined;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const near = quoted?.startsWith('--') ? closest(quoted.slice(2), Object.keys(options)) : undefined;
      throw usageError(
        `Unknown option ${plain(quoted ?? '(unreadable)')} for ${command.name};${near ? ` did you mean --${near}?` : ''} ${seeHelp}.`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw usageError(`Option ${optionName(quoted)} needs a value; ${seeHelp}.`);
    throw usageError(`The options could not be read; ${seeHelp}.`);
  }
  const values = parsed.values as Values;
  if (values.help === true) return { args: [], values };
  const args = parsed.positionals;
  if (args.length < command.args.length)
    throw usageError(`Missing ${command.args.slice(args.length).join(' ')} for ${command.name}; ${seeHelp}.`);
  if (args.length > command.args.length && command.repeatsLast !== true)
    throw usageError(`Unexpected argument "${plain(args[command.args.length] ?? '')}" for ${command.name}; ${seeHelp}.`);
  return { args, values };
}

/** parseArgs quotes "-x, --long <value>"; keep the long form. */
function optionName(quoted: string | undefined): string {
  const long = quoted === undefined ? undefined : /--[\w-]+/.exec(quoted)?.[0];
  return long ?? quoted ?? '';
}

/** A whole number option within bounds, or a usage error that names the option. */
export function integerOption(values: Values, name: string, min: number, max: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw usageError(`--${name} must be a whole number from ${min} to ${max}.`);
  return n;
}

/** A positive number of seconds (fractions allowed), for --timeout and --interval. */
export function secondsOption(values: Values, name: string, fallback: number, min: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < min) throw usageError(`--${name} must be a number of seconds, at least ${min}.`);
  return n;
}

export function stringList(value: Values[string]): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}
