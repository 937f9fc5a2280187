// Which key, base URL and agent a command uses, and where each came from: a flag, then the environment,
// then the stored profile. Everything missing is said in one message.
import { httpUrl } from '../server/url';
import { checkProfileName, DEFAULT_PROFILE, type Config, type Profile } from './config';
import { CliError, usageError, type KeyInUse } from './errors';
import type { Env } from './output';

export interface Setting {
  value: string;
  /** Where it came from, as the user would name it: `AGENT_API_KEY`, `--agent`, `profile default`. */
  from: string;
}

export interface Settings {
  profile: string;
  /** Whether the profile was chosen (--profile or AGENT_WIDGET_PROFILE) rather than the default. */
  chosen: boolean;
  /** The profile as stored; undefined when the file has none of that name. */
  stored: Profile | undefined;
  configFile: string;
  apiKey?: Setting;
  baseUrl?: Setting;
  agentId?: Setting;
}

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

export function resolveSettings(env: Env, config: Config, flags: { profile?: string; agent?: string }): Settings {
  const chosenName = given(flags.profile) ? flags.profile : env.AGENT_WIDGET_PROFILE;
  const profile = given(chosenName) ? checkProfileName(chosenName.trim()) : DEFAULT_PROFILE;
  const stored = config.profiles.get(profile);
  const fromProfile = `profile ${profile}`;
  const pick = (...candidates: [string | undefined, string][]): Setting | undefined => {
    const found = candidates.find(([value]) => given(value));
    return found && given(found[0]) ? { value: found[0], from: found[1] } : undefined;
  };
  return {
    profile,
    chosen: given(chosenName),
    stored,
    configFile: config.file,
    apiKey: pick([env.AGENT_API_KEY, 'AGENT_API_KEY'], [stored?.apiKey, fromProfile]),
    baseUrl: pick([env.AGENT_BASE_URL, 'AGENT_BASE_URL'], [stored?.baseUrl, fromProfile]),
    agentId: pick([flags.agent, '--agent'], [env.AGENT_ID, 'AGENT_ID'], [stored?.agentId, fromProfile]),
  };
}

/** `agent-widget login`, with --profile when the profile is not the default one. */
export function loginCommand(settings: Settings): string {
  return settings.profile === DEFAULT_PROFILE ? 'agent-widget login' : `agent-widget login --profile ${settings.profile}`;
}

const listed = (items: string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;

/** Everything a command cannot start without, said at once; undefined when nothing is missing. */
export function missingSettings(settings: Settings, needsAgent: boolean): CliError | undefined {
  if (settings.chosen && settings.stored === undefined && (!settings.apiKey || !settings.baseUrl))
    return new CliError(
      `There is no profile ${settings.profile} in ${settings.configFile}; run ${loginCommand(settings)} to make it.`,
      'missing_settings',
    );
  const missing: string[] = [];
  if (!settings.apiKey) missing.push('the API key (AGENT_API_KEY)');
  if (!settings.baseUrl) missing.push('the base URL (AGENT_BASE_URL)');
  if (needsAgent && !settings.agentId) missing.push('the agent (--agent or AGENT_ID)');
  const problems: string[] = [];
  if (missing.length > 0)
    problems.push(
      `Not set: ${listed(missing)}. Run ${loginCommand(settings)} to store ${missing.length === 1 ? 'it' : 'them'}, or set the environment ${missing.length === 1 ? 'variable' : 'variables'}.`,
    );
  if (settings.baseUrl && httpUrl(settings.baseUrl.value) === undefined)
    problems.push(`The base URL from ${settings.baseUrl.from} must be an absolute http(s) URL.`);
  return problems.length > 0 ? new CliError(problems.join(' '), 'missing_settings') : undefined;
}

/**
 * A key as it may be printed: its public `sk_live_` prefix and last 4 characters (`sk_live_…a1b2`), so
 * two keys can be told apart and the key cannot be rebuilt. A short key shows nothing of itself.
 */
export function maskKey(key: string): string {
  const prefix = key.startsWith('sk_live_') ? 'sk_live_' : '';
  const secret = key.slice(prefix.length);
  return secret.length >= 16 ? `${prefix}…${secret.slice(-4)}` : `${prefix}…`;
}

/** The key a refused request was sent with, masked, and how to fix it given where it came from. */
export function keyInUse(settings: Settings | undefined): KeyInUse | undefined {
  const key = settings?.apiKey;
  if (settings === undefined || key === undefined) return undefined;
  const fix =
    key.from === 'AGENT_API_KEY'
      ? 'check AGENT_API_KEY (it wins over a stored key) and its agent scope'
      : `run ${loginCommand(settings)} again with a working key, or check its agent scope`;
  return { masked: `${maskKey(key.value)} from ${key.from}`, fix };
}

/** AGENT_WIDGET_REQUEST_TIMEOUT: the seconds each request may take (the client's own 15 when unset); an upload gets its size's time on top. */
export function requestTimeoutMs(env: Env): number | undefined {
  const raw = env.AGENT_WIDGET_REQUEST_TIMEOUT;
  if (raw === undefined || raw === '') return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(seconds >= 0.1 && seconds <= 3600)) throw usageError('AGENT_WIDGET_REQUEST_TIMEOUT must be a number of seconds from 0.1 to 3600.');
  return seconds * 1000;
}
