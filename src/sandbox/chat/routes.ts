// POST /chat: validate, check scope and credits (402 without deduction when short), deduct,
// answer from the knowledge base, and keep the conversation so conversationId continues it.
// An unknown conversationId starts a conversation under that id (a visitor may hold an id from
// an earlier sandbox run); one that belongs to another agent is a 404.
import type { ChatResponse } from '../../core/types';
import { authorizeAgent } from '../auth';
import { optionalString, readJsonObject, requireString } from '../input';
import { newId } from '../random';
import { badRequest, HttpError, json, notFound } from '../responses';
import { authedRoute, type Route } from '../router';
import { accountOf, type Conversation } from '../state';
import { respond } from './responder';

/** The spec shows no limit; this bounds the sandbox's memory and gives clients a 400 to test. */
export const MAX_MESSAGE_LENGTH = 4000;

export const chatRoutes: Route[] = [
  authedRoute('POST', '/chat', async ({ request, state, now, caller }) => {
    const body = await readJsonObject(request);
    const agent = authorizeAgent(state, caller, requireString(body, 'agentId'));
    const message = body.message;
    if (typeof message !== 'string' || message.trim() === '') throw badRequest('message is required (a non-empty string).');
    if (message.length > MAX_MESSAGE_LENGTH) throw badRequest(`message is longer than ${MAX_MESSAGE_LENGTH} characters.`);
    const requestedId = optionalString(body, 'conversationId');
    const existing = requestedId === undefined ? undefined : state.conversations.get(requestedId);
    if (existing && existing.agentId !== agent.id) throw notFound('Conversation not found for this agent.');

    const account = accountOf(state, agent.owner);
    if (account.balance < state.chatCost)
      throw new HttpError(402, 'Insufficient credits: top up to continue chatting.', 'insufficient_credits');

    const at = now.getTime();
    account.balance -= state.chatCost;
    account.ledger.push({ feature: 'chat', agentId: agent.id, amount: state.chatCost, at });
    account.updatedAt = at;

    const conversation: Conversation = existing ?? {
      id: requestedId ?? newId(state.random, 'conv'),
      agentId: agent.id,
      source: 'api',
      startedAt: at,
      messages: [],
    };
    state.conversations.set(conversation.id, conversation);
    const answer = respond(message);
    conversation.messages.push(
      { id: newId(state.random, 'msg'), role: 'user', content: message, at },
      {
        id: newId(state.random, 'msg'),
        role: 'assistant',
        content: answer.reply,
        at,
        sources: answer.sources,
        articleId: answer.articleId,
      },
    );

    const response: ChatResponse = {
      success: true,
      reply: answer.reply,
      conversationId: conversation.id,
      credits: { used: state.chatCost, remaining: account.balance },
    };
    if (answer.sources) response.sources = answer.sources;
    return json(response);
  }),
];
