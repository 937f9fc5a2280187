// Help text, rendered from the command table so it cannot drift from what is parsed.
import { EXIT } from './errors';
import { optionsOf, type Command } from './command';

const ENVIRONMENT = [
  ['AGENT_API_KEY', 'the API key (sk_live_…); never a flag. Wins over the one stored by agent-widget login'],
  ['AGENT_BASE_URL', 'the service, e.g. https://api.example.com (npm start: http://localhost:5173/sandbox)'],
  ['AGENT_ID', 'the agent, unless --agent is given'],
  ['AGENT_WIDGET_PROFILE', 'the stored profile to use, unless --profile is given (default: default)'],
  ['AGENT_WIDGET_CONFIG_DIR', 'where login keeps config.json (default: the platform’s config directory)'],
  ['NO_COLOR', 'set to turn colour off (as FORCE_COLOR=0 and --no-color do; another FORCE_COLOR forces it on)'],
] as const;

const EXIT_CODES: [number, string][] = [
  [EXIT.ok, 'done'],
  [EXIT.failed, 'the work failed: processing or training ended in error, a limit check said no, removal declined'],
  [EXIT.usage, 'wrong command line, or a missing key, base URL or agent'],
  [EXIT.auth, 'the service refused the API key (401/403)'],
  [EXIT.notFound, 'not found (404)'],
  [EXIT.refused, 'the service refused the request (400) or not enough credits (402)'],
  [EXIT.rateLimited, 'still rate limited after waiting for the reset (429)'],
  [EXIT.timeout, '--timeout passed, or the service did not answer in time'],
  [EXIT.unavailable, 'service unreachable, failing (5xx) or answering something unexpected'],
  [EXIT.interrupted, 'interrupted (Ctrl-C or SIGTERM); server-side work goes on'],
];

const columns = (rows: readonly (readonly [string, string])[], indent = 2): string[] => {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${' '.repeat(indent)}${a.padEnd(width)}  ${b}`);
};

export function usageLine(command: Command): string {
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = o.type === 'string' ? `--${name} ${o.value ?? 'value'}` : `--${name}`;
    return `[${flag}${o.multiple ? ' …' : ''}]`;
  });
  const more = command.repeatsLast === true ? [`[${command.args.at(-1) ?? ''} …]`] : [];
  return ['agent-widget', command.name, ...command.args, ...more, ...options].join(' ');
}

export function commandHelp(command: Command): string {
  const options = Object.entries(optionsOf(command)).map(([name, o]): [string, string] => [
    `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` <${o.value ?? 'value'}>` : ''}`,
    o.description + (o.multiple ? ' Repeatable.' : ''),
  ]);
  return [
    `${command.summary}`,
    '',
    `Usage: ${usageLine(command)}`,
    ...(command.aliases ? [`Also: ${command.aliases.map((alias) => `agent-widget ${alias}`).join(', ')}`] : []),
    '',
    'Options:',
    ...columns(options),
    ...(command.notes ? ['', ...command.notes] : []),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...command.examples.map((e) => `  $ ${e}`),
    '',
  ].join('\n');
}

/** What a group's help says of the group as a whole. */
const GROUP_NOTES: Record<string, string[]> = {
  // The spec has no operation to list or delete documents (docs/cli.md).
  documents: [
    'The service has no way to list or delete documents: keep the documentId that upload prints',
    '(documents upload --json | jq -r .documentId) to convert it or follow its status later.',
  ],
};

/** `sources list` with its aliases: `sources list (ls)`. */
const nameWithAliases = (command: Command): string =>
  command.aliases ? `${command.name} (${command.aliases.map((alias) => alias.split(' ').at(-1)).join(', ')})` : command.name;

export function groupHelp(group: string, commands: Command[]): string {
  const notes = GROUP_NOTES[group];
  return [
    `Usage: agent-widget ${group} <command>`,
    '',
    'Commands:',
    ...columns(commands.map((c): [string, string] => [nameWithAliases(c), c.summary])),
    ...(notes ? ['', ...notes] : []),
    '',
    `Run agent-widget ${group} <command> --help for its options and an example.`,
    '',
  ].join('\n');
}

export function overviewHelp(commands: Command[], version: string): string {
  return [
    `agent-widget ${version}: the agent's knowledge, documents, analytics and usage from the command line.`,
    '',
    'Usage: agent-widget <command> [options]',
    '',
    'Commands:',
    ...columns(commands.map((c): [string, string] => [nameWithAliases(c), c.summary])),
    '',
    'Every command takes --json (one JSON document on stdout; on failure with error.code, a stable code, and the ids to resume),',
    '--debug (each request on stderr: method, URL, status, time), --profile <name> (a stored login), --no-color and --help.',
    'agent-widget help <command> is <command> --help.',
    '',
    'Environment:',
    ...columns(ENVIRONMENT),
    '',
    'Exit codes:',
    ...columns(EXIT_CODES.map(([code, text]): [string, string] => [String(code), text])),
    '',
    'Example:',
    '  $ AGENT_BASE_URL=http://localhost:5173/sandbox AGENT_API_KEY=… AGENT_ID=demo-agent agent-widget analytics',
    '',
  ].join('\n');
}
