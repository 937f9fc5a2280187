// Bearer keys, ownership and scope. An agent the key's owner does not own is indistinguishable
// from an unknown one (404). The spec's error table has no 403, so a key used for one of the
// owner's agents outside its scope answers 401 with a message (and code scope_mismatch) that says so.
import { HttpError, notFound } from './responses';
import type { AgentRecord, KeyRecord, SandboxState } from './state';

const KEY_FORMAT = /^sk_live_[A-Za-z0-9_]{16,}$/;

const unauthorized = (message: string, code = 'unauthorized'): HttpError => new HttpError(401, message, code);

export function authenticate(state: SandboxState, request: Request): KeyRecord {
  const header = request.headers.get('Authorization');
  if (header === null || header.trim() === '') throw unauthorized('Missing API key: send the header Authorization: Bearer <API key>.');
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  const token = match?.[1];
  if (token === undefined || !KEY_FORMAT.test(token))
    throw unauthorized('Malformed Authorization header: expected Bearer followed by a key starting with sk_live_.');
  const record = state.keys.get(token);
  if (!record) throw unauthorized('Invalid API key.');
  if (!record.active) throw unauthorized('This API key has been deactivated.');
  return record;
}

/**
 * The agent `agentId` when `caller` may use it. `notFoundMessage` names what the caller asked
 * for, so a web source of another owner's agent reads "Web source not found.".
 */
export function authorizeAgent(state: SandboxState, caller: KeyRecord, agentId: string, notFoundMessage = 'Agent not found.'): AgentRecord {
  const agent = state.agents.get(agentId);
  if (!agent || agent.owner !== caller.owner) throw notFound(notFoundMessage);
  if (caller.agentId !== undefined && caller.agentId !== agentId)
    throw unauthorized('This API key is scoped to a different agent.', 'scope_mismatch');
  return agent;
}
