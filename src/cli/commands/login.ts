// `login`, `logout` and `whoami`: a key, base URL and agent kept in a profile of the config file, so an
// owner sets up once as with gh; the environment still wins over the file.
import { ApiError } from '../../core/http';
import { httpUrl } from '../../server/url';
import type { Command, Context, Values } from '../command';
import { writeConfig, type Profile } from '../config';
import { CliError, printableUrl, refusedKeyCode, serviceSays, usageError } from '../errors';
import { askHidden, askLine, readPiped } from '../prompt';
import { table } from '../render';
import { loginCommand, maskKey, missingSettings, type Setting } from '../settings';
import { plain } from '../text';

const PROFILE_NOTE = 'Profiles: --profile <name> or AGENT_WIDGET_PROFILE picks one (default: default).';
const WHERE_NOTE =
  'The file: AGENT_WIDGET_CONFIG_DIR/config.json, else agent-widget/config.json in XDG_CONFIG_HOME or ~/.config (Linux), ~/Library/Application Support (macOS), %APPDATA% (Windows).';

const text = (value: Values[string]): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A question with the current value as its default (shown as `show` prints it); the default when not on a terminal. */
async function ask(ctx: Context, question: string, current: string | undefined, show = plain): Promise<string | undefined> {
  const answer = await askLine(ctx.stdin, () => ctx.out.prompt(`${question}${current ? ` [${show(current)}]` : ''}: `), ctx.signal);
  return answer === undefined || answer === '' ? current : answer;
}

/** The key: typed with echo off on a terminal, else the first line piped in with --with-key. */
async function readKey(ctx: Context, values: Values): Promise<string> {
  const typed = await askHidden(ctx.stdin, () => ctx.out.prompt('API key (typing is not shown): '), ctx.signal);
  let key = typed;
  if (typed === undefined) key = values['with-key'] === true ? await readPiped(ctx.stdin, 'the key') : undefined;
  else ctx.out.prompt('\n');
  if (key === undefined)
    throw usageError('Not on a terminal: pipe the key in, e.g. echo "$AGENT_API_KEY" | agent-widget login --with-key.');
  if (key === '') throw usageError('No key was given; nothing was stored.');
  if (/\s/.test(key)) throw usageError('A key has no spaces in it (the header is added by the CLI); nothing was stored.');
  return key;
}

/** A cheap authenticated call (GET /credits): a refused key is said, and never stored. */
async function checkKey(ctx: Context, apiKey: string, baseUrl: Setting): Promise<void> {
  try {
    await ctx.connect(apiKey, baseUrl.value).credits({ signal: ctx.signal });
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'http' && (error.status === 401 || error.status === 403))
      throw new CliError(
        `The service at ${printableUrl(baseUrl.value)} refused the key ${maskKey(apiKey)} (${error.status}: ${serviceSays(error)}); nothing was stored.`,
        refusedKeyCode(error.status),
        error,
      );
    const explained = ctx.explain(error, baseUrl);
    throw new CliError(`${explained.message} Nothing was stored.`, explained.code, explained);
  }
}

const login: Command = {
  name: 'login',
  summary: 'Store an API key, base URL and agent in a profile, after checking the key with the service.',
  args: [],
  options: {
    'with-key': {
      type: 'boolean',
      description: 'Read the key from stdin (for scripts), e.g. echo "$KEY" | agent-widget login --with-key.',
    },
    'base-url': { type: 'string', value: 'url', description: 'The service, e.g. https://api.example.com (asked on a terminal).' },
    agent: { type: 'string', value: 'id', description: 'The agent commands use by default (asked on a terminal).' },
  },
  usesAgent: false,
  local: true,
  notes: [
    'On a terminal the key is asked with typing not shown; elsewhere it is read from stdin with --with-key. It is never a flag.',
    'The key is checked with a cheap request (GET /credits) first; a refused key is not stored.',
    'Stored in a file only you can read (0600). AGENT_API_KEY, AGENT_BASE_URL and AGENT_ID still win over it.',
    PROFILE_NOTE,
    WHERE_NOTE,
  ],
  examples: [
    'agent-widget login',
    'echo "$AGENT_API_KEY" | agent-widget login --with-key --base-url https://api.example.com --agent agent_123',
    'agent-widget login --profile staging',
  ],
  async run(ctx, _args, values) {
    const { settings, out } = ctx;
    const flagged = text(values['base-url']);
    const baseUrl = flagged ?? (await ask(ctx, 'Base URL of the service', settings.baseUrl?.value, printableUrl));
    const onTerminal = ctx.stdin.isTTY === true;
    const missing = [
      ...(baseUrl === undefined ? ['the base URL (--base-url or AGENT_BASE_URL)'] : []),
      ...(!onTerminal && values['with-key'] !== true ? ['the key (pipe it in with --with-key)'] : []),
    ];
    if (missing.length > 0) throw usageError(`Not on a terminal, so nothing can be asked: give ${missing.join(' and ')}.`);
    if (baseUrl === undefined || httpUrl(baseUrl) === undefined) throw usageError('The base URL must be an absolute http(s) URL.');
    const agentId = text(values.agent) ?? (await ask(ctx, 'Agent id (optional)', settings.agentId?.value));
    const apiKey = await readKey(ctx, values);
    out.hide(apiKey);
    await checkKey(ctx, apiKey, { value: baseUrl, from: flagged ? '--base-url' : 'your answer' });

    const profile: Profile = { apiKey, baseUrl, ...(agentId ? { agentId } : {}) };
    ctx.config.profiles.set(settings.profile, profile);
    await writeConfig(ctx.config);
    const summary = {
      profile: settings.profile,
      configFile: ctx.config.file,
      apiKey: maskKey(apiKey),
      baseUrl: printableUrl(baseUrl),
      agentId: agentId ?? null,
    };
    if (out.json) out.data(summary);
    else
      out.line(
        `Logged in as profile ${summary.profile}: key ${summary.apiKey} accepted by ${summary.baseUrl}${agentId ? `, agent ${plain(agentId)}` : ''}. Stored in ${summary.configFile}.`,
      );
    for (const [setting, variable] of [
      [settings.apiKey, 'AGENT_API_KEY'],
      [settings.baseUrl, 'AGENT_BASE_URL'],
    ] as const)
      if (setting?.from === variable) out.note(`Note: ${variable} is set in this environment and wins over the stored value.`);
  },
};

const logout: Command = {
  name: 'logout',
  summary: "Remove the profile's stored API key (its base URL and agent stay).",
  args: [],
  options: {},
  usesAgent: false,
  local: true,
  notes: [PROFILE_NOTE],
  examples: ['agent-widget logout', 'agent-widget logout --profile staging'],
  async run(ctx) {
    const { settings, out } = ctx;
    const stored = settings.stored;
    const removed = stored?.apiKey;
    if (stored !== undefined && removed !== undefined) {
      const { apiKey: _removed, ...kept } = stored;
      ctx.config.profiles.set(settings.profile, kept);
      await writeConfig(ctx.config);
    }
    const result = { profile: settings.profile, removed: removed === undefined ? null : maskKey(removed), configFile: ctx.config.file };
    if (out.json) out.data(result);
    else if (result.removed === null) out.line(`Profile ${result.profile} has no stored key; nothing to remove.`);
    else out.line(`Removed the key ${result.removed} of profile ${result.profile} from ${result.configFile}.`);
    if (settings.apiKey?.from === 'AGENT_API_KEY') out.note('Note: AGENT_API_KEY is still set in this environment; commands use it.');
  },
};

const whoami: Command = {
  name: 'whoami',
  summary: 'Which API key (masked), base URL and agent commands use, and where each comes from.',
  args: [],
  options: {},
  usesAgent: true,
  local: true,
  notes: ['Nothing is sent to the service. Exit 2 when the key or the base URL is missing.', PROFILE_NOTE],
  examples: ['agent-widget whoami', 'agent-widget whoami --profile staging --json'],
  async run(ctx) {
    const { settings, out } = ctx;
    const shown = (setting: Setting | undefined, show: (value: string) => string): { value: string; from: string } | null =>
      setting ? { value: show(setting.value), from: setting.from } : null;
    const result = {
      profile: settings.profile,
      configFile: settings.configFile,
      apiKey: shown(settings.apiKey, maskKey),
      baseUrl: shown(settings.baseUrl, printableUrl),
      agentId: shown(settings.agentId, plain),
    };
    if (out.json) out.data(result);
    else {
      const row = (label: string, setting: { value: string; from: string } | null): string[] =>
        setting ? [label, setting.value, `from ${setting.from}`] : [label, 'not set', ''];
      out.line(`Profile ${result.profile} (${result.configFile}${settings.stored ? '' : ', not stored'})`);
      for (const line of table([row('API key', result.apiKey), row('Base URL', result.baseUrl), row('Agent', result.agentId)]))
        out.line(`  ${line.trimEnd()}`);
    }
    const missing = missingSettings({ ...settings, chosen: false }, false);
    if (missing) throw missing;
    if (!settings.stored && settings.chosen) out.note(`Profile ${settings.profile} is not stored; ${loginCommand(settings)} makes it.`);
  },
};

export const loginCommands: Command[] = [login, logout, whoami];
